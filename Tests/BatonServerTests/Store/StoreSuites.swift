import BatonStoreTestSupport
import BatonTestSupport
import Testing

// The one shared store suite (the `*Behaviours` enums), run once per engine. Each behaviour is listed in both
// suites; PostgreSQL's is skipped (and reported so) unless BATON_TEST_POSTGRES_URL is set.

/// The shared store behaviours on SQLite.
@Suite("Store on SQLite")
struct SQLiteStoreSuite {
    @Test func claimThenJoinThenCompleteThenReplay() async throws {
        try await IdempotencyBehaviours.claimThenJoinThenCompleteThenReplay(.sqlite)
    }
    @Test func aDifferentBodyIsRejectedInEveryState() async throws {
        try await IdempotencyBehaviours.aDifferentBodyIsRejectedInEveryState(.sqlite)
    }
    @Test func aLapsedLeaseIsTakenOverAndTheOldOwnerCannotComplete() async throws {
        try await IdempotencyBehaviours.aLapsedLeaseIsTakenOverAndTheOldOwnerCannotComplete(.sqlite)
    }
    @Test func releaseForgetsTheRequestAndFailKeepsTheKeyPinned() async throws {
        try await IdempotencyBehaviours.releaseForgetsTheRequestAndFailKeepsTheKeyPinned(.sqlite)
    }
    @Test func purgeErasesExpiredResponsesAndDropsRecordsAfterRetention() async throws {
        try await IdempotencyBehaviours.purgeErasesExpiredResponsesAndDropsRecordsAfterRetention(.sqlite)
    }
    @Test func purgeRunsInBoundedBatches() async throws {
        try await IdempotencyBehaviours.purgeRunsInBoundedBatches(.sqlite)
    }
    @Test func rateLimitTokenThenClaimInOneCall() async throws {
        try await RateLimitedClaimBehaviours.tokenThenClaim(.sqlite)
    }
    @Test func connectSessionsBelongToTheirUser() async throws {
        try await RecordBehaviours.connectSessionsBelongToTheirUser(.sqlite)
    }
    @Test func verificationsBelongToTheirUserAndWorkflow() async throws {
        try await RecordBehaviours.verificationsBelongToTheirUserAndWorkflow(.sqlite)
    }
    @Test func webhookEventsAreStoredOnceAndHandedOutUnderLease() async throws {
        try await RecordBehaviours.webhookEventsAreStoredOnceAndHandedOutUnderLease(.sqlite)
    }
    @Test func catalogSnapshotAndMirroredAssets() async throws {
        try await RecordBehaviours.catalogSnapshotAndMirroredAssets(.sqlite)
    }
    @Test func jobLeasesAreExclusiveUntilTheyLapse() async throws {
        try await RecordBehaviours.jobLeasesAreExclusiveUntilTheyLapse(.sqlite)
    }
    @Test func migrationsAreIdempotentAndDataSurvivesReopen() async throws {
        try await RecordBehaviours.migrationsAreIdempotentAndDataSurvivesReopen(.sqlite)
    }
    @Test func aClosedStoreThrowsClosed() async throws { try await RecordBehaviours.aClosedStoreThrowsClosed(.sqlite) }
    @Test func concurrentClaimsOfOneKeyHaveOneWinner() async throws {
        try await ConcurrencyBehaviours.concurrentClaimsOfOneKeyHaveOneWinner(.sqlite)
    }
    @Test func aLapsedLeaseIsTakenOverExactlyOnce() async throws {
        try await ConcurrencyBehaviours.aLapsedLeaseIsTakenOverExactlyOnce(.sqlite)
    }
    @Test func twoStoreInstancesRacingOnOneKeyHaveOneWinner() async throws {
        try await ConcurrencyBehaviours.twoStoreInstancesRacingOnOneKeyHaveOneWinner(.sqlite)
    }
    @Test func aRedeliveredWebhookIsStoredOnce() async throws {
        try await ConcurrencyBehaviours.aRedeliveredWebhookIsStoredOnce(.sqlite)
    }
    @Test func concurrentWorkersNeverShareAWebhookEvent() async throws {
        try await ConcurrencyBehaviours.concurrentWorkersNeverShareAWebhookEvent(.sqlite)
    }
    @Test func oneInstanceRunsAJob() async throws { try await ConcurrencyBehaviours.oneInstanceRunsAJob(.sqlite) }
    @Test func aUserIDWithNULNeverReachesAnotherUsersRows() async throws {
        try await SecurityBehaviours.aUserIDWithNULNeverReachesAnotherUsersRows(.sqlite)
    }
    @Test func rateLimitBucketsRefillAndAreSharedByInstances() async throws {
        try await SecurityBehaviours.rateLimitBucketsRefillAndAreSharedByInstances(.sqlite)
    }
    @Test func purgeDeletesOldSessionsProcessedEventsAndIdleBuckets() async throws {
        try await SecurityBehaviours.purgeDeletesOldSessionsProcessedEventsAndIdleBuckets(.sqlite)
    }
    @Test func theRecordPurgeGoesInBatches() async throws {
        try await SecurityBehaviours.theRecordPurgeGoesInBatches(.sqlite)
    }
}

