import BatonClient
import BatonCore
import BatonHeadless
import BatonTestSupport
import Foundation
import Testing

/// Privue through the headless app: the handoff opened in the (headless) camera web view, its ticket redeemed as
/// the page's script does, the journey submitted, and the outcome confirmed by the backend.
@Suite("Privue end to end", .timeLimit(.minutes(1)))
struct VerificationEndToEndTests {
    static func coordinator(_ stack: EndToEndStack, presenter: HeadlessPresenter) throws -> VerificationCoordinator {
        VerificationCoordinator(
            workflow: EndToEndStack.workflow,
            returnParser: try VerificationReturnParser(registered: [EndToEndStack.privueReturnURL]),
            backend: stack.client(), presenter: presenter, clock: ManualClock(Date()), urls: .development)
    }

    @Test func approvedWithTheHandoffTicket() async throws {
        try await EndToEndStack.run { stack in
            let presenter = HeadlessPresenter()
            await presenter.script(.submitVerification(status: "approved"))
            let coordinator = try Self.coordinator(stack, presenter: presenter)
            await coordinator.verifyTapped()
            await coordinator.whenIdle()
            #expect(await coordinator.screen == .settled(VerificationStatus(rawValue: "approved")))
            let opened = try #require(await presenter.presentations.first)
            #expect(opened.browser == .cameraWebView)
            #expect(opened.signIn == .ticket)
            guard case .returned(let link) = opened.completion else {
                Issue.record("no return link")
                return
            }
            #expect(link.hasPrefix(EndToEndStack.privueReturnURL + "?verification_id="))
            // The fragment never went on the wire: every request URL is fragment-free.
            #expect(await presenter.requests.allSatisfy { !$0.url.revealForPresentation().contains("#") })
            #expect(await presenter.requests(for: .redeemTicket).count == 1)
            await coordinator.stop()
        }
    }

    @Test func anExpiredHandoffFallsBackToTheMobileNumber() async throws {
        try await EndToEndStack.run { stack in
            let presenter = HeadlessPresenter()
            // The user takes longer than the ticket's 120 s before the page loads.
            await presenter.script(.submitVerification(status: "approved")) {
                stack.sandboxClock.advance(by: 121)
            }
            let coordinator = try Self.coordinator(stack, presenter: presenter)
            await coordinator.verifyTapped()
            await coordinator.whenIdle()
            let opened = try #require(await presenter.presentations.first)
            #expect(opened.signIn == .mobileNumber(reason: "ticket_expired"))
            #expect(await presenter.requests(for: .mobileSignIn).count == 1)
            #expect(await coordinator.screen == .settled(VerificationStatus(rawValue: "approved")))
            await coordinator.stop()
        }
    }
}
