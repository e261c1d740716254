import BatonClient
import BatonCore
import BatonHTTP
import BatonHeadless
import Foundation
import Synchronization

/// The journeys `baton demo` walks with the headless app, each checked against what it must end in.
struct DemoWalk: Sendable {
    static let user = "demo_user"
    static let shareItem = "cat_weight_care"

    let base: URL
    let token: @Sendable (String) -> Secret
    let chiaOrigin: String
    let privueReturnURL: String
    let bbReturnURLs: [String]
    let workflow: String
    let transcript: DemoTranscript
    /// Moves the sandbox's clock by the given seconds (forward to let a Privue ticket expire without waiting, then
    /// back).
    let advanceSandboxClock: @Sendable (TimeInterval) -> Void

    /// One journey: its title and the walk that returns whether it ended as expected.
    struct Journey: Sendable {
        let title: String
        let run: @Sendable () async -> Bool
    }

    var journeys: [Journey] {
        [
            Journey(title: "Chia: share selection and continue") { await chiaShare() },
            Journey(title: "Chia: continue without sharing") { await chiaNoShare() },
            Journey(title: "Chia: a double tap opens one journey") { await chiaDoubleTap() },
            Journey(title: "Chia: retry after an injected 503 reuses its key") { await chiaRetry() },
            Journey(title: "Privue: verification approved") {
                await privue(user: Self.user, expireTicketFirst: false)
            },
            Journey(title: "Privue: an expired handoff falls back to the mobile number") {
                await privue(user: Self.user + "_late", expireTicketFirst: true)
            },
            Journey(title: "BB: connect Ok") { await connect(.completeConnect(resultCode: "Ok"), expect: .connected) },
            Journey(title: "BB: connect Cancelled") {
                await connect(.completeConnect(resultCode: "Cancelled"), expect: .cancelled)
            },
            Journey(title: "BB: sheet closed without a return") { await connect(.close, expect: .cancelled) },
        ]
    }

    /// Walks every journey; returns how many ended as expected.
    func walk() async -> Int {
        var passed = 0
        for (index, journey) in journeys.enumerated() {
            transcript.journey(index + 1, of: journeys.count, journey.title)
            let ok = await journey.run()
            transcript.step("result", ok ? "✓ ended as expected" : "✗ did not end as expected")
            if ok { passed += 1 }
        }
        return passed
    }

    // MARK: - The app

    private func backend(user: String) -> TranscribingBackendClient {
        let token = token(user)
        return TranscribingBackendClient(
            client: URLSessionBackendClient(baseURL: base, tokenProvider: { token }, urls: .development),
            transcript: transcript)
    }

    private func report(_ presenter: HeadlessPresenter, from start: Int = 0) async {
        for presentation in await presenter.presentations.dropFirst(start) {
            transcript.step("browser", presentation.description)
            if let signIn = presentation.signIn {
                switch signIn {
                case .ticket: transcript.step("browser", "signed in with the handoff ticket")
                case .mobileNumber(let reason):
                    transcript.step("browser", "ticket refused (\(reason)): signed in with the mobile number instead")
                }
            }
        }
    }

    // MARK: - Chia

    private func chiaApp(
        _ backend: TranscribingBackendClient, _ presenter: HeadlessPresenter
    )
        async -> ChiaHandoffCoordinator?
    {
        let coordinator = ChiaHandoffCoordinator(
            catalogItemID: Self.shareItem, genericReturn: nil, backend: backend, store: InMemoryPendingAttemptStore(),
            presenter: presenter)
        transcript.step("tap", "catalog card \(Self.shareItem): call to action")
        await coordinator.callToActionTapped()
        for await screen in coordinator.screens where screen.content != .loading && screen.content != .card {
            guard case .handoff(let card) = screen.content, case .shareOrNeutral = card.handoff else {
                transcript.step("screen", "no share_or_neutral handoff")
                return nil
            }
            transcript.step("screen", "just-in-time disclosure: " + screen.actionLabels.joined(separator: " | "))
            return coordinator
        }
        return nil
    }

    private func chiaShare() async -> Bool {
        let (backend, presenter) = (backend(user: Self.user), HeadlessPresenter())
        guard let app = await chiaApp(backend, presenter) else { return false }
        transcript.step("tap", MobileHandoff.shareLabel)
        await app.shareTapped()
        await app.whenIdle()
        await report(presenter)
        await app.stop()
        return await presenter.presentations.map(\.firstPage) == ["chia-journey"]
    }

