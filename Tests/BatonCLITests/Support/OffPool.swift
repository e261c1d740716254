import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs blocking work (waiting for a child process, reading its pipes) on a thread of its own.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core (two here). A test that
/// blocked a pool thread for the life of a child process would starve every other running test — and deadlock the
/// run when two such tests wait on work that needs the pool.
func offCooperativePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            blockSignalsOnThisThread()
            continuation.resume(with: Result { try body() })
        }.start()
    }
}

/// Keeps signals (SIGCHLD from every child a test starts, above all) away from this thread, so a blocking read or
/// wait here is never cut short with EINTR — which Foundation's `readDataToEndOfFile()` turns into a crash.
func blockSignalsOnThisThread() {
    var all = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_BLOCK, &all, nil)
}

/// Serialises starting and reaping child processes: swift-corelibs-foundation's `Process` has crashed here (SIGSEGV)
/// when many tests launched and waited on children at once from threads of their own.
let childProcessLock = NSLock()
