import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// The `provider_call` line is written straight into bytes; it must stay byte for byte what `Logger.log` writes for
/// the same fields (the format every log reader of the backend relies on).
@Suite("provider_call log line")
struct ProviderCallLogTests {
    enum Answer: String, CaseIterable, Sendable {
        case created, rejected, unreachable, timedOut
    }

    @Test(arguments: Answer.allCases)
    func theLineIsWhatLoggerLogWritesForTheSameFields(answer: Answer) async throws {
        let date = Date(timeIntervalSince1970: 1_764_633_600.125)
        let sink = InMemoryLogSink()
        let transport = ScriptedTransport()
        transport.on(.post, "/v2/handoff-sessions") { _ in
            switch answer {
            case .created: return OutboundResponse(status: 201)
            case .rejected: return OutboundResponse(status: 409)
            case .unreachable: throw TransportError(.connectFailed)
            case .timedOut: throw TransportError(.timedOut)
            }
        }
        let caller = ProviderCaller(
            transport: transport, policy: ProviderCallPolicy(timeout: .seconds(5), maxAttempts: 1),
            logger: Logger(sink: sink, now: { date }), metrics: BackendMetrics(), sleep: { _ in })
        let request = OutboundRequest(method: .post, url: "http://127.0.0.1:9/v2/handoff-sessions")
        _ = try await caller.send(
            request, provider: .chia, operation: .createHandoffSession, repeatability: .idempotent)

        let line = try #require(sink.captured.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let duration = try #require(object["duration_ms"] as? Double)
        var fields: [String: LogValue] = [
            "provider": "chia", "operation": "create_handoff_session", "attempts": 1, "duration_ms": .double(duration),
        ]
        switch answer {
        case .created: fields["status"] = 201
        case .rejected: fields["status"] = 409
        case .unreachable: fields["outcome"] = .string(ProviderUnavailable.Reason.unreachable.rawValue)
        case .timedOut: fields["outcome"] = .string(ProviderUnavailable.Reason.timedOut.rawValue)
        }
        let reference = InMemoryLogSink()
        Logger(sink: reference, now: { date }).log(.info, "provider_call", fields)
        #expect(sink.captured == reference.captured)
    }
}
