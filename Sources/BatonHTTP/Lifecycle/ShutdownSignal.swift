import Dispatch
import Foundation
import Synchronization

/// Turns SIGTERM and SIGINT into an `await`able event, for a command line server's graceful stop.
///
/// ```swift
/// let signals = ShutdownSignal()          // install before starting the server
/// let server = try HTTPServer.start(router: router)
/// let signal = await signals.wait()       // SIGTERM or SIGINT
/// await server.shutdown(grace: .seconds(10))
/// ```
/// The signals' default action (terminate) is replaced while the value lives; dispatch sources deliver them on a
/// queue, never in an async-signal context.
public final class ShutdownSignal: Sendable {
    private struct State {
        var received: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
        var sources: [(source: any DispatchSourceSignal, number: Int32)] = []
    }

    private let state = Mutex(State())

    /// Starts listening for `signals` (SIGTERM and SIGINT by default).
    public init(signals: [Int32] = [SIGTERM, SIGINT]) {
        let queue = DispatchQueue(label: "baton.signals")
        state.withLock { state in
            for number in signals {
                signal(number, SIG_IGN)
                state.sources.append((DispatchSource.makeSignalSource(signal: number, queue: queue), number))
            }
            for (source, number) in state.sources {
                source.setEventHandler { [weak self] in self?.deliver(number) }
                source.resume()
            }
        }
    }

    deinit {
        state.withLock { state in
            for (source, _) in state.sources { source.cancel() }
        }
    }

    /// Suspends until the first of the signals arrives (at once if one already has) and returns its number.
    public func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let received = state.withLock { state -> Int32? in
                if let received = state.received { return received }
                state.waiters.append(continuation)
                return nil
            }
            if let received { continuation.resume(returning: received) }
        }
    }

    private func deliver(_ number: Int32) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int32, Never>] in
            if state.received == nil { state.received = number }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: number) }
    }
}
