import BatonClient
import BatonCore
import BatonHTTP
import BatonHeadless
import BatonTestSupport
import Foundation
import Testing

/// The return whose universal link did not fire (issue 22): the provider redirects, the browser loads the https return
/// URL itself and shows the backend's landing page, the user taps its "Return to the app" link, the OS delivers that
/// link to the app's handler (``ConnectCoordinator/returnLink(_:)``, ``VerificationCoordinator/returnLink(_:)``:
/// what `onOpenURL` calls), and the flow ends with the backend's answer. Nothing of the redirect's query is on the page.
@Suite("Landing page return end to end", .timeLimit(.minutes(1)))
struct LandingReturnEndToEndTests {
    static let returnHosts: Set<String> = ["app.example.com", EndToEndStack.openHost]

    /// Checks what every landing visit must show (and that the backend's metrics hold nothing of the redirect's
    /// query either), and returns the page's "Return to the app" link.
    static func landingLink(
        _ landing: UnfiredReturnBrowser.Landing?, path: String, stack: EndToEndStack
    ) async throws -> String {
        let landing = try #require(landing, "the browser did not reach the landing page")
        #expect(landing.status == 200)
        #expect(landing.headers["cache-control"] == "no-store")
        #expect(landing.html.contains(#"data-page="return-landing""#))
        let query = try #require(URLComponents(string: landing.redirect)?.percentEncodedQuery)
        #expect(!landing.queryValues.isEmpty && !landing.queryIDs.isEmpty)
        #expect(!landing.html.contains(query))
        for value in landing.queryValues {
            #expect(!landing.html.contains(value), "the landing page echoes a query value")
        }
        let metrics = try await stack.transport.send(OutboundRequest(url: stack.running.admin.url("/metrics")))
        #expect(metrics.status == 200)
        let metricsText = String(decoding: metrics.body, as: UTF8.self)
        #expect(metricsText.contains(#"route="\#(path)""#))
        #expect(!metricsText.contains(query))
        // Labels are fixed vocabularies (a status may be one): no id of the redirect is.
        for value in landing.queryIDs {
            #expect(!metricsText.contains(value), "a metric holds an id from the query")
        }
        let link = try #require(landing.returnToTheAppLink)
        // Towards the other associated host (Apple's same-domain rule), the same path, no query, no fragment.
        #expect(link == "https://\(EndToEndStack.openHost)\(path)")
        return link
    }

    @Test(arguments: [("Ok", ConnectScreen.connected), ("Cancelled", ConnectScreen.cancelled)])
    func bbLandingLinkEndsTheFlowWithTheBackendsAnswer(resultCode: String, expected: ConnectScreen) async throws {
        try await EndToEndStack.run { stack in
            let journey = HeadlessPresenter()
            await journey.script(.completeConnect(resultCode: resultCode))
            let browser = UnfiredReturnBrowser(journey: journey, stack: stack, returnHosts: Self.returnHosts)
            // The app registers the landing link's URL beside the provider's return URLs (CONTRACTS §1.1).
            let registered = EndToEndStack.bbReturnURLs + ["https://\(EndToEndStack.openHost)/bb-callback"]
            let coordinator = ConnectCoordinator(
                callback: .https(host: "app.example.com", path: "/bb-callback"),
                returnParser: try ConnectReturnParser(registered: registered), backend: stack.client(),
                presenter: browser, clock: ManualClock(Date()))
            try await Self.stopping({ await coordinator.stop() }) {
                await coordinator.connectTapped()
                let link = try await Self.landingLink(await browser.nextLanding(), path: "/bb-callback", stack: stack)
                #expect(await coordinator.screen == .inBrowser, "the redirect reached the app")

                await coordinator.returnLink(link)
                // The bare link ends the browser phase at once; it claims no outcome.
                try #require(await coordinator.screen == .confirming(.unknown), "the landing link was ignored")
                let settled = await first(coordinator.screens) {
                    ![.starting, .inBrowser, .confirming(.unknown)].contains($0)
                }
                #expect(settled == expected)
                let sessionID = try #require(await journey.presentations.first.flatMap(Self.sessionID))
                let state = try await stack.client().connectSession(id: sessionID)
                #expect(state.status.rawValue == resultCode.lowercased())
            }
        }
    }

    @Test(arguments: ["approved", "rejected"])
    func privueLandingLinkEndsTheFlowWithTheBackendsAnswer(status: String) async throws {
        try await EndToEndStack.run { stack in
            let journey = HeadlessPresenter()
            await journey.script(.submitVerification(status: status))
            let browser = UnfiredReturnBrowser(journey: journey, stack: stack, returnHosts: Self.returnHosts)
            let registered = [EndToEndStack.privueReturnURL, "https://\(EndToEndStack.openHost)/kyc/done"]
            let coordinator = VerificationCoordinator(
                workflow: EndToEndStack.workflow, returnParser: try VerificationReturnParser(registered: registered),
                backend: stack.client(), presenter: browser, clock: ManualClock(Date()), urls: .development)
            try await Self.stopping({ await coordinator.stop() }) {
                await coordinator.verifyTapped()
                let link = try await Self.landingLink(await browser.nextLanding(), path: "/kyc/done", stack: stack)
                #expect(await coordinator.screen == .inJourney, "the redirect reached the app")

                await coordinator.returnLink(link)
                // The bare link ends the journey at once, with no status hint.
                try #require(await coordinator.screen == .confirming(landingHint: nil), "the landing link was ignored")
                let settled = await first(coordinator.screens) {
                    if case .settled = $0 { return true }
                    return $0 == .checkLater
                }
                let backend = try await stack.client().verification(workflow: EndToEndStack.workflow)
                #expect(backend.status == VerificationStatus(rawValue: status))
                #expect(settled == .settled(backend.status))
            }
        }
    }

    /// Runs `body`, then `stop` (also when `body` throws: the browser stays on the landing page until the flow stops).
    static func stopping(_ stop: () async -> Void, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    /// The `sessionId` of the redirect the journey produced (read only to ask the backend in the test).
    static func sessionID(_ presentation: HeadlessPresentation) -> String? {
        guard case .returned(let link) = presentation.completion else { return nil }
        return URLComponents(string: link)?.queryItems?.first { $0.name == "sessionId" }?.value
    }
}
