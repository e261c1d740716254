import BatonCore
import BatonTestSupport
import Foundation
import Synchronization
import Testing

@testable import BatonClient

/// `Conformance/link-routing.v1.json` on ``BatonLinkRouter``, and the hand-over to the flows.
@Suite(.timeLimit(.minutes(1))) struct BatonLinkRouterTests {
    struct Vectors: Decodable {
        struct Registration: Decodable {
            let bb: [String]
            let privue: [String]
            let genericReturnHost: String
        }
        struct Case: Decodable, CustomTestStringConvertible, Sendable {
            struct Expect: Decodable, Sendable {
                let flow: String?
                let landing: Bool?
                let reason: String?
            }
            let id: String
            let url: String
            let genericReturnApproved: Bool?
            let expect: Expect
            var testDescription: String { id }
        }
        let registration: Registration
        let cases: [Case]
    }

    static let vectors = try! VectorFile.load("Conformance/link-routing.v1.json", as: Vectors.self)

    static func router(generic: Bool) throws -> BatonLinkRouter {
        let registration = vectors.registration
        return try BatonLinkRouter(
            bankConnect: registration.bb.map { try RegisteredReturnURL($0) },
            verification: registration.privue.map { try RegisteredReturnURL($0) },
            genericReturn: generic ? try GenericReturnParser(registeredHost: registration.genericReturnHost) : nil)
    }

    static func expectation(_ route: BatonLinkRouter.Route) -> (flow: String?, landing: Bool?, reason: String?) {
        switch route {
        case .bankConnect(let landing): ("bb", landing, nil)
        case .verification(let landing): ("privue", landing, nil)
        case .chiaGenericReturn: ("chia", nil, nil)
        case .none(let refusal): (nil, nil, refusal.rawValue)
        }
    }

    @Test(arguments: vectors.cases)
    func vector(_ vector: Vectors.Case) throws {
        let router = try Self.router(generic: vector.genericReturnApproved ?? true)
        let got = Self.expectation(router.route(vector.url))
        #expect(got.flow == vector.expect.flow && got.landing == vector.expect.landing, "\(vector.id)")
        #expect(got.reason == vector.expect.reason, "\(vector.id)")
    }

    @Test func aURLRegisteredForBothBBAndPrivueIsRefused() throws {
        #expect(throws: BatonLinkRouter.RegistrationError.self) {
            try BatonLinkRouter(
                bankConnect: [try RegisteredReturnURL("https://app.example.com/return")],
                verification: [try RegisteredReturnURL("https://APP.example.com:443/return?x=1")], genericReturn: nil)
        }
    }

    @Test func aBBReturnReachesTheConnectFlowAndOnlyIt() async throws {
        let backend = ScriptedBackend()
        let presenter = RecordingPresenter()
        await backend.script {
            $0.connectStateAnswers = [.success(ConnectSessionState(sessionID: "ses_1", status: .ok))]
        }
        // A cold start with a kept session: the routed link confirms it with the backend.
        let connect = ConnectCoordinator(
            callback: Fixtures.httpsCallback, returnParser: Fixtures.connectParser,
            polling: PollingPolicy(interval: 2, timeout: 10), backend: backend, presenter: presenter,
            clock: ManualClock(Fixtures.t0), pendingSessionID: "ses_1")
        let home = Counter()
        let flows = BatonLinkRouter.Flows(bankConnect: connect, marketplaceHome: { home.add() })
        let router = try Self.router(generic: true)
        let route = await router.deliver("https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok", to: flows)
        #expect(route == .bankConnect(landing: false))
        await connect.whenIdle()
        #expect(await connect.screen == .connected)
        #expect(await backend.calls == [.connectSession(id: "ses_1")])
        #expect(home.value == 0)
        // The generic return with no Chia card on screen goes home; an unrelated link goes nowhere.
        #expect(await router.deliver("https://partner.example/?status=done", to: flows) == .chiaGenericReturn)
        #expect(home.value == 1)
        #expect(await router.deliver("https://news.example/", to: flows) == .none(.unregisteredURL))
        #expect(await backend.calls == [.connectSession(id: "ses_1")])
        await connect.stop()
    }
}

/// A thread-safe count, for callbacks.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
