import Foundation

/// Runs blocking work (waiting for a child process, reading its pipes) on a thread of its own.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core (two here). A test that
/// blocked a pool thread for the life of a child process would starve every other running test — and deadlock the
/// run when two such tests wait on work that needs the pool.
func offCooperativePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
