import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `baton` child process started with `posix_spawn`, its output read by threads of its own and reaped with
/// `waitpid`.
///
/// Not Foundation's `Process`: in swift-corelibs-foundation, launching and waiting on many children at once from
/// several threads crashed the test process (SIGSEGV), and its `readDataToEndOfFile()` traps when a read is
/// interrupted by a signal. Here every read and wait retries on EINTR, the pipes are close-on-exec so one child never
/// holds another's pipe open, and the child starts with an empty signal mask whatever thread spawned it.
final class ChildProcess: Sendable {
    /// The child's process id.
    let pid: pid_t
    private let output: Captured
    private let errors: Captured

    /// Held from creating a child's pipes to closing the parent's write ends, so no other child spawned meanwhile
    /// inherits them before they are close-on-exec (`pipe2` is not available to Swift here).
    private static let spawning = NSLock()

    /// Starts `executable` with `arguments` in `directory`; `environment` replaces the inherited one when given.
    init(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String]? = nil) throws {
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard pipe(&errPipe) == 0 else {
            outPipe.forEach { close($0) }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // `cd` through the shell: posix_spawn has no portable working-directory action.
        let argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path, executable.path] + arguments
        let environ = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environ.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArguments, &cEnvironment)
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        self.pid = pid
        output = Captured(reading: outPipe[0])
        errors = Captured(reading: errPipe[0])
    }

    /// What the child wrote to standard output so far.
    var standardOutput: String { output.text }

    /// What the child wrote to standard error so far.
    var standardError: String { errors.text }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Whether the child has not exited yet (without reaping it).
    var isRunning: Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == 0
    }

    /// Blocks until the child exits and both pipes are drained; its exit status (128 + signal when killed).
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        output.waitForEnd()
        errors.waitForEnd()
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Blocks until standard output satisfies `predicate`, the output ends, or `timeout` passes; whether it did.
    func waitForOutput(timeout: TimeInterval, until predicate: (String) -> Bool) -> Bool {
        output.wait(until: Date().addingTimeInterval(timeout), for: predicate)
    }

    /// A pipe read to its end on a thread of its own; waiters are woken on every chunk and at the end.
    private final class Captured: Sendable {
        private struct State {
            var bytes: [UInt8] = []
            var ended = false
        }

        private let state = Mutex(State())
        /// Wakes waiters; a chunk is recorded before the condition is taken, so no wake-up is lost.
        private let changed = NSCondition()

        init(reading fd: Int32) {
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 16_384)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    state.withLock {
                        if count > 0 { $0.bytes.append(contentsOf: buffer[..<count]) } else { $0.ended = true }
                    }
                    changed.lock()
                    changed.broadcast()
                    changed.unlock()
                    if count <= 0 { break }
                }
                close(fd)
            }.start()
        }

        var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

        private var ended: Bool { state.withLock { $0.ended } }

        func wait(until deadline: Date, for predicate: (String) -> Bool) -> Bool {
            changed.lock()
            defer { changed.unlock() }
            while !predicate(text) {
                if ended || !changed.wait(until: deadline) { return predicate(text) }
            }
            return true
        }

        func waitForEnd() {
            changed.lock()
            defer { changed.unlock() }
            while !ended { changed.wait() }
        }
    }
}
