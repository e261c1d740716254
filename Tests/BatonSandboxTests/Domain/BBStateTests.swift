import BatonTestSupport
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct BBStateTests {
    let clock = ManualClock()
    let emitter = RecordingEmitter()

    func makeState() throws -> BBState {
        BBState(
            configuration: try Harness.configuration(clock: clock, sleeps: SleepRecorder()),
            origin: .loopback(port: 9003), webhooks: emitter)
    }

    @Test(arguments: [
        ("https://app.example.com/bb-callback", true),
        ("https://app.example.com/bb-callback?user=7", true),
        ("HTTPS://APP.example.com:443/bb-callback", true),
        ("acmewallet://bb-callback", true),
        ("https://app.example.com/bb-callback/", false),
        ("https://app.example.com/BB-callback", false),
        ("http://app.example.com/bb-callback", false),
        ("https://evil.example/bb-callback", false),
        ("https://user@app.example.com/bb-callback", false),
        ("https://app.example.com/bb-callback#x", false),
        ("otherapp://bb-callback", false),
        ("not a url", false),
    ])
    func returnURLMustMatchARegisteredPattern(_ url: String, _ accepted: Bool) async throws {
        let state = try makeState()
        #expect((await state.createSession(returnURL: url) != nil) == accepted)
    }

    @Test func okCreatesAConnectionAndRedirectsWithAllParameters() async throws {
        let state = try makeState()
        let session = try #require(await state.createSession(returnURL: "https://app.example.com/bb-callback?user=7"))
        #expect(await state.hostedURL(of: session) == "http://127.0.0.1:9003/connect/\(session.sessionID)")
        let result = try await state.complete(sessionID: session.sessionID, resultCode: .ok, error: "ignored")
        let connection = try #require(result.session.connectionID)
        #expect(
            result.redirect
                == "https://app.example.com/bb-callback?user=7&sessionId=\(session.sessionID)&resultCode=Ok&connectionId=\(connection)"
        )
        #expect(result.session.error == nil)
        await #expect(throws: BBState.CompletionError.alreadyCompleted) {
            try await state.complete(sessionID: session.sessionID, resultCode: .cancelled, error: nil)
        }
        #expect(emitter.all.map(\.type) == ["connect_session.updated"])
    }

    @Test func errorAndCancelledCarryNoConnection() async throws {
        let state = try makeState()
        let failing = try #require(await state.createSession(returnURL: "acmewallet://bb-callback"))
        let failed = try await state.complete(sessionID: failing.sessionID, resultCode: .error, error: "consent_denied")
        #expect(
            failed.redirect
                == "acmewallet://bb-callback?sessionId=\(failing.sessionID)&resultCode=Error&error=consent_denied")
        let cancelling = try #require(await state.createSession(returnURL: "acmewallet://bb-callback"))
        let cancelled = try await state.complete(sessionID: cancelling.sessionID, resultCode: .cancelled, error: "x")
        #expect(cancelled.redirect == "acmewallet://bb-callback?sessionId=\(cancelling.sessionID)&resultCode=Cancelled")
        #expect(await state.session(cancelling.sessionID)?.resultCode == .cancelled)
    }

    @Test func pendingSessionsExpire() async throws {
        let state = try makeState()
        let session = try #require(await state.createSession(returnURL: "acmewallet://bb-callback"))
        clock.advance(by: 30 * 60)
        #expect(await state.session(session.sessionID)?.status == .expired)
        await #expect(throws: BBState.CompletionError.expired) {
            try await state.complete(sessionID: session.sessionID, resultCode: .ok, error: nil)
        }
        await #expect(throws: BBState.CompletionError.notFound) {
            try await state.complete(sessionID: "cs_unknown", resultCode: .ok, error: nil)
        }
        #expect(emitter.all.count == 1)
    }
}
