import Foundation
import Synchronization

/// Where JSON log lines go. One call per line, without the trailing newline.
public protocol LogSink: Sendable {
    /// Writes one complete log line.
    func write(_ line: String)

    /// Writes one complete log line given as UTF-8 bytes (the access log's lines come this way).
    func write(bytes line: [UInt8])
}

extension LogSink {
    /// Writes the line as a string, through ``write(_:)``.
    public func write(bytes line: [UInt8]) { write(String(decoding: line, as: UTF8.self)) }
}

/// Writes lines to standard error from one dedicated thread, so a request task never blocks on a slow terminal or
/// a full pipe. Lines are buffered up to a bound; past it, new lines are dropped and counted in a later line.
///
/// The thread is woken only when a line lands in an empty buffer, and after each write it lets lines gather for
/// ``batchInterval`` before the next: under load that is one `write(2)` and one wake-up per burst, not per line
/// (each share logs two lines). The default is 10 ms: at ~1,000 shares/s a 2 ms interval woke the thread 0.47 times
/// per share, 10 ms wakes it 0.09 times, and a line reaches standard error at most 10 ms late. ``flush(timeout:)``
/// waits until everything logged so far is written; the `baton` executable calls it before it exits.
public final class StandardErrorLogSink: LogSink {
    /// The process-wide sink.
    public static let shared = StandardErrorLogSink()

    /// The lines not yet written, as the bytes to write (each line and its newline), so that the writer thread
    /// writes them as they are: no array of strings to join and copy again.
    private struct Buffer {
        var bytes: [UInt8] = []
        var lines = 0
        var dropped = 0
    }

    /// Lines a failed write lost, the `errno` of the last failure, and whether it left half a line behind; reported
    /// by the first write that succeeds.
    fileprivate struct Lost {
        var lines = 0
        var errno: Int32 = 0
        var partial = false
    }

    /// What one `write` of a batch did.
    typealias WriteOutcome = FileDescriptorIO.WriteOutcome

    private let buffer = Mutex(Buffer())
    private let wake = NSCondition()
    private let capacity: Int
    private let batchInterval: Duration
    private let writeBytes: @Sendable ([UInt8]) -> WriteOutcome
    /// Lines accepted (or dropped) and not yet written.
    private let pending = Atomic(0)

    /// A sink buffering at most `capacity` lines, writing to `destination` (tests pass a pipe) at most once per
    /// `batchInterval`.
    ///
    /// A write that fails (a full disk under a redirected standard error, a closed pipe) never stops the process:
    /// its lines are lost and counted, and the first write that succeeds again starts with one `log_lines_lost` line
    /// saying how many and why (`no_space`, `broken_pipe`, …).
    public convenience init(
        capacity: Int = 10_000, batchInterval: Duration = .milliseconds(10), destination: FileHandle = .standardError
    ) {
        let descriptor = destination.fileDescriptor
        self.init(capacity: capacity, batchInterval: batchInterval) { bytes in
            Self.writeAll(bytes, to: descriptor)
        }
    }

    /// A sink handing each batch to `write`.
    init(capacity: Int, batchInterval: Duration, write: @escaping @Sendable ([UInt8]) -> WriteOutcome) {
        self.capacity = capacity
        self.batchInterval = batchInterval
        self.writeBytes = write
        startNamedThread("baton.log.stderr") { [self] in drain() }
    }

    public func write(_ line: String) {
        var line = line
        line.withUTF8 { add($0) }
    }

    public func write(bytes line: [UInt8]) {
        line.withUnsafeBufferPointer { add($0) }
    }

    /// Buffers one line (its bytes, then a newline), or counts it as dropped when the buffer is full.
    private func add(_ line: UnsafeBufferPointer<UInt8>) {
        let wasEmpty = buffer.withLock { buffer in
            defer {
                if buffer.lines < capacity {
                    buffer.bytes.append(contentsOf: line)
                    buffer.bytes.append(UInt8(ascii: "\n"))
                    buffer.lines += 1
                } else {
                    buffer.dropped += 1
                }
            }
            return buffer.lines == 0 && buffer.dropped == 0
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
        var lost = Lost()
        // The buffer the next batch is swapped out for: two arrays take turns, so a steady load allocates nothing.
        var spare: [UInt8] = []
        while true {
            wake.lock()
            while buffer.withLock({ $0.lines == 0 && $0.dropped == 0 }) { wake.wait() }
            wake.unlock()
            var (bytes, lines, dropped) = buffer.withLock { buffer in
                let batch = (buffer.bytes, buffer.lines, buffer.dropped)
                buffer = Buffer(bytes: spare, lines: 0, dropped: 0)
                return batch
            }
            spare = []
            if lost.lines > 0 || dropped > 0 {
                var text = lost.lines > 0 ? Array(Self.lostLine(lost).utf8) : []
                text += bytes
                if dropped > 0 {
                    text += Array(#"{"level":"warning","event":"log_lines_dropped","count":\#(dropped)}"#.utf8)
                    text.append(UInt8(ascii: "\n"))
                }
                bytes = text
            }
            let outcome = writeBytes(bytes)
            if let failure = outcome.errno {
                lost = Lost(
                    lines: lost.lines + lines + dropped, errno: failure, partial: outcome.written > 0 || lost.partial)
            } else {
                lost = Lost()
            }
            bytes.removeAll(keepingCapacity: true)
            spare = bytes
            pending.subtract(lines + dropped, ordering: .releasing)
            if pause > 0 { usleep(pause) }
        }
    }
}

extension StandardErrorLogSink {
    /// Writes every byte to `descriptor`, retrying after `EINTR` and partial writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> WriteOutcome {
        FileDescriptorIO.writeAll(bytes, to: descriptor)
    }

    /// The line that reports lines lost to failed writes, with a plain reason for the `errno`.
    fileprivate static func lostLine(_ lost: Lost) -> String {
        let reason =
            switch lost.errno {
            case ENOSPC: "no_space"
            case EDQUOT: "quota_exceeded"
            case EPIPE: "broken_pipe"
            case EIO: "io_error"
            case EFBIG: "file_too_large"
            default: "errno_\(lost.errno)"
            }
        // After half a line, start on a line of its own.
        return (lost.partial ? "\n" : "")
            + #"{"level":"warning","event":"log_lines_lost","count":\#(lost.lines),"reason":"\#(reason)"}"# + "\n"
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
