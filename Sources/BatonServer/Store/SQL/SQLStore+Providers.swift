import BatonCore
import Foundation

extension SQLStore {
    // MARK: Connect sessions

    func createConnectSession(_ session: ConnectSessionRecord) async throws -> Bool {
        try await engine.write("createConnectSession", transaction: false) { db throws(StoreError) in
            try !db.query(
                StoreSQL.createConnectSession,
                [
                    .text(session.id), .text(session.user), .text(session.status.rawValue), .text(session.connectionID),
                    .text(session.error), .time(session.createdAt), .time(session.updatedAt),
                ]
            ).isEmpty
        }
    }

    func pendingConnectSessionCount(user: String, since: Date) async throws -> Int {
        let engineName = dialect.engine
        return try await engine.read("pendingConnectSessionCount") { db throws(StoreError) in
            let rows = try db.query(
                StoreSQL.pendingConnectSessionCount,
                [.text(user), .text(ConnectSessionState.Status.pending.rawValue), .time(since)])
            return try decode("pendingConnectSessionCount", engineName) { Int(try rows.first?.integer(0) ?? 0) }
        }
    }

    func connectSession(id: String, user: String) async throws -> ConnectSessionRecord? {
        let engineName = dialect.engine
        return try await engine.read("connectSession") { db throws(StoreError) in
            let rows = try db.query(
                StoreSQL.connectSessionOfUser, [.text(id), .text(user)])
            return try decode("connectSession", engineName) { try rows.first.map(StoreRows.connectSession) }
        }
    }

    func updateConnectSession(
        id: String, status: ConnectSessionState.Status, connectionID: String?, error: String?, updatedAt: Date
    ) async throws -> ConnectSessionRecord? {
        let engineName = dialect.engine
        return try await engine.write("updateConnectSession", transaction: true) { db throws(StoreError) in
            _ = try db.query(
                StoreSQL.updateConnectSession,
                [.text(id), .text(status.rawValue), .text(connectionID), .text(error), .time(updatedAt)])
            let rows = try db.query(StoreSQL.connectSession, [.text(id)])
            return try decode("updateConnectSession", engineName) { try rows.first.map(StoreRows.connectSession) }
        }
    }

    // MARK: Verifications

    func createVerification(_ verification: VerificationRecord) async throws -> Bool {
        try await engine.write("createVerification", transaction: false) { db throws(StoreError) in
            try !db.query(
                StoreSQL.createVerification,
                [
                    .text(verification.id), .text(verification.user), .text(verification.workflow),
                    .text(verification.status.rawValue), .time(verification.createdAt), .time(verification.updatedAt),
                ]
            ).isEmpty
        }
    }

    func verification(id: String, user: String) async throws -> VerificationRecord? {
        let engineName = dialect.engine
        return try await engine.read("verification") { db throws(StoreError) in
            let rows = try db.query(
                StoreSQL.verificationOfUser, [.text(id), .text(user)])
            return try decode("verification", engineName) { try rows.first.map(StoreRows.verification) }
        }
    }

    func latestVerification(user: String, workflow: String) async throws -> VerificationRecord? {
        let engineName = dialect.engine
        return try await engine.read("latestVerification") { db throws(StoreError) in
            let rows = try db.query(StoreSQL.latestVerification, [.text(user), .text(workflow)])
            return try decode("latestVerification", engineName) { try rows.first.map(StoreRows.verification) }
        }
    }

    func updateVerification(id: String, status: VerificationStatus, updatedAt: Date) async throws -> VerificationRecord?
    {
        let engineName = dialect.engine
        return try await engine.write("updateVerification", transaction: true) { db throws(StoreError) in
            _ = try db.query(
                StoreSQL.updateVerification, [.text(id), .text(status.rawValue), .time(updatedAt)])
            let rows = try db.query(StoreSQL.verification, [.text(id)])
            return try decode("updateVerification", engineName) { try rows.first.map(StoreRows.verification) }
        }
    }

    // MARK: Webhook events

    func recordWebhookEvent(_ event: WebhookEventRecord) async throws -> Bool {
        try await engine.write("recordWebhookEvent", transaction: false) { db throws(StoreError) in
            try !db.query(
                StoreSQL.recordWebhookEvent,
                [
                    .text(event.provider.rawValue), .text(event.webhookID), .text(event.eventType),
                    .blob(event.payload),
                    .time(event.receivedAt), .time(event.processedAt),
                ]
            ).isEmpty
        }
    }

    func claimWebhookEvents(
        owner: String, leaseUntil: Date, now: Date, limit: Int
    ) async throws -> [WebhookEventRecord] {
        let engineName = dialect.engine
        let claimSQL = dialect.claimWebhookEvents
        return try await engine.write("claimWebhookEvents", transaction: true) { db throws(StoreError) in
            let rows = try db.query(
                claimSQL, [.text(owner), .time(leaseUntil), .time(now), .integer(Int64(limit))])
            return try decode("claimWebhookEvents", engineName) {
                try rows.map(StoreRows.webhookEvent).sorted {
                    ($0.receivedAt, $0.webhookID) < ($1.receivedAt, $1.webhookID)
                }
            }
        }
    }

    func markWebhookEventProcessed(provider: ProviderName, webhookID: String, processedAt: Date) async throws -> Bool {
        try await engine.write("markWebhookEventProcessed", transaction: false) { db throws(StoreError) in
            try !db.query(
                StoreSQL.markWebhookEventProcessed, [.text(provider.rawValue), .text(webhookID), .time(processedAt)]
            ).isEmpty
        }
    }
}
