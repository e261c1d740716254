/// A BB connect return link (seed 002): a UX signal only; the backend reads the session for the real outcome.
public struct ConnectReturn: Sendable, Hashable {
    /// BB's `resultCode`, exactly one of three case-sensitive values.
    public enum ResultCode: String, Sendable, Hashable, CaseIterable, Codable {
        /// `Ok`.
        case ok = "Ok"
        /// `Error`.
        case error = "Error"
        /// `Cancelled`.
        case cancelled = "Cancelled"
    }

    /// The connect session the redirect names (opaque, decoded once).
    public let sessionID: String
    /// The flow's result as the redirect states it.
    public let resultCode: ResultCode
    /// The connection created, when present and non-empty (opaque).
    public let connectionID: String?
    /// BB's machine-readable failure reason, when present and non-empty.
    public let error: String?

    /// Creates a connect return.
    public init(sessionID: String, resultCode: ResultCode, connectionID: String?, error: String?) {
        self.sessionID = sessionID
        self.resultCode = resultCode
        self.connectionID = connectionID
        self.error = error
    }
}
