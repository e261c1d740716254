import Foundation

/// The one place that loops over `write(2)` and makes a wake-up pipe: the log sink, the console, the files the CLI
/// writes and the store's event loop all go through it.
package enum FileDescriptorIO {
    /// What a ``writeAll(_:to:)`` did: the bytes written, and the `errno` if it stopped short.
    package struct WriteOutcome: Equatable, Sendable {
        /// Bytes written.
        package var written: Int
        /// Why the write stopped short; `nil` when every byte was written.
        package var errno: Int32?

        package init(written: Int, errno: Int32?) {
            self.written = written
            self.errno = errno
        }

        /// Every byte was written.
        package var isComplete: Bool { errno == nil }
    }

    /// A pipe(2) that could not be made, with its `errno` (`EMFILE`, `ENFILE`: out of file descriptors).
    package struct PipeFailure: Error, Equatable {
        package let errno: Int32
    }

    /// Writes every byte to `descriptor`, retrying after `EINTR` and partial writes; stops at the first other error.
    package static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> WriteOutcome {
        let outcome = bytes.withContiguousStorageIfAvailable { buffer in
            writeAll(UnsafeRawBufferPointer(buffer), to: descriptor)
        }
        return outcome ?? Array(bytes).withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> WriteOutcome {
        // An empty buffer may have no base address; there is then nothing to write.
        guard let base = buffer.baseAddress else { return WriteOutcome(written: 0, errno: nil) }
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return WriteOutcome(written: offset, errno: errno)
            }
            offset += written
        }
        return WriteOutcome(written: offset, errno: nil)
    }

    /// A pipe whose two ends are non-blocking and closed on `exec`: one thread writes a byte to wake another that
    /// waits on the read end in `poll(2)`. The caller closes both ends.
    package static func makeWakePipe() throws(PipeFailure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw PipeFailure(errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// Writes one byte to a wake pipe. A full pipe already holds a wake-up, so an `EAGAIN` loses nothing.
    package static func wake(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }
}
