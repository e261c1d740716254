import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `/bin/sh -c command` with `posix_spawn`: standard input from `/dev/null`, standard output captured, standard
/// error the kit's own, every other descriptor closed in the child.
///
/// Not Foundation's `Process`: on Linux its `run()` copies each `/proc/self/fd` entry's whole 256-byte name and
/// crashes when that entry ends a page (swift-corelibs-foundation #5472; seen here as a SIGSEGV in `make test`, with
/// ~1,350 descriptors open in the test process).
enum ShellCommand {
    /// The exit status (128 + the signal for a child ended by one, 127 when it could not be started) and standard
    /// output. Blocks until the child exits: call it off the cooperative pool.
    static func run(_ command: String) -> (status: Int32, output: [UInt8]) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (127, []) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // The write end becomes standard output; both pipe ends are close-on-exec, so neither stays open in the child.
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        // Whatever else is open without close-on-exec (a test runner's pipes, say) is closed in the child. glibc
        // ignores a close action whose descriptor has been closed since the listing.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, arguments + [nil], environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else { return (127, []) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count > 0 {
                output += buffer[0..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros, which Swift does not import.
        let signal = status & 0x7f
        return (signal == 0 ? (status >> 8) & 0xff : 128 + signal, output)
    }
}
