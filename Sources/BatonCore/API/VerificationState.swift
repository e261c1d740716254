/// `GET /v2/verifications/{workflow}`: `{"status","verificationId"}`, the authoritative verification state.
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

    /// The response body, keys sorted.
    package var jsonBody: [UInt8] {
        var json = JSONText()
        json.field("status", status.rawValue)
        json.field("verificationId", verificationID)
        return json.finishBytes()
    }
}

/// A Privue verification status, kept as the backend's string.
///
/// *Baton's reading*: `created`, `pending`, `opened` and `in_progress` mean the user may still be in the journey, so
/// polling continues; any other value (`submitted`, `approved`, `rejected`, `expired`, …) is settled. Of the settled
/// ones, only `approved` and `rejected` are final: Privue never changes them, so the backend stops asking.
public struct VerificationStatus: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
    /// The status string.
    public let rawValue: String

    /// Wraps `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Statuses under which the journey may still be in progress.
    public static let inProgressValues: Set<String> = ["created", "pending", "opened", "in_progress"]

    /// Statuses Privue no longer changes.
    public static let finalValues: Set<String> = ["approved", "rejected"]

    /// Whether the journey has ended, one way or another: the app stops polling.
    public var isSettled: Bool { !Self.inProgressValues.contains(rawValue) }

    /// Whether Privue will never change this status: the backend answers from its store without asking Privue.
    public var isFinal: Bool { Self.finalValues.contains(rawValue) }

    /// Reads the status string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the status string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The status string.
    public var description: String { rawValue }
}
