import BatonClient

/// What the scripted user does in a journey the ``HeadlessPresenter`` opens, set per journey by the test or demo.
public enum HeadlessOutcome: Sendable, Hashable {
    /// Privue: submit the journey with `status` (`approved`, `rejected` or `needs_review`) from the signed-in page.
    case submitVerification(status: String)
    /// BB: end the connect flow with `resultCode` (`Ok`, `Error` or `Cancelled`) and, for `Error`, an `error` code,
    /// through the sandbox control API (`POST /_sandbox/journeys/{id}/complete`).
    case completeConnect(resultCode: String, error: String? = nil)
    /// Close the browser once the page has loaded, without any return.
    case close
}

/// How the Privue journey signed the headless browser in.
public enum HeadlessSignIn: Sendable, Hashable {
    /// The handoff's `#ticket=` redeemed as the page's script does.
    case ticket
    /// The ticket was refused (`reason`: `ticket_expired`, `ticket_used`, …) or absent, so the mobile-number form
    /// was used: the graceful fallback seed 001 describes.
    case mobileNumber(reason: String)
}
