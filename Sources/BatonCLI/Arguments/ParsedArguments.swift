/// A subcommand's arguments after parsing: option values, flags and positional arguments.
public struct ParsedArguments: Sendable, Hashable {
    /// Values of options that take one, in the order given, by option name (`--flow`).
    public private(set) var values: [String: [String]] = [:]
    /// Flags that were given.
    public private(set) var flags: Set<String> = []
    /// Positional arguments, in order.
    public private(set) var positionals: [String] = []

    /// The single value of `name`, if given.
    public func value(_ name: String) -> String? { values[name]?.first }

    /// Every value of a repeatable option.
    public func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// Parses `arguments` against `options`.
    ///
    /// Accepts `--name value` and `--name=value`; `--` ends the options. An unknown option, a missing value or a
    /// non-repeatable option given twice is a ``UsageError``. `--help` is handled by the dispatcher, not here.
    public static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '\(name)'")
            }
            if spec.valueName == nil {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                guard !parsed.flags.contains(name) else { throw UsageError("option '\(name)' given twice") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.endIndex else { throw UsageError("option '\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            guard spec.isRepeatable || parsed.values[name] == nil else {
                throw UsageError("option '\(name)' given twice")
            }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }
}

/// A command line that cannot be run as given: printed to stderr, exit code 2.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in one line.
    public let message: String

    /// Creates a usage error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
