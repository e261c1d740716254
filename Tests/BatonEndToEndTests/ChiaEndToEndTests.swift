import BatonClient
import BatonCore
import BatonHeadless
import BatonTestSupport
import Foundation
import Testing

/// Chia through the headless app: the real coordinator, the app's URLSession backend client, a live backend with
/// the catalog pipeline, and the sandbox's hosted journey opened in the (headless) external browser.
@Suite("Chia end to end", .timeLimit(.minutes(1)))
struct ChiaEndToEndTests {
    static let item = "cat_weight_care"

    struct App {
        let coordinator: ChiaHandoffCoordinator
        let presenter: HeadlessPresenter
        let clock: ManualClock
    }

    /// A coordinator for the shareable item, its just-in-time handoff already rendered.
    static func app(_ stack: EndToEndStack) async throws -> App {
        let presenter = HeadlessPresenter()
        let clock = ManualClock(Date())
        let coordinator = ChiaHandoffCoordinator(
            catalogItemID: item, genericReturn: nil, backend: stack.client(), store: InMemoryPendingAttemptStore(),
            presenter: presenter, clock: clock)
        await coordinator.callToActionTapped()
        let shown = await first(coordinator.screens) { $0.shareEnabled }
        guard case .handoff(let card) = shown?.content, case .shareOrNeutral = card.handoff else {
            throw Unexpected("no share_or_neutral handoff for \(item)")
        }
        return App(coordinator: coordinator, presenter: presenter, clock: clock)
    }

    static func handoffSessions(_ stack: EndToEndStack) async throws -> [[String: Any]] {
        let state = try await stack.control(stack.sandbox.chiaOrigin, "/_sandbox/state")["state"] as? [String: Any]
        return state?["handoffSessions"] as? [[String: Any]] ?? []
    }

    static func sharePosts(_ stack: EndToEndStack) async throws -> [[String: Any]] {
        let requests = try await stack.control(stack.sandbox.chiaOrigin, "/_sandbox/requests")["requests"]
        return (requests as? [[String: Any]] ?? []).filter {
            $0["method"] as? String == "POST" && $0["path"] as? String == "/v2/handoff-sessions"
        }
    }

    @Test func shareOpensOneValidJourneyInTheExternalBrowser() async throws {
        try await EndToEndStack.run { stack in
            let app = try await Self.app(stack)
            await app.coordinator.shareTapped()
            await app.coordinator.whenIdle()
            let opened = await app.presenter.presentations
            #expect(opened.count == 1)
            #expect(opened.first?.browser == .external)
            #expect(opened.first?.firstPage == "chia-journey")
            #expect(opened.first?.completion == .handedToSystem)
            let sessions = try await Self.handoffSessions(stack)
            #expect(sessions.count == 1)
            #expect(sessions.first?["opens"] as? Int == 1)
            await app.coordinator.stop()
        }
    }

    @Test func continueWithoutSharingOpensTheNeutralPageAndCreatesNoSession() async throws {
        try await EndToEndStack.run { stack in
            let app = try await Self.app(stack)
            await app.coordinator.continueTapped()
            await app.coordinator.whenIdle()
            let opened = await app.presenter.presentations
            #expect(opened.map(\.firstPage) == ["chia-neutral"])
            #expect(try await Self.handoffSessions(stack).isEmpty)
            #expect(try await Self.sharePosts(stack).isEmpty)
            await app.coordinator.stop()
        }
    }

    @Test func doubleTapSendsOneRequestAndOpensOneJourney() async throws {
        try await EndToEndStack.run { stack in
            let app = try await Self.app(stack)
            async let first: Void = app.coordinator.shareTapped()
            async let second: Void = app.coordinator.shareTapped()
            _ = await (first, second)
            await app.coordinator.whenIdle()
            #expect(await app.presenter.presentations.count == 1)
            let posts = try await Self.sharePosts(stack)
            #expect(posts.count == 1)
            let sessions = try await Self.handoffSessions(stack)
            #expect(sessions.count == 1)
            #expect(sessions.first?["idempotencyKey"] as? String == posts.first?["idempotencyKey"] as? String)
            await app.coordinator.stop()
        }
    }

    @Test func retryAfterA503ReusesTheKeyAndOpensOneJourney() async throws {
        try await EndToEndStack.run { stack in
            // Enough 503s to outlast the backend's own provider retries, so the app sees the failure.
            try await stack.fault(
                stack.sandbox.chiaOrigin,
                #"{"endpoint":"POST /v2/handoff-sessions","fault":"status","status":503,"count":3}"#)
            let app = try await Self.app(stack)
            await app.coordinator.shareTapped()
            await app.coordinator.whenIdle()
            #expect(await app.presenter.presentations.isEmpty)
            #expect(await app.coordinator.screen.notice == .shareRetryLater)
            // The Retry-After passes; sharing is offered again, with the same request kept.
            app.clock.advance(by: 5)
            _ = await first(app.coordinator.screens) { $0.shareEnabled && $0.notice == .shareUncertain }
            await app.coordinator.shareTapped()
            await app.coordinator.whenIdle()
            #expect(await app.presenter.presentations.map(\.firstPage) == ["chia-journey"])
            let keys = Set(try await Self.sharePosts(stack).compactMap { $0["idempotencyKey"] as? String })
            #expect(keys.count == 1)
            #expect(try await Self.sharePosts(stack).count == 4)
            #expect(try await Self.handoffSessions(stack).count == 1)
            await app.coordinator.stop()
        }
    }
}

struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
