import Foundation
import Synchronization

/// Where JSON log lines go. One call per line, without the trailing newline.
public protocol LogSink: Sendable {
    /// Writes one complete log line.
    func write(_ line: String)
}

/// Writes lines to standard error from one dedicated thread, so a request task never blocks on a slow terminal or
/// a full pipe. Lines are buffered up to a bound; past it, new lines are dropped and counted in a later line.
///
/// The thread is woken only when a line lands in an empty buffer, and after each write it lets lines gather for
/// ``batchInterval`` before the next: under load that is one `write(2)` and one wake-up per burst, not per line
/// (each share logs two lines). ``flush(timeout:)`` waits until everything logged so far is written; the `baton`
/// executable calls it before it exits.
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
    private let batchInterval: Duration
    private let destination: FileHandle
    /// Lines accepted (or dropped) and not yet written.
    private let pending = Atomic(0)

    /// A sink buffering at most `capacity` lines, writing to `destination` (tests pass a pipe) at most once per
    /// `batchInterval`.
    public init(
        capacity: Int = 10_000, batchInterval: Duration = .milliseconds(2), destination: FileHandle = .standardError
    ) {
        self.capacity = capacity
        self.batchInterval = batchInterval
        self.destination = destination
        let thread = Thread { [self] in drain() }
        thread.name = "baton.log.stderr"
        thread.start()
    }

    public func write(_ line: String) {
        let wasEmpty = buffer.withLock { buffer in
            defer { if buffer.lines.count < capacity { buffer.lines.append(line) } else { buffer.dropped += 1 } }
            return buffer.lines.isEmpty && buffer.dropped == 0
        }
        pending.add(1, ordering: .releasing)
        // A non-empty buffer means the writer thread is awake or already signalled.
        guard wasEmpty else { return }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    /// Waits (at most `timeout`) until every line written before this call has reached standard error.
    public func flush(timeout: Duration = .seconds(2)) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while pending.load(ordering: .acquiring) > 0 && clock.now < deadline {
            usleep(500)
        }
    }

    private func drain() {
        let (seconds, attoseconds) = batchInterval.components
        let pause = UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        while true {
            wake.lock()
            while buffer.withLock({ $0.lines.isEmpty && $0.dropped == 0 }) { wake.wait() }
            wake.unlock()
            let (lines, dropped) = buffer.withLock { buffer in
                defer { buffer = Buffer() }
                return (buffer.lines, buffer.dropped)
            }
            var text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
            if dropped > 0 { text += #"{"level":"warning","event":"log_lines_dropped","count":\#(dropped)}"# + "\n" }
            destination.write(Data(text.utf8))
            pending.subtract(lines.count + dropped, ordering: .releasing)
            if pause > 0 { usleep(pause) }
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
