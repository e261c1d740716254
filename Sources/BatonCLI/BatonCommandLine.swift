import BatonCore
import BatonHTTP
import Foundation

/// The `baton` command line: dispatches to a subcommand and returns the process exit code.
public enum BatonCommandLine {
    /// Every subcommand, in the order `baton --help` lists them.
    public static let subcommands: [any Subcommand] = [
        ServeCommand(), SandboxCommand(), DemoCommand(), TokenCommand(), DoctorCommand(), ParseReturnCommand(),
        ConformanceCommand(), VerifyBackendCommand(),
    ]

    /// Runs `baton` with `arguments` (without the program name) and returns the exit code: 0 done, 1 failed, 2 a usage
    /// error (no command, an unknown command or option, a bad value).
    public static func run(_ arguments: [String], console: Console = .standard) async -> Int32 {
        guard let first = arguments.first else {
            // No command is a usage error (like git or kubectl): the usage goes to stderr with exit status 2.
            console.printError(usage)
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            console.print(usage)
            return 0
        case "--version":
            console.print("baton \(Baton.version)")
            return 0
        default:
            break
        }
        guard let command = subcommands.first(where: { $0.name == first }) else {
            let what = first.hasPrefix("-") ? "unknown option" : "unknown command"
            console.printError("baton: \(what) '\(first)'\nRun 'baton --help' for the list of commands.")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        let beforeSeparator = rest.prefix { $0 != "--" }
        if beforeSeparator.contains("--help") || beforeSeparator.contains("-h") {
            console.print(command.help)
            return 0
        }
        do {
            let parsed = try ParsedArguments.parse(rest, options: command.options)
            // Log lines are written by a background thread: let it finish before the process may end.
            defer { StandardErrorLogSink.shared.flush() }
            return try await command.run(parsed, console: console)
        } catch {
            console.printError("baton \(command.name): \(error.message)\nRun 'baton \(command.name) --help' for usage.")
            return 2
        }
    }

    /// The top-level help text.
    public static var usage: String {
        let width = subcommands.map(\.name.count).max() ?? 0
        let commands = subcommands.map {
            "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary
        }
        return
            (["usage: baton <command> [options]", "", "commands:"] + commands + [
                "",
                "options:",
                "  --help       show this help (also: baton <command> --help)",
                "  --version    print the version",
            ]).joined(separator: "\n")
    }
}
