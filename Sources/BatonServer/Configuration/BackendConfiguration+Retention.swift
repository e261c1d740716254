import BatonCore
import Foundation

extension BackendConfiguration {
    /// How long the background maintenance keeps each kind of row, and how often it runs (`retention` in the file).
    ///
    /// The defaults are the contract's (docs/CONTRACTS.md, *Retention*). Each value has a floor a deployment may not
    /// go under (``Floor``), because a record purged sooner breaks a promise made to an app or a provider.
    public struct Retention: Sendable, Hashable {
        /// Idempotency records of the share route, from their creation (`idempotencyRecordsSeconds`, 24 h).
        public var idempotencyRecords: TimeInterval
        /// Connect sessions, processed webhook events, idle rate-limit buckets and unshown image bytes.
        public var records: RecordRetention
        /// How often the background maintenance runs (`maintenanceIntervalSeconds`, 30 s).
        public var maintenanceInterval: Duration

        /// Creates a retention; the defaults are 24 h for idempotency records, ``RecordRetention``'s defaults, and
        /// maintenance every 30 s.
        public init(
            idempotencyRecords: TimeInterval = 24 * 60 * 60, records: RecordRetention = RecordRetention(),
            maintenanceInterval: Duration = .seconds(30)
        ) {
            self.idempotencyRecords = idempotencyRecords
            self.records = records
            self.maintenanceInterval = maintenanceInterval
        }

        /// The least each retention may be, in seconds, and why (the reasons are in the loader's refusals).
        public enum Floor {
            /// A share's sealed response is replayed until its URL expires (Chia: 15 minutes), and a retry inside
            /// that window must find the record, not start a second journey; the claim lease (provider timeout + 5 s,
            /// at most 125 s) is far inside it.
            public static let idempotencyRecords = 900
            /// A BB connect session lives 30 minutes; the app reads its outcome after the journey ends.
            public static let connectSessions = 1_800
            /// Webhook signatures are accepted within 5 minutes either side of their timestamp: an event id must be
            /// kept for both sides of that window, so a redelivery or replay inside it is recognised.
            public static let webhookEvents = 600
            /// A bucket is kept at least until it is full again anyway; a minute is the shortest that matters.
            public static let rateLimitBuckets = 60
            /// An instance may serve the previous publication for up to one catalog sync interval: image bytes are
            /// kept at least twice `chia.syncIntervalSeconds`, and never under this.
            public static let assetBytes = 600
        }
    }
}

extension ConfigurationReader {
    /// The `retention` object: every value optional, each refused below its ``BackendConfiguration/Retention/Floor``
    /// with the reason at its path.
    mutating func retention(_ root: [String: JSONValue], syncInterval: TimeInterval) -> BackendConfiguration.Retention {
        let object = self.object(
            root, "retention", path: "retention",
            known: [
                "idempotencyRecordsSeconds", "connectSessionsSeconds", "webhookEventsSeconds",
                "rateLimitBucketsSeconds", "assetBytesSeconds", "maintenanceIntervalSeconds",
            ], required: false)
        typealias Floor = BackendConfiguration.Retention.Floor
        let defaults = BackendConfiguration.Retention()
        let year = 366 * 86_400
        func seconds(_ key: String, _ fallback: TimeInterval, floor: Int, why: String) -> TimeInterval {
            let path = "retention.\(key)"
            let value = integer(object, key, path: path, default: Int(fallback), range: 0...year)
            if value < floor {
                fail(path, "must be at least \(floor) seconds: \(why)")
                return fallback
            }
            return TimeInterval(value)
        }
        let idempotency = seconds(
            "idempotencyRecordsSeconds", defaults.idempotencyRecords, floor: Floor.idempotencyRecords,
            why: "a share's URL lives 15 minutes and a retry inside them must replay it, not start a second journey")
        let connect = seconds(
            "connectSessionsSeconds", defaults.records.connectSessions, floor: Floor.connectSessions,
            why: "a BB connect session lives 30 minutes and the app reads its outcome after it ends")
        let webhooks = seconds(
            "webhookEventsSeconds", defaults.records.webhookEvents, floor: Floor.webhookEvents,
            why:
                "a signed delivery is accepted 5 minutes either side of its timestamp and must be recognised throughout"
        )
        let buckets = seconds(
            "rateLimitBucketsSeconds", defaults.records.rateLimitBuckets, floor: Floor.rateLimitBuckets,
            why: "shorter changes nothing (a bucket is kept until it is full again)")
        let assetFloor = max(Floor.assetBytes, 2 * Int(syncInterval))
        let assets = seconds(
            "assetBytesSeconds", defaults.records.assetBytes, floor: assetFloor,
            why:
                "an instance may serve the previous catalog for a sync interval (at least twice chia.syncIntervalSeconds)"
        )
        let interval = integer(
            object, "maintenanceIntervalSeconds", path: "retention.maintenanceIntervalSeconds", default: 30,
            range: 1...3_600)
        return BackendConfiguration.Retention(
            idempotencyRecords: idempotency,
            records: RecordRetention(
                connectSessions: connect, webhookEvents: webhooks, rateLimitBuckets: buckets, assetBytes: assets),
            maintenanceInterval: .seconds(interval))
    }
}
