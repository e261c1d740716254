/// A fault to inject, as posted to `POST /_sandbox/faults`.
///
/// ```json
/// {"endpoint": "POST /v2/handoff-sessions", "fault": "status", "status": 429, "retryAfterSeconds": 2, "count": 1}
/// {"endpoint": "GET /v2/catalog", "fault": "drop", "fraction": 0.5, "seed": 7}
/// {"endpoint": "*", "fault": "latency", "latencyMs": 250}
/// ```
/// `endpoint` is `*` (every provider route), `METHOD /route/{pattern}` or `/route/{pattern}` (any method); the
/// pattern is the route's (`/v2/connect-sessions/{sessionId}`) or a literal path. `count` limits the fault to the
/// next N matching calls; `fraction` fires it on that share of matching calls, drawn from a generator seeded by
/// `seed`; with neither, it fires on every matching call until cleared. `latencyMs` may accompany any fault and
/// delays the call before the fault (or the normal answer) happens.
public struct FaultSpec: Sendable, Hashable, Codable {
    /// What happens to a call the fault fires on.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Only the added latency; the call is then answered normally.
        case latency
        /// Answer with `status` (429 carries `Retry-After`).
        case status
        /// Close the connection without any response.
        case drop
        /// Never answer: the connection stays open with no response until the caller times out.
        case timeout
    }

    /// Which calls the fault applies to.
    public var endpoint: String
    /// What it does.
    public var fault: Kind
    /// The status for `status` faults (400–599).
    public var status: Int?
    /// `Retry-After` seconds for `status` faults (default 1 on a 429, absent otherwise).
    public var retryAfterSeconds: Int?
    /// Latency added before the call proceeds, in milliseconds.
    public var latencyMs: Int?
    /// Fire on the next `count` matching calls only.
    public var count: Int?
    /// Fire on this fraction (0…1) of matching calls.
    public var fraction: Double?
    /// The seed of the generator that decides fractional faults (default 1).
    public var seed: UInt64?

    /// Creates a spec.
    public init(
        endpoint: String, fault: Kind, status: Int? = nil, retryAfterSeconds: Int? = nil, latencyMs: Int? = nil,
        count: Int? = nil, fraction: Double? = nil, seed: UInt64? = nil
    ) {
        self.endpoint = endpoint
        self.fault = fault
        self.status = status
        self.retryAfterSeconds = retryAfterSeconds
        self.latencyMs = latencyMs
        self.count = count
        self.fraction = fraction
        self.seed = seed
    }

    /// Why the spec cannot be used, or `nil` when it can.
    public var validationError: String? {
        if endpoint.isEmpty { return "endpoint is required" }
        if fault == .status {
            guard let status, (400...599).contains(status) else { return "status faults need a status of 400-599" }
        }
        if fault == .latency && (latencyMs ?? 0) <= 0 { return "latency faults need latencyMs > 0" }
        if let latencyMs, latencyMs < 0 || latencyMs > 600_000 { return "latencyMs must be 0...600000" }
        if let retryAfterSeconds, retryAfterSeconds < 0 { return "retryAfterSeconds must be >= 0" }
        if count != nil && fraction != nil { return "give count or fraction, not both" }
        if let count, count <= 0 { return "count must be > 0" }
        if let fraction, !(0...1).contains(fraction) { return "fraction must be within 0...1" }
        return nil
    }

    /// Whether the spec applies to a call of `method` on `route` (the matched pattern, if any) and `path`.
    func matches(method: String, route: String?, path: String) -> Bool {
        if endpoint == "*" { return true }
        var target = Substring(endpoint)
        if let space = endpoint.firstIndex(of: " ") {
            guard endpoint[..<space] == method else { return false }
            target = endpoint[endpoint.index(after: space)...]
        }
        return target == path || (route.map { target == $0 } ?? false)
    }
}
