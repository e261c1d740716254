import BatonCore
import Foundation

/// A failed call to the partner backend: its category, HTTP status and problem code, never the request itself.
///
/// The `description` names only the category, status and `code` from the problem+json body; it never contains a URL,
/// a token, a body or a header value.
public struct BackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Hashable {
        /// No HTTP response arrived.
        case transport(ShareRequestOutcome.TransportFailure)
        /// A non-2xx response; `code` is the problem+json `code` when the body had one (a code this app does not
        /// know is kept as it came).
        case http(status: Int, code: ProblemCode?, retryAfter: String?)
        /// A 2xx response whose body did not decode as the contract says.
        case malformedResponse
        /// The app has no token to send (signed out).
        case notAuthenticated
    }

    /// The failure.
    public let kind: Kind

    /// Creates an error of `kind`.
    public init(_ kind: Kind) { self.kind = kind }

    /// The HTTP status, when a response arrived.
    public var status: Int? {
        if case .http(let status, _, _) = kind { return status }
        return nil
    }

    /// The problem+json `code`, when the response had one (for example ``ProblemCode/projectionChanged``); compare
    /// it with `ProblemCode`'s members, or read ``ProblemCode/rawValue`` for a code from a newer backend.
    public var problemCode: ProblemCode? {
        if case .http(_, let code, _) = kind { return code }
        return nil
    }

    /// The share-request outcome this failure amounts to, for `RetryDecision.classify(_:now:)`.
    public var shareRequestOutcome: ShareRequestOutcome {
        switch kind {
        case .transport(let failure): .transportFailure(failure)
        case .http(let status, _, let retryAfter): .response(status: status, retryAfter: retryAfter)
        // A 2xx that did not decode may still have created the session: retrying unchanged is the safe reading.
        case .malformedResponse: .transportFailure(.connectionReset)
        case .notAuthenticated: .response(status: 401, retryAfter: nil)
        }
    }

    /// Whether retrying the same request may succeed (network error, timeout, 429, 5xx), per BatonCore's rule.
    public func retryDecision(now: Date) -> RetryDecision {
        RetryDecision.classify(shareRequestOutcome, now: now)
    }

    /// The coarse category the flow machines and telemetry use.
    public var failure: RequestFailure {
        // The date only resolves an HTTP-date `Retry-After`; it cannot change the category.
        switch retryDecision(now: .distantPast) {
        case .retryKeepingRequest: .retryable
        // Polling cannot sign in: for the connect and verification flows a 401 ends the run like a rejection.
        case .signInAndRetryKeepingRequest, .discardAndRefetchProjection, .done: .definitive
        }
    }

    public var description: String {
        switch kind {
        case .transport(let failure): "backend unreachable (\(failure.rawValue))"
        case .http(let status, let code, _): "backend answered \(status)" + (code.map { " (\($0))" } ?? "")
        case .malformedResponse: "backend response did not match the contract"
        case .notAuthenticated: "no app token available"
        }
    }
}

/// How a request to the backend failed, as a flow machine sees it.
public enum RequestFailure: String, Sendable, Hashable, CaseIterable {
    /// Network error, timeout (408 included), 429 or 5xx: the same request may succeed later.
    case retryable
    /// Any other 4xx: asking again the same way will not help.
    case definitive
}