    private func chiaNoShare() async -> Bool {
        let (backend, presenter) = (backend(user: Self.user), HeadlessPresenter())
        guard let app = await chiaApp(backend, presenter) else { return false }
        transcript.step("tap", MobileHandoff.continueWithoutSharingLabel)
        await app.continueTapped()
        await app.whenIdle()
        await report(presenter)
        await app.stop()
        return await presenter.presentations.map(\.firstPage) == ["chia-neutral"] && backend.sentShareKeys.isEmpty
    }

    private func chiaDoubleTap() async -> Bool {
        let (backend, presenter) = (backend(user: Self.user), HeadlessPresenter())
        guard let app = await chiaApp(backend, presenter) else { return false }
        transcript.step("tap", MobileHandoff.shareLabel + " ×2 (at once)")
        async let first: Void = app.shareTapped()
        async let second: Void = app.shareTapped()
        _ = await (first, second)
        await app.whenIdle()
        await report(presenter)
        await app.stop()
        let requests = backend.sentShareKeys.count
        let opened = await presenter.presentations.count
        transcript.step("check", "\(requests) share request, \(opened) journey opened")
        return requests == 1 && opened == 1
    }

    private func chiaRetry() async -> Bool {
        let transport = CurlTransport()
        let fault = #"{"endpoint":"POST /v2/handoff-sessions","fault":"status","status":503,"count":3}"#
        let injected = try? await transport.send(
            OutboundRequest(
                method: .post, url: chiaOrigin + "/_sandbox/faults", headers: ["content-type": "application/json"],
                body: Array(fault.utf8)))
        guard injected?.status == 201 else { return false }
        transcript.step("sandbox", "Chia answers the next 3 share calls with 503 (outlasting the backend's retries)")
        let (backend, presenter) = (backend(user: Self.user), HeadlessPresenter())
        guard let app = await chiaApp(backend, presenter) else { return false }
        transcript.step("tap", MobileHandoff.shareLabel)
        await app.shareTapped()
        await app.whenIdle()
        transcript.step("screen", "share uncertain: the exact body and key are kept; retry offered after Retry-After")
        for await screen in app.screens where screen.shareEnabled && screen.notice == .shareUncertain { break }
        transcript.step("tap", MobileHandoff.shareLabel + " (retry)")
        await app.shareTapped()
        await app.whenIdle()
        await report(presenter)
        await app.stop()
        let keys = backend.sentShareKeys
        let sameKey = keys.count == 2 && keys[0] == keys[1]
        transcript.step("check", sameKey ? "the retry reused the same Idempotency-Key" : "the keys differ")
        let pages = await presenter.presentations.map(\.firstPage)
        return sameKey && pages == ["chia-journey"]
    }

    // MARK: - Privue

    private func privue(user: String, expireTicketFirst: Bool) async -> Bool {
        guard let parser = try? VerificationReturnParser(registered: [privueReturnURL]) else { return false }
        let presenter = HeadlessPresenter()
        let advance = advanceSandboxClock
        let transcript = transcript
        let advanced = Mutex(false)
        await presenter.script(.submitVerification(status: "approved")) {
            guard expireTicketFirst else { return }
            transcript.step("wait", "the user waits past the ticket's 120 s (sandbox clock +121 s)")
            advance(121)
            advanced.withLock { $0 = true }
        }
        let app = VerificationCoordinator(
            workflow: workflow, returnParser: parser, backend: backend(user: user), presenter: presenter,
            urls: .development)
        transcript.step("tap", "Verify")
        await app.verifyTapped()
        await app.whenIdle()
        // Put the sandbox's clock back (only if the journey got as far as moving it): the backend keeps serving it
        // after the walk, on the real clock.
        if advanced.withLock({ $0 }) { advance(-121) }
        await report(presenter)
        let screen = await app.screen
        await app.stop()
        transcript.step("outcome", "\(screen)")
        let signIn = await presenter.presentations.first?.signIn
        let expectedSignIn: HeadlessSignIn = expireTicketFirst ? .mobileNumber(reason: "ticket_expired") : .ticket
        return screen == .settled(VerificationStatus(rawValue: "approved")) && signIn == expectedSignIn
    }

    // MARK: - BB

    private func connect(_ outcome: HeadlessOutcome, expect expected: ConnectScreen) async -> Bool {
        guard let parser = try? ConnectReturnParser(registered: bbReturnURLs) else { return false }
        let presenter = HeadlessPresenter()
        await presenter.script(outcome)
        let app = ConnectCoordinator(
            callback: .https(host: "app.example.com", path: "/bb-callback"), returnParser: parser,
            backend: backend(user: Self.user), presenter: presenter)
        transcript.step("tap", "Connect")
        await app.connectTapped()
        await app.whenIdle()
        await report(presenter)
        let screen = await app.screen
        // Stops the bounded polling a closed sheet leaves running.
        await app.stop()
        transcript.step("outcome", "\(screen)")
        return screen == expected
    }
}
