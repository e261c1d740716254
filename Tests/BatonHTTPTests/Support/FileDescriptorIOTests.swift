import Foundation
import Testing

@testable import BatonHTTP

/// The one `write(2)` loop: every byte out across partial writes, the first real error reported with what got out.
@Suite struct FileDescriptorIOTests {
    @Test func moreThanAPipeHoldsArrivesWholeAndInOrder() async throws {
        // A pipe holds 64 KiB on Linux: the writer waits for the reader to drain it many times over.
        let pipe = Pipe()
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let reader = Task.detached { pipe.fileHandleForReading.readDataToEndOfFile() }
        let outcome = FileDescriptorIO.writeAll(bytes, to: pipe.fileHandleForWriting.fileDescriptor)
        try pipe.fileHandleForWriting.close()
        #expect(outcome == .init(written: bytes.count, errno: nil))
        let received = await reader.value
        #expect(Array(received) == bytes)
    }

    @Test func aFailedWriteReportsItsErrno() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let outcome = FileDescriptorIO.writeAll("x".utf8, to: full.fileDescriptor)
        #expect(outcome == .init(written: 0, errno: ENOSPC))
        #expect(!outcome.isComplete)
    }

    @Test func aClosedReaderIsABrokenPipeNotATrap() throws {
        signal(SIGPIPE, SIG_IGN)
        let ends = try FileDescriptorIO.makeWakePipe()
        close(ends.read)
        defer { close(ends.write) }
        #expect(FileDescriptorIO.writeAll([1, 2, 3], to: ends.write).errno == EPIPE)
    }

    @Test func theWakePipeNeverBlocksItsWriter() throws {
        let ends = try FileDescriptorIO.makeWakePipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        #expect(fcntl(ends.read, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(ends.write, F_GETFD) & FD_CLOEXEC != 0)
        // Far more wake-ups than the pipe holds: the extra ones are dropped, the caller never waits.
        for _ in 0..<100_000 { FileDescriptorIO.wake(ends.write) }
        var byte: UInt8 = 0
        #expect(read(ends.read, &byte, 1) == 1)
    }
}
