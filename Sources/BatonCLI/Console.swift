import BatonHTTP
import Foundation

/// Where a subcommand writes: standard output for results, standard error for diagnostics.
public struct Console: Sendable {
    private let writeOutput: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void

    /// A console over custom sinks (tests, embedding).
    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.writeOutput = output
        self.writeError = error
    }

    /// The process's standard output and standard error.
    public static let standard = Console.fileDescriptors(output: STDOUT_FILENO, error: STDERR_FILENO)

    /// A console writing to two open file descriptors with `write(2)`.
    ///
    /// A write that fails — a full disk under a redirect, a closed pipe — is dropped: `baton serve` prints its catalog
    /// sync progress there while it serves, and `FileHandle.write(_:)` traps on such an error, which stopped the
    /// whole backend when the disk of its redirected output filled up.
    public static func fileDescriptors(output: Int32, error: Int32) -> Console {
        Console(
            output: { text in _ = FileDescriptorIO.writeAll(text.utf8, to: output) },
            error: { text in _ = FileDescriptorIO.writeAll(text.utf8, to: error) })
    }

    /// Writes `line` and a newline to standard output.
    public func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes `line` and a newline to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }
}
