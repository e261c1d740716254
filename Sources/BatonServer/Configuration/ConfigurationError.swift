/// A configuration the backend refuses to start with, naming the exact field and what is wrong with it.
///
/// The description names the field (`bb.returnURLs.https`) or environment variable (`BATON_BB_API_KEY`) and the
/// problem; it never contains a secret's value.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field path in the JSON file, or the environment variable's name.
    public let field: String
    /// What is wrong, in words a person can act on.
    public let problem: String
    /// What kind of problem it is, for callers that act on it (`baton doctor`'s fixes); never read `problem` for that.
    public let kind: Kind

    /// The kinds of problem a caller may treat differently.
    public enum Kind: Sendable, Hashable {
        /// The field is missing or its value is not acceptable.
        case invalid
        /// The file names a setting that does not exist (often a misspelling).
        case unknownSetting
    }

    /// Creates an error for `field`.
    public init(field: String, problem: String, kind: Kind = .invalid) {
        self.field = field
        self.problem = problem
        self.kind = kind
    }

    public var description: String { "\(field): \(problem)" }
}

/// Every problem found in one configuration, so a person fixes them all in one go.
public struct ConfigurationErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, in the order the fields were checked.
    public let errors: [ConfigurationError]

    /// Wraps `errors`.
    public init(_ errors: [ConfigurationError]) { self.errors = errors }

    public var description: String {
        "invalid configuration:\n" + errors.map { "  - \($0)" }.joined(separator: "\n")
    }
}
