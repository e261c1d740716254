import BatonCore
import Foundation

/// BB's state: connect sessions with return-URL validation, expiry and outcomes, raising
/// `connect_session.updated` events. Pure of HTTP.
public actor BBState {
    /// Why a hosted flow could not be completed.
    public enum CompletionError: Error, Sendable, Hashable {
        /// No such session.
        case notFound
        /// The session expired before it was finished.
        case expired
        /// The session has already finished.
        case alreadyCompleted
    }

    private let configuration: SandboxConfiguration
    private let webhooks: any WebhookEmitter
    private var origin: WebOrigin
    private var sessions: [String: BBConnectSession] = [:]
    private var order: [String] = []

    /// Creates BB's state on `origin`, raising webhook events through `webhooks`.
    public init(configuration: SandboxConfiguration, origin: WebOrigin, webhooks: any WebhookEmitter) {
        self.configuration = configuration
        self.origin = origin
        self.webhooks = webhooks
    }

    /// Uses `origin` for every URL made from now on.
    public func useOrigin(_ origin: WebOrigin) { self.origin = origin }

    private var now: Date { configuration.clock.now() }

    /// Whether `returnURL` matches a registered pattern (scheme, host, port and path; its own query may stay).
    public func isRegistered(returnURL: String) -> Bool {
        guard let parts = RawURLComponents(returnURL), parts.fragment == nil else { return false }
        return configuration.bbReturnURLs.contains { $0.matches(parts) }
    }

    /// Creates a session, or `nil` when `returnURL` matches no registered pattern (`validation_error`).
    public func createSession(returnURL: String) -> BBConnectSession? {
        guard isRegistered(returnURL: returnURL) else { return nil }
        let time = now
        let session = BBConnectSession(
            sessionID: RandomToken.make("cs_", length: 24), returnURL: returnURL, status: .pending, createdAt: time,
            expiresAt: time.addingTimeInterval(configuration.lifetimes.bbConnectSession), updatedAt: time)
        sessions[session.sessionID] = session
        order.append(session.sessionID)
        return session
    }

    /// The hosted flow URL of a session: `<origin>/connect/<sessionId>`.
    public func hostedURL(of session: BBConnectSession) -> String { "\(origin)/connect/\(session.sessionID)" }

    /// The session `id` as of now (a pending session past its expiry becomes `expired` here).
    public func session(_ id: String) -> BBConnectSession? {
        expireIfDue(id)
        return sessions[id]
    }

    /// Every session as of now, oldest first.
    public func allSessions() -> [BBConnectSession] {
        order.forEach { expireIfDue($0) }
        return order.compactMap { sessions[$0] }
    }

    /// Finishes session `id` with `resultCode` and returns the redirect: the return URL plus `sessionId`,
    /// `resultCode`, `connectionId` (for `Ok`) and `error` (for `Error`, when given).
    public func complete(
        sessionID id: String, resultCode: BBConnectSession.ResultCode, error: String?
    ) throws(CompletionError) -> (session: BBConnectSession, redirect: String) {
        expireIfDue(id)
        guard var session = sessions[id] else { throw .notFound }
        switch session.status {
        case .expired: throw .expired
        case .completed: throw .alreadyCompleted
        case .pending: break
        }
        session.status = .completed
        session.resultCode = resultCode
        session.connectionID = resultCode == .ok ? RandomToken.make("conn_", length: 20) : nil
        session.error = resultCode == .error ? (error?.isEmpty == false ? error : nil) : nil
        session.updatedAt = now
        store(session)
        let redirect = URLQueryAppending.append(
            [
                ("sessionId", session.sessionID), ("resultCode", resultCode.rawValue),
                ("connectionId", session.connectionID), ("error", session.error),
            ], to: session.returnURL)
        return (session, redirect)
    }

    /// Forgets every session.
    public func reset() {
        sessions = [:]
        order = []
    }

    private func expireIfDue(_ id: String) {
        guard var session = sessions[id], session.status == .pending, now >= session.expiresAt else { return }
        session.status = .expired
        session.updatedAt = session.expiresAt
        store(session)
    }

    private func store(_ session: BBConnectSession) {
        sessions[session.sessionID] = session
        webhooks.emit(
            WebhookEvent(
                type: "connect_session.updated", timestamp: session.updatedAt, data: BBConnectSessionBody(session).json)
        )
    }
}
