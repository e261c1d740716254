import BatonClient
import BatonCore
import BatonHeadless
import BatonTestSupport
import Foundation
import Testing

/// BB through the headless app: the hosted flow opened in the (headless) authentication session, ended through the
/// sandbox control API, the return caught by the session's callback, and the outcome confirmed by the backend.
@Suite("BB end to end", .timeLimit(.minutes(1)))
struct ConnectEndToEndTests {
    static func run(
        _ stack: EndToEndStack, _ outcome: HeadlessOutcome
    ) async throws -> (ConnectCoordinator, HeadlessPresenter) {
        let presenter = HeadlessPresenter()
        await presenter.script(outcome)
        let coordinator = ConnectCoordinator(
            callback: .https(host: "app.example.com", path: "/bb-callback"),
            returnParser: try ConnectReturnParser(registered: EndToEndStack.bbReturnURLs), backend: stack.client(),
            presenter: presenter, clock: ManualClock(Date()))
        await coordinator.connectTapped()
        await coordinator.whenIdle()
        return (coordinator, presenter)
    }

    static func sessionReads(_ stack: EndToEndStack) async throws -> Int {
        let requests = try await stack.control(stack.sandbox.bbOrigin, "/_sandbox/requests")["requests"]
        return (requests as? [[String: Any]] ?? []).filter {
            $0["method"] as? String == "GET" && $0["route"] as? String == "/v2/connect-sessions/{sessionId}"
        }.count
    }

    @Test(arguments: [("Ok", ConnectScreen.connected), ("Cancelled", ConnectScreen.cancelled)])
    func returnConfirmedByTheBackend(resultCode: String, expected: ConnectScreen) async throws {
        try await EndToEndStack.run { stack in
            let (coordinator, presenter) = try await Self.run(stack, .completeConnect(resultCode: resultCode))
            let (screen, presented, requests) = (
                await coordinator.screen, await presenter.presentations, await presenter.requests
            )
            #expect(screen == expected, "\(screen) \(presented) \(requests)")
            #expect(requests.map(\.purpose) == [.page, .control])
            let opened = try #require(await presenter.presentations.first)
            #expect(opened.browser == .authenticationSession)
            #expect(opened.firstPage == "bb-connect")
            guard case .returned(let link) = opened.completion else {
                Issue.record("no return link")
                return
            }
            #expect(link.contains("resultCode=\(resultCode)"))
            await coordinator.stop()
        }
    }

    @Test func aSheetClosedWithoutAReturnStillAsksTheBackend() async throws {
        try await EndToEndStack.run { stack in
            let (coordinator, presenter) = try await Self.run(stack, .close)
            #expect(await coordinator.screen == .cancelled)
            #expect(await presenter.presentations.first?.completion == .closedWithoutReturn)
            #expect(await presenter.requests(for: .control).isEmpty)
            #expect(try await Self.sessionReads(stack) >= 1)
            await coordinator.stop()
        }
    }
}
