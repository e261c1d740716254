import Foundation

/// One `baton` subcommand. Add a new one by conforming a type and listing it in ``BatonCommandLine/subcommands``.
public protocol Subcommand: Sendable {
    /// The word after `baton`, for example `parse-return`.
    var name: String { get }
    /// One line for `baton --help`.
    var summary: String { get }
    /// The synopsis lines shown first in `--help`, without the leading `usage: `.
    var synopsis: [String] { get }
    /// The options it accepts (`--help` is implied).
    var options: [OptionSpec] { get }
    /// Runs with parsed arguments and returns the exit code; throws ``UsageError`` for exit code 2.
    ///
    /// Asynchronous, like the `baton` entry point that awaits it: a subcommand never bridges to async itself.
    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32
}

extension Subcommand {
    /// The full `--help` text.
    public var help: String {
        var lines = synopsis.enumerated().map { $0.offset == 0 ? "usage: \($0.element)" : "       \($0.element)" }
        lines += ["", summary, "", "options:"]
        let all = options + [.flag("--help", help: "show this help")]
        let labels = all.map { spec in spec.valueName.map { "\(spec.name) \($0)" } ?? spec.name }
        let width = labels.map(\.count).max() ?? 0
        for (label, spec) in zip(labels, all) {
            lines.append("  " + label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + spec.help)
        }
        return lines.joined(separator: "\n")
    }
}
