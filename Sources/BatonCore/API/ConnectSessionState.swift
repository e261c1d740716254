/// `GET /v2/connect-sessions/{sessionId}`: `{"connectionId"?,"error"?,"sessionId","status"}`, the authoritative BB
/// session state.
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

    /// The response body, keys sorted; absent optional members are left out.
    package var jsonBody: [UInt8] {
        var json = JSONText()
        if let connectionID { json.field("connectionId", connectionID) }
        if let error { json.field("error", error) }
        json.field("sessionId", sessionID)
        json.field("status", status.rawValue)
        return json.finishBytes()
    }
}
