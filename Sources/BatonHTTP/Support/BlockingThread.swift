import Foundation

/// Runs a blocking call on a fresh thread and awaits its result.
///
/// On Linux the dispatch global queues share threads with Swift's cooperative pool, so a blocking call parked there
/// (joining libmicrohttpd's workers, a slow socket) can stall every task. A dedicated thread cannot.
func runOnOwnThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        startNamedThread(name) { continuation.resume(returning: body()) }
    }
}
