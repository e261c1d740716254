import BatonCore
import BatonTestSupport
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct PrivueStateTests {
    let clock = ManualClock()
    let emitter = RecordingEmitter()

    func makeState() throws -> PrivueState {
        PrivueState(
            configuration: try Harness.configuration(clock: clock, sleeps: SleepRecorder()),
            origin: .loopback(port: 9002), webhooks: emitter)
    }

    static func ticket(of url: SensitiveURL) -> String {
        String(url.revealForPresentation().split(separator: "=").last!)
    }

    @Test func creationIsIdempotentPerUserAndWorkflow() async throws {
        let state = try makeState()
        let first = try await state.createVerification(userRef: "u1", workflow: "kyc", returnURL: nil)
        let again = try await state.createVerification(userRef: "u1", workflow: "kyc", returnURL: nil)
        let otherWorkflow = try await state.createVerification(userRef: "u1", workflow: "kyb", returnURL: nil)
        let otherUser = try await state.createVerification(userRef: "u2", workflow: "kyc", returnURL: nil)
        #expect(first.created && !again.created && otherWorkflow.created && otherUser.created)
        #expect(first.verification.id == again.verification.id)
        #expect(Set([first, otherWorkflow, otherUser].map(\.verification.id)).count == 3)
        #expect(first.verification.returnURL == "https://app.example.com/kyc/done")
        #expect(
            await state.journeyURL(of: first.verification)
                == "http://127.0.0.1:9002/acme/kyc?verification_id=\(first.verification.id)")
    }

    @Test func returnURLMustBeRegisteredAndHTTPS() async throws {
        let state = try makeState()
        for url in ["https://evil.example/kyc/done", "acme://kyc/done", "http://app.example.com/kyc/done"] {
            await #expect(throws: PrivueState.CreationError.returnURLNotRegistered) {
                try await state.createVerification(userRef: url, workflow: "kyc", returnURL: url)
            }
        }
        let ok = try await state.createVerification(
            userRef: "u", workflow: "kyc", returnURL: "https://APP.example.com/kyc/done?from=app")
        #expect(ok.verification.returnURL == "https://APP.example.com/kyc/done?from=app")
    }

    @Test func ticketsAreSingleUse() async throws {
        let state = try makeState()
        let verification = try await state.createVerification(userRef: "u1", workflow: "kyc", returnURL: nil)
            .verification
        let handoff = try #require(await state.createHandoff(verificationID: verification.id))
        #expect(handoff.expiresInSeconds == 120)
        let url = handoff.url.revealForPresentation()
        #expect(url.hasPrefix("http://127.0.0.1:9002/acme/kyc#ticket="))
        #expect(Self.ticket(of: handoff.url).count == 32)
        guard
            case .signedIn(_, let signedIn) = await state.redeem(ticket: Self.ticket(of: handoff.url), workflow: "kyc")
        else { Issue.record("expected sign-in"); return }
        #expect(signedIn.status == .inProgress)
        #expect(await state.verification(verification.id)?.handoffs.map(\.redeemedAt) == [clock.now])
        #expect(
            await state.redeem(ticket: Self.ticket(of: handoff.url), workflow: "kyc")
                == .askForMobileNumber(reason: "ticket_used"))
        #expect(await state.redeem(ticket: "nope", workflow: "kyc") == .askForMobileNumber(reason: "ticket_unknown"))
    }

    @Test func ticketsExpireAfter120Seconds() async throws {
        let state = try makeState()
        let verification = try await state.createVerification(userRef: "u1", workflow: "kyc", returnURL: nil)
            .verification
        let late = try #require(await state.createHandoff(verificationID: verification.id))
        let inTime = try #require(await state.createHandoff(verificationID: verification.id))
        clock.advance(by: 119)
        guard case .signedIn = await state.redeem(ticket: Self.ticket(of: inTime.url), workflow: "kyc") else {
            Issue.record("a ticket is valid for 120 s")
            return
        }
        clock.advance(by: 1)
        #expect(
            await state.redeem(ticket: Self.ticket(of: late.url), workflow: "kyc")
                == .askForMobileNumber(reason: "ticket_expired"))
        // A late handoff costs a sign-in, never the journey: the stale ticket still names the verification.
        let signedIn = await state.signInWithMobile(
            "+447700900123", verificationID: nil, ticket: Self.ticket(of: late.url), workflow: "kyc")
        #expect(signedIn?.verification.id == verification.id)
        #expect(
            await state.signInWithMobile("12", verificationID: verification.id, ticket: nil, workflow: "kyc") == nil)
    }

    @Test func submitRedirectsWithVerificationIdAndStatusAndRaisesWebhooks() async throws {
        let state = try makeState()
        let verification = try await state.createVerification(userRef: "u1", workflow: "kyc", returnURL: nil)
            .verification
        let handoff = try #require(await state.createHandoff(verificationID: verification.id))
        guard case .signedIn(let session, _) = await state.redeem(ticket: Self.ticket(of: handoff.url), workflow: "kyc")
        else { Issue.record("expected sign-in"); return }
        let redirect = await state.submit(browserSession: session, status: .approved)
        #expect(redirect == "https://app.example.com/kyc/done?verification_id=\(verification.id)&status=approved")
        #expect(await state.verification(verification.id)?.status == .approved)
        #expect(emitter.all.map(\.type) == ["verification.updated", "verification.updated"])
        let last = try JSONSerialization.jsonObject(with: Data(emitter.all[1].body)) as? [String: Any]
        #expect((last?["data"] as? [String: Any])?["status"] as? String == "approved")
        #expect(last?["type"] as? String == "verification.updated")
    }
}
