/// One line of `baton doctor`: a setting, what was found, and what to do about it.
///
/// Findings never carry a secret's value: a secret is described by its variable name and, at most, its length.
public struct DoctorFinding: Sendable, Hashable, CustomStringConvertible {
    /// How a finding weighs.
    public enum Level: String, Sendable, Hashable {
        /// The setting is fine.
        case ok
        /// Worth a look, but the backend can run (an origin not reachable from here, development mode).
        case warn
        /// The backend must not run like this.
        case fail
    }

    /// How it weighs.
    public let level: Level
    /// The field path (`bb.returnURLs.https`), the environment variable, or the generated file it is about.
    public let field: String
    /// What was found.
    public let message: String
    /// What to change, when something should change.
    public let fix: String?

    /// Creates a finding.
    public init(_ level: Level, _ field: String, _ message: String, fix: String? = nil) {
        self.level = level
        self.field = field
        self.message = message
        self.fix = fix
    }

    /// `level field: message`, then `  fix: …` on its own line when there is a fix.
    public var description: String {
        "\(level.rawValue) \(field): \(message)" + (fix.map { "\n  fix: \($0)" } ?? "")
    }
}

/// Everything `baton doctor` found about one configuration, in the order it was checked.
public struct DoctorReport: Sendable, Hashable {
    /// The findings, line by line.
    public var findings: [DoctorFinding]

    /// Creates a report.
    public init(findings: [DoctorFinding] = []) { self.findings = findings }

    /// Whether any finding is a failure (then `baton doctor` exits 1).
    public var hasFailures: Bool { findings.contains { $0.level == .fail } }

    /// The closing summary, e.g. `12 ok, 1 warning, 0 failed`.
    public var summary: String {
        let warnings = findings.count { $0.level == .warn }
        return "\(findings.count { $0.level == .ok }) ok, \(warnings) warning\(warnings == 1 ? "" : "s"), "
            + "\(findings.count { $0.level == .fail }) failed"
    }
}
