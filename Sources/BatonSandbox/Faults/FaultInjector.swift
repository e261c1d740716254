/// The faults in force on one provider origin, and the decision, per call, of which one fires.
public actor FaultInjector {
    /// What to do with one call.
    public struct Decision: Sendable, Hashable {
        /// Wait this long first.
        public var latency: Duration?
        /// Then this, or answer normally when `nil`.
        public var outcome: Outcome?
        /// The id of the rule that fired.
        public var ruleID: String
    }

    /// The terminal part of a fault.
    public enum Outcome: Sendable, Hashable {
        /// Answer with this status (and `Retry-After` seconds, if any).
        case status(Int, retryAfterSeconds: Int?)
        /// Close the connection without a response.
        case drop
        /// Never answer.
        case timeout
    }

    /// A rule in force, as listed by `GET /_sandbox/faults`.
    public struct Rule: Sendable {
        /// `flt_<n>`.
        public let id: String
        /// The spec it was made from.
        public let spec: FaultSpec
        /// Calls left for a `count` rule.
        public internal(set) var remaining: Int?
        /// How many calls it fired on.
        public internal(set) var fired: Int = 0
        fileprivate var generator: SeededGenerator
    }

    private var rules: [Rule] = []
    private var nextID = 1

    /// No faults.
    public init() {}

    /// Adds a fault; returns the rule, or the reason the spec is invalid.
    public func add(_ spec: FaultSpec) -> Result<Rule, FaultSpecError> {
        if let reason = spec.validationError { return .failure(FaultSpecError(reason: reason)) }
        let rule = Rule(
            id: "flt_\(nextID)", spec: spec, remaining: spec.count, generator: SeededGenerator(seed: spec.seed ?? 1))
        nextID += 1
        rules.append(rule)
        return .success(rule)
    }

    /// The rules in force (exhausted `count` rules are gone).
    public func list() -> [Rule] { rules }

    /// Removes every fault.
    public func clear() { rules = [] }

    /// Decides the fault for a call: the first matching rule that fires, consuming one of its `count`.
    public func decide(method: String, route: String?, path: String) -> Decision? {
        for index in rules.indices where rules[index].spec.matches(method: method, route: route, path: path) {
            if let fraction = rules[index].spec.fraction {
                let draw = Double.random(in: 0..<1, using: &rules[index].generator)
                guard draw < fraction else { continue }
            }
            rules[index].fired += 1
            let spec = rules[index].spec
            let id = rules[index].id
            if let remaining = rules[index].remaining {
                rules[index].remaining = remaining - 1
                if remaining <= 1 { rules.remove(at: index) }
            }
            return Decision(
                latency: spec.latencyMs.map { .milliseconds($0) }, outcome: Self.outcome(of: spec), ruleID: id)
        }
        return nil
    }

    private static func outcome(of spec: FaultSpec) -> Outcome? {
        switch spec.fault {
        case .latency: nil
        case .status:
            .status(spec.status ?? 500, retryAfterSeconds: spec.retryAfterSeconds ?? (spec.status == 429 ? 1 : nil))
        case .drop: .drop
        case .timeout: .timeout
        }
    }
}

/// Why a fault spec was refused (400 `invalid_fault`).
public struct FaultSpecError: Error, Sendable, Hashable {
    /// What is wrong with it.
    public let reason: String
}
