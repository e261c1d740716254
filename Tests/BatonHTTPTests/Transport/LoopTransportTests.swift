import Foundation
import Synchronization
import Testing

@testable import BatonHTTP

/// ``CurlTransport`` driven by the event loop a request is sent from: a handler's provider call is written, awaited
/// and answered on its own loop, with cancellation, timeouts, the loop's exit and the transport's end handled there.
@Suite("CurlTransport on an event loop")
struct LoopTransportTests {
    /// Runs `body` in a task that prefers `loop`, so it runs on the loop's thread.
    private func onLoop<T: Sendable>(
        _ loop: EventLoop, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await Task(executorPreference: loop) { try await body() }.value
    }

    /// Reads `loop`'s attachment count on its thread.
    private func attachments(of loop: EventLoop) async -> Int {
        await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: loop.attachmentCount) }
        }
    }

    @Test func aHandlersRequestsAreDrivenByItsLoopNotByTheTransportsThread() async throws {
        try await withServer(router: transportTestRouter()) { upstream in
            let transport = CurlTransport()
            var relay = Router()
            relay.get("/relay") { _ in
                let answer = try await transport.send(OutboundRequest(url: upstream.url("/hello")))
                return HTTPResponse(status: answer.status, body: answer.body)
            }
            try await withServer(router: relay) { server in
                let client = CurlTransport()  // the test's own calls: not on a loop
                for _ in 0..<20 {
                    let response = try await client.send(OutboundRequest(url: server.url("/relay")))
                    #expect(response.status == 200)
                    #expect(response.bodyText == "hello")
                }
                #expect(client.startedOnThread.load(ordering: .relaxed) == 20)
                #expect(client.startedOnLoops.load(ordering: .relaxed) == 0)
            }
            #expect(transport.startedOnLoops.load(ordering: .relaxed) == 20)
            #expect(transport.startedOnThread.load(ordering: .relaxed) == 0)
        }
    }

    @Test func concurrentRequestsLargeBodiesAndATimeoutOnOneLoop() async throws {
        let fixture = EventLoopTests.Fixture()
        try await withServer(router: transportTestRouter(), grace: .milliseconds(100)) { server in
            let transport = CurlTransport()
            let payload = Array((0..<300_000).map { UInt8($0 % 251) })
            let bodies = try await onLoop(fixture.loop) {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<32 {
                        group.addTask {
                            let echoed = try await transport.send(
                                OutboundRequest(method: .post, url: server.url("/echo"), body: payload))
                            return echoed.body == payload ? 1 : 0
                        }
                    }
                    return try await group.reduce(0, +)
                }
            }
            #expect(bodies == 32)
            // libcurl's timer, not a socket, ends this one: the loop must wake for it (the handler answers after
            // 30 s, so ending well before proves the timer fired, with room for a loaded CI host).
            let clock = ContinuousClock()
            let start = clock.now
            let error = await #expect(throws: TransportError.self) {
                try await onLoop(fixture.loop) {
                    _ = try await transport.send(OutboundRequest(url: server.url("/slow"), timeout: .milliseconds(300)))
                }
            }
            #expect(error?.kind == .timedOut)
            #expect(clock.now - start < .seconds(20))
            #expect(transport.startedOnLoops.load(ordering: .relaxed) == 33)
            #expect(transport.startedOnThread.load(ordering: .relaxed) == 0)
        }
        await EventLoopTests.stop(fixture.loop)
    }

    /// When a task ended, read from any thread.
    private final class EndTime: Sendable {
        private let value = Mutex<ContinuousClock.Instant?>(nil)

        func record() { value.withLock { $0 = .now } }

        var instant: ContinuousClock.Instant? { value.withLock { $0 } }
    }

    /// A request to `/slow` (answered after 30 s, or never within its 20 s timeout) sent on a fresh loop through a fresh
    /// transport, handed to `body` once the server has it, with the clock started and the instant the request's task
    /// ended (recorded by the task itself, on the loop's thread: the test's own task may wait seconds for a thread of
    /// the cooperative pool while the suites beside it keep both busy).
    private func withSlowRequestOnALoop(
        _ body: (
            EventLoop, HTTPServer, CurlTransport, Task<OutboundResponse, any Error>, EndTime, ContinuousClock.Instant
        ) async throws -> Void
    ) async throws {
        let fixture = EventLoopTests.Fixture()
        let started = Signal()
        let ended = EndTime()
        try await withServer(router: transportTestRouter(started: started), grace: .milliseconds(100)) { server in
            let transport = CurlTransport()
            let url = server.url("/slow")
            let call = Task(executorPreference: fixture.loop) {
                defer { ended.record() }
                return try await transport.send(OutboundRequest(url: url, timeout: .seconds(20)))
            }
            await started.wait()
            try await body(fixture.loop, server, transport, call, ended, ContinuousClock.now)
        }
        await EventLoopTests.stop(fixture.loop)
    }

    @Test func cancellingTheTaskDetachesTheRequestOnItsLoop() async throws {
        try await withSlowRequestOnALoop { loop, server, transport, call, ended, start in
            call.cancel()
            await #expect(throws: CancellationError.self) { _ = try await call.value }
            let end = try #require(ended.instant)
            #expect(end - start < .seconds(2))
            let after = try await onLoop(loop) { try await transport.send(OutboundRequest(url: server.url("/hello"))) }
            #expect(after.status == 200)
            #expect(transport.startedOnLoops.load(ordering: .relaxed) == 2)
        }
    }

    @Test func aRequestInFlightWhenTheLoopStopsFailsInsteadOfHanging() async throws {
        try await withSlowRequestOnALoop { loop, _, _, call, ended, start in
            await EventLoopTests.stop(loop)
            let error = await #expect(throws: TransportError.self) { _ = try await call.value }
            #expect(error?.kind == .other)
            let end = try #require(ended.instant)
            #expect(end - start < .seconds(5))
        }
    }

    @Test func aTransportThatGoesAwayLeavesNothingOnTheLoop() async throws {
        let fixture = EventLoopTests.Fixture()
        try await withServer(router: transportTestRouter()) { server in
            let loop = fixture.loop
            let (status, during) = try await onLoop(loop) {
                // Made and dropped on the loop: its detach is queued on the loop before this task ends.
                let transport = CurlTransport()
                let status = try await transport.send(OutboundRequest(url: server.url("/hello"))).status
                return (status, loop.attachmentCount)
            }
            #expect(status == 200)
            #expect(during == 1)
            #expect(await attachments(of: loop) == 0)
        }
        await EventLoopTests.stop(fixture.loop)
    }
}
