import BatonCore
import Foundation

/// `201` of `POST /v2/handoff-sessions`: the short-lived Chia journey URL. Opened once, never stored.
public struct HandoffSession: Sendable, Hashable {
    /// The `phs_…` journey URL.
    public let url: SensitiveURL
    /// When the URL stops working.
    public let expiresAt: Date?

    /// Creates a handoff session.
    public init(url: SensitiveURL, expiresAt: Date?) {
        self.url = url
        self.expiresAt = expiresAt
    }
}

/// `POST /v2/verification-handoffs`: a single-use Privue journey URL, fragment included.
public struct VerificationHandoff: Sendable, Hashable {
    /// The journey URL exactly as received (its `#ticket=…` signs the user in).
    public let url: SensitiveURL
    /// How long the handoff stays valid.
    public let expiresInSeconds: Int?

    /// Creates a verification handoff.
    public init(url: SensitiveURL, expiresInSeconds: Int?) {
        self.url = url
        self.expiresInSeconds = expiresInSeconds
    }
}

/// `GET /v2/verifications/{workflow}`: the authoritative verification state.
public struct VerificationState: Sendable, Hashable, Decodable {
    /// Privue's verification id (opaque).
    public let verificationID: String
    /// The status as the backend reports it.
    public let status: VerificationStatus

    /// Creates a state.
    public init(verificationID: String, status: VerificationStatus) {
        self.verificationID = verificationID
        self.status = status
    }

    enum CodingKeys: String, CodingKey {
        case verificationID = "verificationId"
        case status
    }
}

/// A Privue verification status, kept as the backend's string.
///
/// *Baton's reading*: `created`, `pending`, `opened` and `in_progress` mean the user may still be in the journey, so
/// polling continues; any other value (`submitted`, `approved`, `rejected`, `expired`, …) is settled.
public struct VerificationStatus: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
    /// The status string.
    public let rawValue: String

    /// Wraps `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Statuses under which the journey may still be in progress.
    public static let inProgressValues: Set<String> = ["created", "pending", "opened", "in_progress"]

    /// Whether the journey has ended, one way or another.
    public var isSettled: Bool { !Self.inProgressValues.contains(rawValue) }

    /// The telemetry category of a settled status.
    public var outcomeCategory: TelemetryEvent.OutcomeCategory {
        switch rawValue {
        case "rejected", "failed": .failure
        case "expired": .expired
        case "cancelled", "abandoned": .cancelled
        default: .success
        }
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}

/// `POST /v2/connect-sessions`: the BB session the backend created for this device's callback.
public struct ConnectSession: Sendable, Hashable {
    /// BB's session id (opaque).
    public let sessionID: String
    /// The hosted connect URL, opened once in an authentication session.
    public let hostedURL: SensitiveURL
    /// The callback kind the backend registered the session's `returnUrl` for.
    public let callbackKind: ConnectCallback.Kind

    /// Creates a session.
    public init(sessionID: String, hostedURL: SensitiveURL, callbackKind: ConnectCallback.Kind) {
        self.sessionID = sessionID
        self.hostedURL = hostedURL
        self.callbackKind = callbackKind
    }
}

/// `GET /v2/connect-sessions/{sessionId}`: the authoritative BB session state.
public struct ConnectSessionState: Sendable, Hashable, Decodable {
    /// The session's status.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Not finished yet.
        case pending
        /// A connection was created.
        case ok
        /// The flow failed.
        case error
        /// The user cancelled.
        case cancelled
        /// The session expired unfinished.
        case expired
    }

    /// The session id.
    public let sessionID: String
    /// Its status.
    public let status: Status
    /// The connection created, when `ok`.
    public let connectionID: String?
    /// BB's failure reason, when `error`.
    public let error: String?

    /// Creates a state.
    public init(sessionID: String, status: Status, connectionID: String? = nil, error: String? = nil) {
        self.sessionID = sessionID
        self.status = status
        self.connectionID = connectionID
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case sessionID = "sessionId"
        case status
        case connectionID = "connectionId"
        case error
    }
}
