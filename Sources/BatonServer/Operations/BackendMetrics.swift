import Foundation
import Synchronization

/// The backend's counters, rendered as Prometheus text at `GET /metrics`.
///
/// Labels are fixed vocabularies (route patterns, provider names, outcome codes, status numbers): never an id, a URL,
/// a user or a key, so a label can never leak anything and the series count stays bounded.
public final class BackendMetrics: Sendable {
    private struct Series: Hashable, Comparable {
        let name: String
        let labels: [String]

        static func < (lhs: Series, rhs: Series) -> Bool {
            (lhs.name, lhs.labels.joined(separator: "\u{0}")) < (rhs.name, rhs.labels.joined(separator: "\u{0}"))
        }
    }

    private static let help: [String: (labels: [String], help: String)] = [
        "baton_http_requests_total": (["route", "status"], "App-facing and webhook requests answered, by route."),
        "baton_provider_calls_total": (["provider", "operation", "outcome"], "Provider operations, by outcome."),
        "baton_idempotency_outcomes_total": (["outcome"], "POST /v2/handoff-sessions answers, by idempotency outcome."),
        "baton_webhook_verifications_total": (["provider", "result"], "Webhook deliveries, by verification result."),
        "baton_auth_token_refusals_total": (["reason"], "Bearer tokens refused with 401, by reason."),
        "baton_rate_limited_total": ([], "Requests refused with 429 rate_limited by the per-user limit."),
    ]

    private let counters = Mutex<[Series: Int]>([:])

    /// `baton_http_requests_total`, counted on every request: keyed by route and status as they come, with no label
    /// array or status text to build until `/metrics` is rendered.
    private struct RouteStatus: Hashable {
        let route: String
        let status: Int
    }
    private let requests = Mutex<[RouteStatus: Int]>([:])

    /// One route's request durations: cumulative-ready bucket counts, sum and count.
    private struct Histogram {
        var buckets = [Int](repeating: 0, count: BackendMetrics.durationBuckets.count)
        var sum = 0.0
        var count = 0

        mutating func add(_ seconds: Double, bucket: Int?) {
            if let bucket { buckets[bucket] += 1 }
            sum += seconds
            count += 1
        }
    }

    /// Upper bounds (seconds) of `baton_http_request_duration_seconds`: from a cached read to a slow provider call.
    static let durationBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    private static let durationName = "baton_http_request_duration_seconds"
    private let durations = Mutex<[String: Histogram]>([:])

    /// An empty set of counters.
    public init() {}

    /// Counts one answered request.
    public func recordRequest(route: String, status: Int) {
        requests.withLock { $0[RouteStatus(route: route, status: status), default: 0] += 1 }
    }

    /// Adds one request's duration to its route's histogram (`route` is the pattern, never the raw path).
    public func recordRequestDuration(route: String, seconds: Double) {
        let bucket = Self.durationBuckets.firstIndex { seconds <= $0 }
        // Updated in place: a copy taken out and stored back would copy the bucket array on every request.
        durations.withLock { histograms in
            histograms[route, default: Histogram()].add(seconds, bucket: bucket)
        }
    }

    /// Counts one provider operation (all its attempts together).
    public func recordProviderCall(_ provider: ProviderName, operation: ProviderOperation, outcome: String) {
        increment("baton_provider_calls_total", [provider.rawValue, operation.rawValue, outcome])
    }

    /// Counts one idempotency outcome (`created`, `replayed`, `expired`, `join_timeout`, …).
    public func recordIdempotency(_ outcome: IdempotencyOutcome) {
        increment("baton_idempotency_outcomes_total", [outcome.rawValue])
    }

    /// Counts one webhook delivery by result (`accepted`, `duplicate`, or a rejection code).
    public func recordWebhook(_ provider: ProviderName, result: WebhookResult) {
        increment("baton_webhook_verifications_total", [provider.rawValue, result.label])
    }

    /// Counts one refused bearer token by reason (`expired`, `bad_signature`, …).
    public func recordTokenRefusal(_ reason: TokenRefusal) {
        increment("baton_auth_token_refusals_total", [reason.rawValue])
    }

    /// Counts one request refused by the per-user rate limit (`429 rate_limited`).
    public func recordRateLimited() {
        increment("baton_rate_limited_total", [])
    }

    /// The current value of one series, for tests.
    public func value(_ name: String, _ labels: [String]) -> Int {
        counterSnapshot()[Series(name: name, labels: labels)] ?? 0
    }

    /// Prometheus text exposition format 0.0.4.
    public func render() -> String {
        let snapshot = counterSnapshot()
        var text = ""
        for (name, (labelNames, help)) in Self.help.sorted(by: { $0.key < $1.key }) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
            if labelNames.isEmpty {
                // A family without labels has exactly one series, shown from zero so a rate can be taken at once.
                text += "\(name) \(snapshot[Series(name: name, labels: [])] ?? 0)\n"
                continue
            }
            for (series, count) in snapshot.filter({ $0.key.name == name }).sorted(by: { $0.key < $1.key }) {
                let labels = zip(labelNames, series.labels).map { "\($0)=\"\(Self.escape($1))\"" }
                text += "\(name){\(labels.joined(separator: ","))} \(count)\n"
            }
        }
        return text + renderDurations()
    }

    private func renderDurations() -> String {
        let name = Self.durationName
        var text =
            "# HELP \(name) Time to answer app-facing and webhook requests, by route.\n# TYPE \(name) histogram\n"
        for (route, histogram) in durations.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            let label = "route=\"\(Self.escape(route))\""
            var cumulative = 0
            for (bound, count) in zip(Self.durationBuckets, histogram.buckets) {
                cumulative += count
                text += "\(name)_bucket{\(label),le=\"\(bound)\"} \(cumulative)\n"
            }
            text += "\(name)_bucket{\(label),le=\"+Inf\"} \(histogram.count)\n"
            text += "\(name)_sum{\(label)} \(histogram.sum)\n\(name)_count{\(label)} \(histogram.count)\n"
        }
        return text
    }

    /// Every counter series, `baton_http_requests_total` included.
    private func counterSnapshot() -> [Series: Int] {
        var snapshot = counters.withLock { $0 }
        for (key, count) in requests.withLock({ $0 }) {
            snapshot[Series(name: "baton_http_requests_total", labels: [key.route, String(key.status)])] = count
        }
        return snapshot
    }

    private func increment(_ name: String, _ labels: [String]) {
        counters.withLock { $0[Series(name: name, labels: labels), default: 0] += 1 }
    }

    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
