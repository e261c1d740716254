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
            output: { text in _ = writeDroppingFailures(Array(text.utf8), to: output) },
            error: { text in _ = writeDroppingFailures(Array(text.utf8), to: error) })
    }

    /// Writes `line` and a newline to standard output.
    public func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes `line` and a newline to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }
}

/// Writes every byte (retrying after `EINTR` and partial writes); returns whether all of them were written.
func writeDroppingFailures(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { buffer in
        // An empty buffer may have no base address; there is then nothing to write.
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
