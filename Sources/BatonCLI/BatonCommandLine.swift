import BatonCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `baton` command line: dispatches to a subcommand and returns the process exit code.
public enum BatonCommandLine {
    /// Runs `baton` with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case nil, "--help", "-h", "help":
            print(usage)
            return 0
        case "--version":
            print("baton \(Baton.version)")
            return 0
        case let other?:
            FileHandle.standardError.write(Data("baton: unknown command '\(other)'\n\(usage)\n".utf8))
            return 2
        }
    }

    static let usage = """
        usage: baton <command> [options]

        commands:
          --help       show this help
          --version    print the version
        """
}
