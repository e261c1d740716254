import BatonHTTP
import Foundation

/// The three providers a backend talks to, as they appear in logs and metric labels.
public enum ProviderName: String, Sendable, Hashable, CaseIterable {
    /// Chia catalog handoff (seed 000).
    case chia
    /// Privue verification (seed 001).
    case privue
    /// BB bank connect (seed 002).
    case bb
}

/// Why a provider call produced no usable answer, though a later identical call may.
public struct ProviderUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Reason: String, Sendable, Hashable {
        /// No connection could be made.
        case unreachable
        /// No complete answer arrived within the timeout.
        case timedOut = "timed_out"
        /// The connection broke or the answer could not be read.
        case broken
        /// The provider answered 429.
        case rateLimited = "rate_limited"
        /// The provider answered 5xx (or refused our credentials, which retrying after a fix cures).
        case providerError = "provider_error"
        /// The provider answered 2xx with a body this backend cannot read.
        case malformedAnswer = "malformed_answer"
        /// The provider answered with a journey URL on a host its `journeyHosts` does not pin.
        case unpinnedHost = "unpinned_host"
    }

    /// What happened.
    public var reason: Reason
    /// The provider's `Retry-After`, in seconds, when it sent one.
    public var retryAfterSeconds: Int?

    /// Creates a value.
    public init(_ reason: Reason, retryAfterSeconds: Int? = nil) {
        self.reason = reason
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { "ProviderUnavailable(\(reason.rawValue))" }
}

/// A provider's definitive refusal: a 4xx that repeating the same request would only get again.
public struct ProviderRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The provider's status.
    public var status: Int
    /// The provider's machine code (`error` or `code` member), when it sent one; never free text.
    public var code: String?

    /// Creates a value.
    public init(status: Int, code: String?) {
        self.status = status
        self.code = code
    }

    public var description: String { "ProviderRejection(\(status) \(code ?? "-"))" }
}

/// The typed outcome of one provider operation.
public enum ProviderResult<Value: Sendable>: Sendable {
    /// The provider did it.
    case success(Value)
    /// The provider refused, definitively.
    case rejected(ProviderRejection)
    /// The provider could not be reached or asked us to come back; the same call may succeed later.
    case unavailable(ProviderUnavailable)

    /// The outcome's metric label.
    var label: String {
        switch self {
        case .success: "success"
        case .rejected: "rejected"
        case .unavailable(let failure): failure.reason.rawValue
        }
    }

    /// Maps a success value, keeping failures.
    func map<Other: Sendable>(_ transform: (Value) throws -> Other?) -> ProviderResult<Other> {
        switch self {
        case .success(let value):
            guard let other = try? transform(value) else { return .unavailable(ProviderUnavailable(.malformedAnswer)) }
            return .success(other)
        case .rejected(let rejection): return .rejected(rejection)
        case .unavailable(let failure): return .unavailable(failure)
        }
    }
}
