import Foundation
import Synchronization

/// Where JSON log lines go. One call per line, without the trailing newline.
public protocol LogSink: Sendable {
    /// Writes one complete log line.
    func write(_ line: String)
}

/// Writes lines to standard error from one dedicated thread, so a request task never blocks on a slow terminal or
/// a full pipe. Lines are buffered up to a bound; past it, new lines are dropped and counted in a later line.
public final class StandardErrorLogSink: LogSink {
    /// The process-wide sink.
    public static let shared = StandardErrorLogSink()

    private struct Buffer {
        var lines: [String] = []
        var dropped = 0
    }

    private let buffer = Mutex(Buffer())
    private let wake = NSCondition()
    private let capacity: Int

    /// A sink buffering at most `capacity` lines.
    public init(capacity: Int = 10_000) {
        self.capacity = capacity
        let thread = Thread { [self] in drain() }
        thread.name = "baton.log.stderr"
        thread.start()
    }

    public func write(_ line: String) {
        buffer.withLock { buffer in
            if buffer.lines.count < capacity { buffer.lines.append(line) } else { buffer.dropped += 1 }
        }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    private func drain() {
        while true {
            wake.lock()
            while buffer.withLock({ $0.lines.isEmpty }) { wake.wait() }
            wake.unlock()
            let (lines, dropped) = buffer.withLock { buffer in
                defer { buffer = Buffer() }
                return (buffer.lines, buffer.dropped)
            }
            var text = lines.joined(separator: "\n") + "\n"
            if dropped > 0 { text += #"{"level":"warning","event":"log_lines_dropped","count":\#(dropped)}"# + "\n" }
            FileHandle.standardError.write(Data(text.utf8))
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
