import Dispatch
import Foundation
import Synchronization

/// Where JSON log lines go. One call per line, without the trailing newline.
public protocol LogSink: Sendable {
    /// Writes one complete log line.
    func write(_ line: String)
}

/// Writes lines to standard error from one serial queue, so a request task never blocks on the terminal.
public struct StandardErrorLogSink: LogSink {
    private static let queue = DispatchQueue(label: "baton.log.stderr")

    /// Makes the sink.
    public init() {}

    public func write(_ line: String) {
        Self.queue.async {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}

/// Keeps lines in memory, for tests that read what was logged.
public final class InMemoryLogSink: LogSink {
    private let lines = Mutex<[String]>([])

    /// An empty capture.
    public init() {}

    public func write(_ line: String) { lines.withLock { $0.append(line) } }

    /// Everything written so far, in order.
    public var captured: [String] { lines.withLock { $0 } }
}

/// Drops every line (benchmarks).
public struct DiscardLogSink: LogSink {
    /// Makes the sink.
    public init() {}

    public func write(_ line: String) {}
}
