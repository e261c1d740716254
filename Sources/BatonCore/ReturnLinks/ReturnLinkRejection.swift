/// Why a URL is not a return link: a short, stable machine reason (its raw value is what `baton parse-return`
/// prints). It never carries any part of the URL.
public enum ReturnLinkRejection: String, Sendable, Hashable, CaseIterable, Codable {
    /// Not a strictly well-formed absolute URL with an authority.
    case unparseableURL = "unparseable_url"
    /// The authority carries userinfo (`user@`), which no registered return URL has.
    case userinfoPresent = "userinfo_present"
    /// The flow accepts only `https` and the URL uses another scheme.
    case notHTTPS = "not_https"
    /// Scheme, host, effective port or path differ from every registered return URL.
    case unregisteredURL = "unregistered_url"
    /// The host is not the registered return host (generic return).
    case unregisteredHost = "unregistered_host"
    /// The port is not the default `https` port (generic return).
    case unregisteredPort = "unregistered_port"
    /// BB: `sessionId` is absent or empty.
    case missingSessionID = "missing_session_id"
    /// BB: `resultCode` is absent.
    case missingResultCode = "missing_result_code"
    /// BB: `resultCode` is not exactly `Ok`, `Error` or `Cancelled`.
    case invalidResultCode = "invalid_result_code"
    /// Privue: `verification_id` is absent or empty.
    case missingVerificationID = "missing_verification_id"
}
