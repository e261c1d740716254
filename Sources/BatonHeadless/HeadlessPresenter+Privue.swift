import BatonClient
import BatonCore
import Foundation

extension HeadlessPresenter {
    /// Privue in the camera web view: load the URL without its fragment, redeem `#ticket=…` as the page's script
    /// does (`POST <script's fetch URL>` `{"ticket"}`), or, when the ticket is refused, sign in with the mobile
    /// number form; then submit the scripted outcome and catch the redirect the policy intercepts.
    func runCameraWebView(
        _ url: SensitiveURL, policy: JourneyWebPolicy, outcome: HeadlessOutcome, browser: inout HeadlessBrowser
    ) async -> (String?, HeadlessSignIn?, BrowserCompletion) {
        let intercepts: @Sendable (String) -> Bool = { link in
            if case .interceptReturn = policy.decide(navigationTo: link) { return true }
            return false
        }
        // The fragment never goes on the wire; the page's script reads it from the address bar.
        let full = url.revealForPresentation()
        let parts = full.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let ticket =
            parts.count == 2 ? HeadlessBrowser.firstMatch(#"(?:^|&)ticket=([^&]*)"#, in: String(parts[1])) : nil
        guard let target = URL(string: String(parts[0])) else { return (nil, nil, .failedToOpen) }
        guard let first = await browser.load("GET", target, purpose: .page, follow: { !intercepts($0) }) else {
            return (nil, nil, .closedWithoutReturn)
        }
        var page = first
        var how: HeadlessSignIn?
        if first.marker == "privue-sign-in" {
            guard
                let (signedIn, method) = await signIn(
                    on: first, ticket: ticket, intercepts: intercepts, browser: &browser)
            else { return (first.marker, nil, .closedWithoutReturn) }
            page = signedIn
            how = method
        }
        guard case .submitVerification(let status) = outcome, page.marker == "privue-journey",
            let submit = HeadlessBrowser.formAction(endingIn: "/submit", on: page),
            let submitted = await browser.send(
                "POST", submit, purpose: .submit, body: HeadlessBrowser.form([("status", status)]),
                contentType: "application/x-www-form-urlencoded"),
            (300...399).contains(submitted.status), let location = submitted.location,
            let link = URL(string: location, relativeTo: page.url)?.absoluteString, intercepts(link)
        else { return (first.marker, how, .closedWithoutReturn) }
        return (first.marker, how, .returned(link))
    }

    /// Signs in on Privue's sign-in page: the ticket first, the mobile-number form when it is refused or absent.
    private func signIn(
        on page: HeadlessBrowser.Page, ticket: String?, intercepts: @Sendable (String) -> Bool,
        browser: inout HeadlessBrowser
    ) async -> (HeadlessBrowser.Page, HeadlessSignIn)? {
        var reason = "ticket_missing"
        if let ticket, let endpoint = HeadlessBrowser.firstMatch(#"fetch\('([^']+)'"#, in: page.body),
            let redeemURL = URL(string: endpoint, relativeTo: page.url)?.absoluteURL
        {
            let body = try? JSONSerialization.data(withJSONObject: ["ticket": ticket.removingPercentEncoding ?? ticket])
            let answer = await browser.send(
                "POST", redeemURL, purpose: .redeemTicket, body: body, contentType: "application/json")
            let object =
                answer.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) } as? [String: Any]
            if object?["signedIn"] as? Bool == true {
                // The script reloads the page, now with the session cookie.
                guard let reloaded = await browser.load("GET", page.url, purpose: .page, follow: { !intercepts($0) })
                else { return nil }
                return (reloaded, .ticket)
            }
            reason = object?["reason"] as? String ?? "redeem_failed"
        }
        guard let action = HeadlessBrowser.formAction(endingIn: "/sign-in", on: page) else { return nil }
        var fields = [("mobile", mobileNumber)]
        if let id = HeadlessBrowser.firstMatch(#"name="verification_id" value="([^"]*)""#, in: page.body) {
            fields.append(("verification_id", id))
        }
        if let ticket { fields.append(("ticket", ticket)) }
        guard
            let signedIn = await browser.load(
                "POST", action, purpose: .mobileSignIn, body: HeadlessBrowser.form(fields),
                contentType: "application/x-www-form-urlencoded", follow: { !intercepts($0) })
        else { return nil }
        return (signedIn, .mobileNumber(reason: reason))
    }
}