/// The shared store behaviours on PostgreSQL.
@Suite(
    "Store on PostgreSQL",
    .enabled(
        if: TemporaryDatabase.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"),
    .serialized)
struct PostgresStoreSuite {
    @Test func claimThenJoinThenCompleteThenReplay() async throws {
        try await IdempotencyBehaviours.claimThenJoinThenCompleteThenReplay(.postgres)
    }
    @Test func aDifferentBodyIsRejectedInEveryState() async throws {
        try await IdempotencyBehaviours.aDifferentBodyIsRejectedInEveryState(.postgres)
    }
    @Test func aLapsedLeaseIsTakenOverAndTheOldOwnerCannotComplete() async throws {
        try await IdempotencyBehaviours.aLapsedLeaseIsTakenOverAndTheOldOwnerCannotComplete(.postgres)
    }
    @Test func releaseForgetsTheRequestAndFailKeepsTheKeyPinned() async throws {
        try await IdempotencyBehaviours.releaseForgetsTheRequestAndFailKeepsTheKeyPinned(.postgres)
    }
    @Test func purgeErasesExpiredResponsesAndDropsRecordsAfterRetention() async throws {
        try await IdempotencyBehaviours.purgeErasesExpiredResponsesAndDropsRecordsAfterRetention(.postgres)
    }
    @Test func purgeRunsInBoundedBatches() async throws {
        try await IdempotencyBehaviours.purgeRunsInBoundedBatches(.postgres)
    }
    @Test func rateLimitTokenThenClaimInOneCall() async throws {
        try await RateLimitedClaimBehaviours.tokenThenClaim(.postgres)
    }
    @Test func connectSessionsBelongToTheirUser() async throws {
        try await RecordBehaviours.connectSessionsBelongToTheirUser(.postgres)
    }
    @Test func verificationsBelongToTheirUserAndWorkflow() async throws {
        try await RecordBehaviours.verificationsBelongToTheirUserAndWorkflow(.postgres)
    }
    @Test func webhookEventsAreStoredOnceAndHandedOutUnderLease() async throws {
        try await RecordBehaviours.webhookEventsAreStoredOnceAndHandedOutUnderLease(.postgres)
    }
    @Test func catalogSnapshotAndMirroredAssets() async throws {
        try await RecordBehaviours.catalogSnapshotAndMirroredAssets(.postgres)
    }
    @Test func jobLeasesAreExclusiveUntilTheyLapse() async throws {
        try await RecordBehaviours.jobLeasesAreExclusiveUntilTheyLapse(.postgres)
    }
    @Test func migrationsAreIdempotentAndDataSurvivesReopen() async throws {
        try await RecordBehaviours.migrationsAreIdempotentAndDataSurvivesReopen(.postgres)
    }
    @Test func aClosedStoreThrowsClosed() async throws {
        try await RecordBehaviours.aClosedStoreThrowsClosed(.postgres)
    }
    @Test func concurrentClaimsOfOneKeyHaveOneWinner() async throws {
        try await ConcurrencyBehaviours.concurrentClaimsOfOneKeyHaveOneWinner(.postgres)
    }
    @Test func aLapsedLeaseIsTakenOverExactlyOnce() async throws {
        try await ConcurrencyBehaviours.aLapsedLeaseIsTakenOverExactlyOnce(.postgres)
    }
    @Test func twoStoreInstancesRacingOnOneKeyHaveOneWinner() async throws {
        try await ConcurrencyBehaviours.twoStoreInstancesRacingOnOneKeyHaveOneWinner(.postgres)
    }
    @Test func aRedeliveredWebhookIsStoredOnce() async throws {
        try await ConcurrencyBehaviours.aRedeliveredWebhookIsStoredOnce(.postgres)
    }
    @Test func concurrentWorkersNeverShareAWebhookEvent() async throws {
        try await ConcurrencyBehaviours.concurrentWorkersNeverShareAWebhookEvent(.postgres)
    }
    @Test func oneInstanceRunsAJob() async throws { try await ConcurrencyBehaviours.oneInstanceRunsAJob(.postgres) }
    @Test func aUserIDWithNULNeverReachesAnotherUsersRows() async throws {
        try await SecurityBehaviours.aUserIDWithNULNeverReachesAnotherUsersRows(.postgres)
    }
    @Test func rateLimitBucketsRefillAndAreSharedByInstances() async throws {
        try await SecurityBehaviours.rateLimitBucketsRefillAndAreSharedByInstances(.postgres)
    }
    @Test func purgeDeletesOldSessionsProcessedEventsAndIdleBuckets() async throws {
        try await SecurityBehaviours.purgeDeletesOldSessionsProcessedEventsAndIdleBuckets(.postgres)
    }
    @Test func theRecordPurgeGoesInBatches() async throws {
        try await SecurityBehaviours.theRecordPurgeGoesInBatches(.postgres)
    }
}
