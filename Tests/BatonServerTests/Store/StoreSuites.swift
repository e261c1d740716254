import BatonStoreTestSupport
import BatonTestSupport
import Testing

/// One shared store behaviour (from the `*Behaviours` enums): a name and a body run against an engine.
struct StoreBehaviour: Sendable, CustomTestStringConvertible {
    let name: String
    let body: @Sendable (StoreEngine) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (StoreEngine) async throws -> Void) {
        self.name = name
        self.body = body
    }

    var testDescription: String { name }

    /// Every shared behaviour, run once per engine by the two suites below. A new behaviour is one line here.
    static let all: [StoreBehaviour] = [
        StoreBehaviour(
            "claimThenJoinThenCompleteThenReplay", IdempotencyBehaviours.claimThenJoinThenCompleteThenReplay),
        StoreBehaviour(
            "aDifferentBodyIsRejectedInEveryState", IdempotencyBehaviours.aDifferentBodyIsRejectedInEveryState),
        StoreBehaviour(
            "aLapsedLeaseIsTakenOverAndTheOldOwnerCannotComplete",
            IdempotencyBehaviours.aLapsedLeaseIsTakenOverAndTheOldOwnerCannotComplete),
        StoreBehaviour(
            "releaseForgetsTheRequestAndFailKeepsTheKeyPinned",
            IdempotencyBehaviours.releaseForgetsTheRequestAndFailKeepsTheKeyPinned),
        StoreBehaviour(
            "purgeErasesExpiredResponsesAndDropsRecordsAfterRetention",
            IdempotencyBehaviours.purgeErasesExpiredResponsesAndDropsRecordsAfterRetention),
        StoreBehaviour("purgeRunsInBoundedBatches", IdempotencyBehaviours.purgeRunsInBoundedBatches),
        StoreBehaviour("tokenThenClaim", RateLimitedClaimBehaviours.tokenThenClaim),
        StoreBehaviour("connectSessionsBelongToTheirUser", RecordBehaviours.connectSessionsBelongToTheirUser),
        StoreBehaviour(
            "verificationsBelongToTheirUserAndWorkflow", RecordBehaviours.verificationsBelongToTheirUserAndWorkflow),
        StoreBehaviour(
            "webhookEventsAreStoredOnceAndHandedOutUnderLease",
            RecordBehaviours.webhookEventsAreStoredOnceAndHandedOutUnderLease),
        StoreBehaviour("catalogSnapshotAndMirroredAssets", RecordBehaviours.catalogSnapshotAndMirroredAssets),
        StoreBehaviour("jobLeasesAreExclusiveUntilTheyLapse", RecordBehaviours.jobLeasesAreExclusiveUntilTheyLapse),
        StoreBehaviour(
            "migrationsAreIdempotentAndDataSurvivesReopen",
            RecordBehaviours.migrationsAreIdempotentAndDataSurvivesReopen),
        StoreBehaviour("aClosedStoreThrowsClosed", RecordBehaviours.aClosedStoreThrowsClosed),
        StoreBehaviour(
            "concurrentClaimsOfOneKeyHaveOneWinner", ConcurrencyBehaviours.concurrentClaimsOfOneKeyHaveOneWinner),
        StoreBehaviour("aLapsedLeaseIsTakenOverExactlyOnce", ConcurrencyBehaviours.aLapsedLeaseIsTakenOverExactlyOnce),
        StoreBehaviour(
            "twoStoreInstancesRacingOnOneKeyHaveOneWinner",
            ConcurrencyBehaviours.twoStoreInstancesRacingOnOneKeyHaveOneWinner),
        StoreBehaviour("aRedeliveredWebhookIsStoredOnce", ConcurrencyBehaviours.aRedeliveredWebhookIsStoredOnce),
        StoreBehaviour(
            "concurrentWorkersNeverShareAWebhookEvent", ConcurrencyBehaviours.concurrentWorkersNeverShareAWebhookEvent),
        StoreBehaviour("oneInstanceRunsAJob", ConcurrencyBehaviours.oneInstanceRunsAJob),
        StoreBehaviour(
            "aUserIDWithNULNeverReachesAnotherUsersRows", SecurityBehaviours.aUserIDWithNULNeverReachesAnotherUsersRows),
        StoreBehaviour(
            "rateLimitBucketsRefillAndAreSharedByInstances",
            SecurityBehaviours.rateLimitBucketsRefillAndAreSharedByInstances),
        StoreBehaviour(
            "purgeDeletesOldSessionsProcessedEventsAndIdleBuckets",
            SecurityBehaviours.purgeDeletesOldSessionsProcessedEventsAndIdleBuckets),
        StoreBehaviour("theRecordPurgeGoesInBatches", SecurityBehaviours.theRecordPurgeGoesInBatches),
    ]
}

/// The shared store behaviours on SQLite.
@Suite("Store on SQLite")
struct SQLiteStoreSuite {
    @Test(arguments: StoreBehaviour.all)
    func behaviour(_ behaviour: StoreBehaviour) async throws { try await behaviour.body(.sqlite) }
}

/// The shared store behaviours on PostgreSQL; skipped (and reported so) unless BATON_TEST_POSTGRES_URL is set.
@Suite(
    "Store on PostgreSQL",
    .enabled(
        if: TemporaryDatabase.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"),
    .serialized)
struct PostgresStoreSuite {
    @Test(arguments: StoreBehaviour.all)
    func behaviour(_ behaviour: StoreBehaviour) async throws { try await behaviour.body(.postgres) }
}
