import BatonCore
import Foundation
import Testing

@testable import BatonClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that records requests and answers from a script.
actor ScriptedTransport: BackendTransport {
    struct Answer: Sendable {
        var status: Int
        var body: String
        var headers: [String: String] = [:]
        var failure: URLError.Code? = nil
    }

    private(set) var requests: [URLRequest] = []
    private var answers: [Answer]

    init(_ answers: [Answer]) { self.answers = answers }

    func send(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        requests.append(request)
        let answer = answers.removeFirst()
        if let failure = answer.failure { throw URLError(failure) }
        let response = HTTPURLResponse(
            url: request.url!, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)!
        return (Data(answer.body.utf8), response)
    }
}

/// The production backend client's requests and error mapping, over a scripted transport.
@Suite struct URLSessionBackendClientTests {
    func client(_ transport: ScriptedTransport, token: String? = "app-token-1") -> URLSessionBackendClient {
        URLSessionBackendClient(
            baseURL: URL(string: "https://partner.example/")!, tokenProvider: { token.map(Secret.init) },
            transport: transport)
    }

    @Test func shareRequestCarriesBearerKeyAndTheExactBody() async throws {
        let transport = ScriptedTransport([
            .init(status: 201, body: #"{"url":"https://chia.example/h/phs_1","expiresAt":"2026-01-01T00:15:00Z"}"#)
        ])
        let body = ShareRequestBody(catalogItemId: "item-1", disclosureVersion: "dv-3", affirmedAt: Fixtures.t0)
        let session = try await client(transport).createHandoffSession(PendingAttempt(key: Fixtures.keyA, body: body))
        #expect(session.url.revealForPresentation() == "https://chia.example/h/phs_1")
        #expect(session.expiresAt == Fixtures.at(900))

        let request = try #require(await transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://partner.example/v2/handoff-sessions")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer app-token-1")
        #expect(request.value(forHTTPHeaderField: "Idempotency-Key") == Fixtures.keyA.rawValue)
        #expect(request.cachePolicy == .reloadIgnoringLocalCacheData)
        let sent = try JSONDecoder().decode(JSONValue.self, from: try #require(request.httpBody))
        #expect(
            sent == [
                "catalogItemId": "item-1", "disclosureVersion": "dv-3", "affirmed": .bool(true),
                "affirmedAt": "2026-01-01T00:00:00Z",
            ])
        #expect(request.httpBody == body.jsonData(), "the same body always encodes to the same bytes")
    }

    @Test(arguments: [
        (
            ScriptedTransport.Answer(
                status: 503, body: #"{"code":"provider_unavailable"}"#, headers: ["Retry-After": "7"]),
            RequestFailure.retryable, RetryDecision.retryKeepingRequest(after: 7)
        ),
        (.init(status: 429, body: ""), .retryable, .retryKeepingRequest(after: nil)),
        (
            .init(status: 409, body: #"{"type":"about:blank","title":"x","status":409,"code":"projection_changed"}"#),
            .definitive, .discardAndRefetchProjection
        ),
        (.init(status: 0, body: "", failure: .timedOut), .retryable, .retryKeepingRequest(after: nil)),
        (.init(status: 0, body: "", failure: .notConnectedToInternet), .retryable, .retryKeepingRequest(after: nil)),
        (
            .init(status: 201, body: #"{"url":"http://not-https.example/"}"#), .retryable,
            .retryKeepingRequest(after: nil)
        ),
    ])
    func failuresAreTypedAndClassified(
        answer: ScriptedTransport.Answer, failure: RequestFailure, decision: RetryDecision
    )
        async
    {
        let attempt = PendingAttempt(
            key: Fixtures.keyA,
            body: ShareRequestBody(catalogItemId: "item-1", disclosureVersion: "dv-3", affirmedAt: Fixtures.t0))
        do {
            _ = try await client(ScriptedTransport([answer])).createHandoffSession(attempt)
            Issue.record("expected a failure")
        } catch {
            #expect(error.failure == failure)
            #expect(error.retryDecision(now: Fixtures.t0) == decision)
            #expect(!error.description.contains("app-token") && !error.description.contains("https"))
        }
    }

    @Test func problemCodeIsKept() async {
        let transport = ScriptedTransport([.init(status: 409, body: #"{"code":"projection_changed"}"#)])
        await #expect(throws: BackendError(.http(status: 409, code: .projectionChanged, retryAfter: nil))) {
            _ = try await client(transport).catalog()
        }
    }

    /// A code this app does not know (from a newer backend) is kept as it came, not dropped or refused; a body
    /// without a code, or one that is not JSON, gives no code.
    @Test(arguments: [
        (#"{"code":"quota_exhausted","status":429}"#, ProblemCode(rawValue: "quota_exhausted") as ProblemCode?),
        (#"{"code":"rate_limited","detail":"slow down"}"#, .rateLimited),
        (#"{"status":429}"#, nil),
        ("<html>busy</html>", nil),
    ])
    func problemCodeIsTyped(body: String, expected: ProblemCode?) async {
        let transport = ScriptedTransport([.init(status: 429, body: body)])
        do {
            _ = try await client(transport).catalog()
            Issue.record("expected a failure")
        } catch {
            #expect(error.problemCode == expected)
            #expect(error.problemCode?.rawValue == expected?.rawValue)
        }
    }

    @Test func noTokenMeansNoRequest() async {
        let transport = ScriptedTransport([])
        await #expect(throws: BackendError(.notAuthenticated)) { _ = try await client(transport, token: nil).catalog() }
        #expect(await transport.requests.isEmpty)
    }

    @Test func catalogDropsCardsThatDoNotDecodeStrictly() async throws {
        var broken = Fixtures.cardJSON(mode: "share_or_neutral", id: "item-2")
        broken["handoff"] = ["mode": "share_or_neutral", "extra": true]
        let cards = [Fixtures.cardJSON(mode: "neutral_only"), broken]
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["items": cards]), as: UTF8.self)
        let result = try await client(ScriptedTransport([.init(status: 200, body: body)])).catalog()
        #expect(result.map(\.id) == ["item-1"])
    }

    @Test(arguments: [#"{"cards":[]}"#, "[]", #"{"items":{}}"#])
    func catalogOtherThanAnItemsEnvelopeIsMalformed(body: String) async {
        await #expect(throws: BackendError(.malformedResponse)) {
            _ = try await client(ScriptedTransport([.init(status: 200, body: body)])).catalog()
        }
    }

    @Test func verificationAndConnectRoutes() async throws {
        let fragmentURL = "https://verify.privue.example/acme/kyc#ticket=2nR9v6QpKZ8mLxT4bYw1dJhSaEfG7uNc"
        let transport = ScriptedTransport([
            .init(status: 201, body: #"{"url":"\#(fragmentURL)","expiresInSeconds":120}"#),
            .init(status: 200, body: #"{"verificationId":"ver_1","status":"approved"}"#),
            .init(
                status: 201,
                body:
                    #"{"sessionId":"ses/1","hostedUrl":"https://bb.example/c/x","callback":{"kind":"custom-scheme","scheme":"acmewallet"}}"#
            ),
            .init(status: 200, body: #"{"sessionId":"ses/1","status":"ok","connectionId":"con_9"}"#),
        ])
        let client = client(transport)
        let handoff = try await client.createVerificationHandoff(workflow: "merchant onboarding")
        #expect(handoff.url.revealForPresentation() == fragmentURL, "fragment kept byte for byte")
        #expect(try await client.verification(workflow: "merchant onboarding").status.rawValue == "approved")
        let session = try await client.createConnectSession(callback: .customScheme)
        #expect(session.callbackKind == .customScheme && session.sessionID == "ses/1")
        #expect(try await client.connectSession(id: session.sessionID).status == .ok)

        let requests = await transport.requests
        #expect(
            requests.map { "\($0.httpMethod!) \($0.url!.absoluteString)" } == [
                "POST https://partner.example/v2/verification-handoffs",
                "GET https://partner.example/v2/verifications/merchant%20onboarding",
                "POST https://partner.example/v2/connect-sessions",
                "GET https://partner.example/v2/connect-sessions/ses%2F1",
            ])
        #expect(requests[0].httpBody == Data(#"{"workflow":"merchant onboarding"}"#.utf8))
        #expect(requests[2].httpBody == Data(#"{"callback":"custom-scheme"}"#.utf8))
    }
}
