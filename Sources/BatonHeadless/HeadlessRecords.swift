import BatonClient
import BatonCore

/// One HTTP request the ``HeadlessPresenter`` made. Printable: its URL shows only scheme and host.
public struct HeadlessRequest: Sendable, Hashable, CustomStringConvertible {
    /// Why the request was made.
    public enum Purpose: String, Sendable, Hashable {
        /// Loading a page (the journey, or a redirect the browser followed).
        case page
        /// The Privue page script redeeming the `#ticket`.
        case redeemTicket = "redeem ticket"
        /// The Privue mobile-number form.
        case mobileSignIn = "mobile sign-in"
        /// The Privue journey's submit form.
        case submit
        /// The sandbox control API completing a journey.
        case control = "control: complete journey"
    }

    /// `GET` or `POST`.
    public let method: String
    /// The URL requested; redacted when printed.
    public let url: SensitiveURL
    /// Why.
    public let purpose: Purpose
    /// The response status, or `nil` when no response arrived.
    public let status: Int?
    /// The page's `data-page` marker (`chia-journey`, `privue-sign-in`, `bb-connect`, …), for HTML responses.
    public let page: String?

    public var description: String {
        "\(method) \(url.redacted) (\(purpose.rawValue)) → \(status.map(String.init) ?? "no response")"
            + (page.map { " [\($0)]" } ?? "")
    }
}

/// One journey the ``HeadlessPresenter`` presented, and how it ended.
public struct HeadlessPresentation: Sendable, Hashable, CustomStringConvertible {
    /// The browser style, as telemetry names it.
    public let browser: TelemetryEvent.BrowserKind
    /// The journey URL; redacted when printed.
    public let url: SensitiveURL
    /// The `data-page` marker of the first page the journey showed (`chia-journey` for a valid Chia link).
    public let firstPage: String?
    /// How the Privue journey signed in, for camera web views.
    public let signIn: HeadlessSignIn?
    /// What the presenter reported to the coordinator.
    public let completion: BrowserCompletion

    public var description: String {
        "\(browser.rawValue) \(url.redacted) [\(firstPage ?? "no page")] → \(Self.describe(completion))"
    }

    /// `scheme://host/…` of a link, never its path, query or fragment.
    static func redacted(_ link: String) -> String {
        guard let parts = RawURLComponents(link) else { return "…" }
        return "\(parts.scheme.lowercased())://\(parts.host.lowercased())/…"
    }

    /// A printable completion: a returned link shows only its scheme and host.
    static func describe(_ completion: BrowserCompletion) -> String {
        switch completion {
        case .handedToSystem: "handed to the system browser"
        case .failedToOpen: "failed to open"
        case .closedWithoutReturn: "closed without a return"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .returned(let link):
            "returned " + redacted(link)
        }
    }
}
