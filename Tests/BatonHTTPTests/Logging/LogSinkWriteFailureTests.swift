import Foundation
import Synchronization
import Testing

@testable import BatonHTTP

/// A log destination that fails (a full disk under a redirected standard error) never stops the process, and the
/// lines it lost are reported once writing works again.
@Suite("The log writer survives a full destination")
struct LogSinkWriteFailureTests {
    /// A destination that, while failing, takes the first `partial` bytes of a batch then refuses the rest with
    /// `errno`, and keeps what it accepts.
    final class FlakyDestination: Sendable {
        private let state = Mutex((failing: true, written: ""))
        let errno: Int32
        let partial: Int

        init(errno: Int32, partial: Int = 0) {
            self.errno = errno
            self.partial = partial
        }

        func heal() { state.withLock { $0.failing = false } }

        var written: String { state.withLock { $0.written } }

        func write(_ bytes: [UInt8]) -> StandardErrorLogSink.WriteOutcome {
            state.withLock { state in
                let taken = state.failing ? min(partial, bytes.count) : bytes.count
                state.written += String(decoding: bytes.prefix(taken), as: UTF8.self)
                return .init(written: taken, errno: state.failing ? errno : nil)
            }
        }
    }

    @Test(
        "lines lost to failed writes are counted and reported with the reason",
        arguments: [(ENOSPC, "no_space"), (EPIPE, "broken_pipe"), (EIO, "io_error")])
    func lostLinesAreReported(errno: Int32, reason: String) {
        let destination = FlakyDestination(errno: errno)
        let sink = StandardErrorLogSink(capacity: 100, batchInterval: .zero) { destination.write($0) }
        for index in 0..<5 { sink.write("lost-\(index)") }
        sink.flush(timeout: .seconds(10))
        #expect(destination.written.isEmpty)
        destination.heal()
        sink.write("after")
        sink.flush(timeout: .seconds(10))
        let lines = destination.written.split(separator: "\n").map(String.init)
        #expect(lines == [#"{"level":"warning","event":"log_lines_lost","count":5,"reason":"\#(reason)"}"#, "after"])
        // Reported once: the next batch starts clean.
        sink.write("later")
        sink.flush(timeout: .seconds(10))
        #expect(destination.written.split(separator: "\n").last == "later")
        #expect(destination.written.components(separatedBy: "log_lines_lost").count == 2)
    }

    @Test func aLineCutShortByTheFailureDoesNotSwallowTheReport() {
        let destination = FlakyDestination(errno: ENOSPC, partial: 4)
        let sink = StandardErrorLogSink(capacity: 100, batchInterval: .zero) { destination.write($0) }
        sink.write("cut-short")
        sink.flush(timeout: .seconds(10))
        destination.heal()
        sink.write("after")
        sink.flush(timeout: .seconds(10))
        #expect(
            destination.written.split(separator: "\n", omittingEmptySubsequences: false) == [
                "cut-", #"{"level":"warning","event":"log_lines_lost","count":1,"reason":"no_space"}"#, "after", "",
            ])
    }

    @Test func aRealFullDeviceDoesNotStopTheProcess() throws {
        // /dev/full fails every write with ENOSPC: before, `FileHandle.write(_:)` trapped on it.
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let sink = StandardErrorLogSink(batchInterval: .zero, destination: full)
        for index in 0..<3 { sink.write("line \(index)") }
        sink.flush(timeout: .seconds(10))
        #expect(StandardErrorLogSink.writeAll(Array("x".utf8), to: full.fileDescriptor).errno == ENOSPC)
    }
}
