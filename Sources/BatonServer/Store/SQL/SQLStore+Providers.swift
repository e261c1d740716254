import BatonCore
import Foundation

extension SQLStore {
    // MARK: Connect sessions

    func createConnectSession(_ session: ConnectSessionRecord) async throws -> Bool {
        try await engine.write("createConnectSession", transaction: false) { db throws(StoreError) in
            try !db.query(
                """
                INSERT INTO connect_sessions (\(StoreRows.connectSessionColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (session_id) DO NOTHING RETURNING session_id
                """,
                [
                    .text(session.id), .text(session.user), .text(session.status), .text(session.connectionID),
                    .text(session.error), .time(session.createdAt), .time(session.updatedAt),
                ]
            ).isEmpty
        }
    }

    func pendingConnectSessionCount(user: String, since: Date) async throws -> Int {
        let engineName = dialect.engine
        return try await engine.read("pendingConnectSessionCount") { db throws(StoreError) in
            let rows = try db.query(
                "SELECT COUNT(*) FROM connect_sessions WHERE user_id = $1 AND status = $2 AND created_at >= $3",
                [.text(user), .text(ConnectSessionState.Status.pending.rawValue), .time(since)])
            return try decode("pendingConnectSessionCount", engineName) { Int(try rows.first?.integer(0) ?? 0) }
        }
    }

    func connectSession(id: String, user: String) async throws -> ConnectSessionRecord? {
        let engineName = dialect.engine
        return try await engine.read("connectSession") { db throws(StoreError) in
            let rows = try db.query(
                "SELECT \(StoreRows.connectSessionColumns) FROM connect_sessions WHERE session_id = $1 AND user_id = $2",
                [.text(id), .text(user)])
            return try decode("connectSession", engineName) { try rows.first.map(StoreRows.connectSession) }
        }
    }

    func updateConnectSession(
        id: String, status: String, connectionID: String?, error: String?, updatedAt: Date
    ) async throws -> ConnectSessionRecord? {
        let engineName = dialect.engine
        return try await engine.write("updateConnectSession", transaction: true) { db throws(StoreError) in
            _ = try db.query(
                """
                UPDATE connect_sessions SET status = $2, connection_id = COALESCE($3, connection_id), error = $4,
                    updated_at = $5
                WHERE session_id = $1 AND updated_at <= $5 RETURNING session_id
                """, [.text(id), .text(status), .text(connectionID), .text(error), .time(updatedAt)])
            let rows = try db.query(
                "SELECT \(StoreRows.connectSessionColumns) FROM connect_sessions WHERE session_id = $1", [.text(id)])
            return try decode("updateConnectSession", engineName) { try rows.first.map(StoreRows.connectSession) }
        }
    }

    // MARK: Verifications

    func createVerification(_ verification: VerificationRecord) async throws -> Bool {
        try await engine.write("createVerification", transaction: false) { db throws(StoreError) in
            try !db.query(
                """
                INSERT INTO verifications (\(StoreRows.verificationColumns)) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (verification_id) DO NOTHING RETURNING verification_id
                """,
                [
                    .text(verification.id), .text(verification.user), .text(verification.workflow),
                    .text(verification.status), .time(verification.createdAt), .time(verification.updatedAt),
                ]
            ).isEmpty
        }
    }

    func verification(id: String, user: String) async throws -> VerificationRecord? {
        let engineName = dialect.engine
        return try await engine.read("verification") { db throws(StoreError) in
            let rows = try db.query(
                "SELECT \(StoreRows.verificationColumns) FROM verifications WHERE verification_id = $1 AND user_id = $2",
                [.text(id), .text(user)])
            return try decode("verification", engineName) { try rows.first.map(StoreRows.verification) }
        }
    }

    func latestVerification(user: String, workflow: String) async throws -> VerificationRecord? {
        let engineName = dialect.engine
        return try await engine.read("latestVerification") { db throws(StoreError) in
            let rows = try db.query(
                """
                SELECT \(StoreRows.verificationColumns) FROM verifications WHERE user_id = $1 AND workflow = $2
                ORDER BY created_at DESC, verification_id DESC LIMIT 1
                """, [.text(user), .text(workflow)])
            return try decode("latestVerification", engineName) { try rows.first.map(StoreRows.verification) }
        }
    }

    func updateVerification(id: String, status: String, updatedAt: Date) async throws -> VerificationRecord? {
        let engineName = dialect.engine
        return try await engine.write("updateVerification", transaction: true) { db throws(StoreError) in
            _ = try db.query(
                """
                UPDATE verifications SET status = $2, updated_at = $3
                WHERE verification_id = $1 AND updated_at <= $3 RETURNING verification_id
                """, [.text(id), .text(status), .time(updatedAt)])
            let rows = try db.query(
                "SELECT \(StoreRows.verificationColumns) FROM verifications WHERE verification_id = $1", [.text(id)])
            return try decode("updateVerification", engineName) { try rows.first.map(StoreRows.verification) }
        }
    }

    // MARK: Webhook events

    func recordWebhookEvent(_ event: WebhookEventRecord) async throws -> Bool {
        try await engine.write("recordWebhookEvent", transaction: false) { db throws(StoreError) in
            try !db.query(
                """
                INSERT INTO webhook_events (\(StoreRows.webhookEventColumns)) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (provider, webhook_id) DO NOTHING RETURNING webhook_id
                """,
                [
                    .text(event.provider), .text(event.webhookID), .text(event.eventType), .blob(event.payload),
                    .time(event.receivedAt), .time(event.processedAt),
                ]
            ).isEmpty
        }
    }

    func claimWebhookEvents(
        owner: String, leaseUntil: Date, now: Date, limit: Int
    ) async throws -> [WebhookEventRecord] {
        let engineName = dialect.engine
        let skipLocked = dialect.lockRowsSkippingLocked
        return try await engine.write("claimWebhookEvents", transaction: true) { db throws(StoreError) in
            let rows = try db.query(
                """
                UPDATE webhook_events SET lease_owner = $1, lease_expires_at = $2
                WHERE (provider, webhook_id) IN (
                    SELECT provider, webhook_id FROM webhook_events
                    WHERE processed_at IS NULL AND (lease_expires_at IS NULL OR lease_expires_at <= $3)
                    ORDER BY received_at, provider, webhook_id LIMIT $4\(skipLocked))
                RETURNING \(StoreRows.webhookEventColumns)
                """, [.text(owner), .time(leaseUntil), .time(now), .integer(Int64(limit))])
            return try decode("claimWebhookEvents", engineName) {
                try rows.map(StoreRows.webhookEvent).sorted {
                    ($0.receivedAt, $0.webhookID) < ($1.receivedAt, $1.webhookID)
                }
            }
        }
    }

    func markWebhookEventProcessed(provider: String, webhookID: String, processedAt: Date) async throws -> Bool {
        try await engine.write("markWebhookEventProcessed", transaction: false) { db throws(StoreError) in
            try !db.query(
                """
                UPDATE webhook_events SET processed_at = $3, lease_owner = NULL, lease_expires_at = NULL
                WHERE provider = $1 AND webhook_id = $2 RETURNING webhook_id
                """, [.text(provider), .text(webhookID), .time(processedAt)]
            ).isEmpty
        }
    }
}
