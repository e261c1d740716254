/// One `--option` a subcommand accepts.
public struct OptionSpec: Sendable, Hashable {
    /// The option's name with its dashes, for example `--flow`.
    public let name: String
    /// The placeholder shown in help for its value, or `nil` for a flag that takes no value.
    public let valueName: String?
    /// Whether it may be given more than once.
    public let isRepeatable: Bool
    /// One line of help.
    public let help: String

    /// An option that takes a value.
    public static func value(_ name: String, _ valueName: String, repeatable: Bool = false, help: String) -> OptionSpec
    {
        OptionSpec(name: name, valueName: valueName, isRepeatable: repeatable, help: help)
    }

    /// A flag without a value.
    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, isRepeatable: false, help: help)
    }
}
