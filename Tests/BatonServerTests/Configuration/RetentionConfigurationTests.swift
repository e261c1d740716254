import Foundation
import Testing

@testable import BatonServer

/// The configuration file's `retention` object: defaults unchanged, short values accepted down to each floor,
/// anything lower refused at its path with the reason.
@Suite("Retention in the configuration file")
struct RetentionConfigurationTests {
    static func file(retention: String) -> String {
        BackendConfigurationTests.validFile.replacingOccurrences(
            of: "\"database\": \"sqlite:/tmp/baton-test.sqlite\",",
            with: "\"database\": \"sqlite:/tmp/baton-test.sqlite\", \"retention\": \(retention),")
    }

    @Test func withoutRetentionTheContractDefaultsHold() throws {
        let retention = try BackendConfigurationTests.load(BackendConfigurationTests.validFile).retention
        #expect(retention.idempotencyRecords == 86_400)
        #expect(retention.records == RecordRetention())
        #expect(retention.maintenanceInterval == .seconds(30))
    }

    @Test func theSoaksShortRetentionIsAccepted() throws {
        let file = Self.file(
            retention: """
                {"idempotencyRecordsSeconds": 900, "connectSessionsSeconds": 1800, "webhookEventsSeconds": 600,
                 "rateLimitBucketsSeconds": 60, "assetBytesSeconds": 600, "maintenanceIntervalSeconds": 15}
                """)
        let retention = try BackendConfigurationTests.load(file).retention
        #expect(retention.idempotencyRecords == 900)
        #expect(
            retention.records
                == RecordRetention(connectSessions: 1_800, webhookEvents: 600, rateLimitBuckets: 60, assetBytes: 600))
        #expect(retention.maintenanceInterval == .seconds(15))
    }

    @Test(
        "a value below its floor, of the wrong type or an unknown key is refused at its path",
        arguments: [
            (#"{"idempotencyRecordsSeconds": 899}"#, "retention.idempotencyRecordsSeconds"),
            (#"{"connectSessionsSeconds": 1799}"#, "retention.connectSessionsSeconds"),
            (#"{"webhookEventsSeconds": 599}"#, "retention.webhookEventsSeconds"),
            (#"{"rateLimitBucketsSeconds": 59}"#, "retention.rateLimitBucketsSeconds"),
            (#"{"assetBytesSeconds": 599}"#, "retention.assetBytesSeconds"),
            (#"{"maintenanceIntervalSeconds": 0}"#, "retention.maintenanceIntervalSeconds"),
            (#"{"idempotencyRecordsSeconds": "1h"}"#, "retention.idempotencyRecordsSeconds"),
            (#"{"idempotencyRecordsSeconds": 900.5}"#, "retention.idempotencyRecordsSeconds"),
            (#"{"webhookEventSeconds": 600}"#, "retention.webhookEventSeconds"),
            (#"[]"#, "retention"),
        ])
    func refusedAtItsPath(retention: String, field: String) {
        #expect(BackendConfigurationTests.problems(Self.file(retention: retention)) == [field])
    }

    @Test func theFloorSaysWhy() {
        do {
            _ = try BackendConfigurationTests.load(Self.file(retention: #"{"idempotencyRecordsSeconds": 60}"#))
            Issue.record("expected the configuration to be refused")
        } catch {
            #expect(error.description.contains("at least 900 seconds"))
            #expect(error.description.contains("15 minutes"))
        }
    }

    @Test func imageBytesOutliveTwoCatalogSyncIntervals() {
        let file = Self.file(retention: #"{"assetBytesSeconds": 1000}"#)
            .replacingOccurrences(
                of: "\"genericReturnHost\"", with: "\"syncIntervalSeconds\": 600, \"genericReturnHost\"")
        #expect(BackendConfigurationTests.problems(file) == ["retention.assetBytesSeconds"])
    }
}
