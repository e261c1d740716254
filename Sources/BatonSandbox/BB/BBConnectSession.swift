import BatonCore
import Foundation

/// A BB connect session: created by the partner backend, finished in the hosted flow.
public struct BBConnectSession: Sendable, Hashable {
    /// How the hosted flow ended (seed 002's `resultCode`, exact case).
    public enum ResultCode: String, Sendable, Hashable, Codable, CaseIterable {
        /// A connection was created.
        case ok = "Ok"
        /// The flow failed; `error` says why.
        case error = "Error"
        /// The user cancelled.
        case cancelled = "Cancelled"
    }

    /// Where a session stands.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Created, not finished.
        case pending
        /// Finished with a ``ResultCode``.
        case completed
        /// Not finished before it expired.
        case expired
    }

    /// The opaque session id (`cs_…`).
    public let sessionID: String
    /// The registered return URL (with the partner's own query, if any) the flow redirects to.
    public let returnURL: String
    /// The current status.
    public internal(set) var status: Status
    /// How the flow ended, once completed.
    public internal(set) var resultCode: ResultCode?
    /// The connection created, when `resultCode` is `Ok`.
    public internal(set) var connectionID: String?
    /// The machine-readable failure reason, when `resultCode` is `Error`.
    public internal(set) var error: String?
    /// When it was created.
    public let createdAt: Date
    /// When a pending session expires.
    public let expiresAt: Date
    /// When it was completed or expired.
    public internal(set) var updatedAt: Date
}

/// The JSON of a connect session in `GET /v2/connect-sessions/{id}` and in webhooks.
struct BBConnectSessionBody {
    let sessionId: String
    let status: String
    let resultCode: String?
    let connectionId: String?
    let error: String?
    let returnUrl: String
    let createdAt: Date
    let expiresAt: Date
    let updatedAt: Date

    init(_ session: BBConnectSession) {
        sessionId = session.sessionID
        status = session.status.rawValue
        resultCode = session.resultCode?.rawValue
        connectionId = session.connectionID
        error = session.error
        returnUrl = session.returnURL
        createdAt = session.createdAt
        expiresAt = session.expiresAt
        updatedAt = session.updatedAt
    }

    /// The body as BB writes it: every member present, `null` when unset, dates in RFC 3339.
    var json: JSONValue {
        [
            "sessionId": .string(sessionId), "status": .string(status), "resultCode": .optional(resultCode),
            "connectionId": .optional(connectionId), "error": .optional(error), "returnUrl": .string(returnUrl),
            "createdAt": .date(createdAt), "expiresAt": .date(expiresAt), "updatedAt": .date(updatedAt),
        ]
    }
}
