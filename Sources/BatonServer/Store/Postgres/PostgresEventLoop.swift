import BatonHTTP
import Foundation
import Synchronization

/// What waits on a pipelined connection's socket for its ``PostgresPipeline``: the store's own thread
/// (``PostgresEventLoop``) for statements made off an event loop, or the event loop that made them
/// (``PostgresLoopPipeline``).
protocol PostgresPipelineWatcher: Sendable {
    /// The pipeline's socket (`-1`: none) or its interest in writing changed. Called under the pipeline's lock: never
    /// call back into it.
    func changed(socket: Int32, write: Bool)
}

/// The one thread of a PostgreSQL store that waits on its pipelines' sockets (`poll(2)`: a handful of sockets) and
/// tells each ``PostgresPipeline`` when its answers can be read or its queued bytes written.
///
/// Nothing else runs on it: it never blocks but in `poll`. A pipeline whose socket or write interest changed calls
/// ``changed(socket:write:)``, which wakes the thread through a pipe so that it waits on the new set.
final class PostgresEventLoop: PostgresPipelineWatcher {
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let generation = Atomic(0)
    private let stopping = Atomic(false)

    /// Fails when no pipe can be made (the process is out of file descriptors).
    init() throws(StoreError) {
        do {
            (wakeRead, wakeWrite) = try FileDescriptorIO.makeWakePipe()
        } catch {
            throw StoreError(.unavailable, engine: .postgres, operation: "open")
        }
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts the thread, which serves `pipelines` until ``stop()``.
    func start(_ pipelines: [PostgresPipeline], name: String) {
        startNamedThread(name) { [self] in self.run(pipelines) }
    }

    /// A pipeline's socket or write interest changed: wait on the new set (read from the pipelines once awake).
    func changed(socket: Int32, write: Bool) {
        generation.add(1, ordering: .releasing)
        wake()
    }

    /// Ends the thread (the pipelines are closed by their owner).
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake()
    }

    private func wake() { FileDescriptorIO.wake(wakeWrite) }

    private func run(_ pipelines: [PostgresPipeline]) {
        var seen = -1
        var fds: [pollfd] = []
        let readable = Int16(POLLIN | POLLHUP | POLLERR)
        while !stopping.load(ordering: .acquiring) {
            let current = generation.load(ordering: .acquiring)
            if current != seen {
                seen = current
                fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                for pipeline in pipelines {
                    let interest = pipeline.interest
                    let events = Int16(POLLIN) | (interest.write ? Int16(POLLOUT) : 0)
                    fds.append(pollfd(fd: interest.socket, events: events, revents: 0))
                }
            }
            guard poll(&fds, nfds_t(fds.count), -1) > 0 else { continue }
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drain, drain.count) > 0 {}
            }
            for (index, pipeline) in pipelines.enumerated() {
                let revents = fds[index + 1].revents
                if revents & readable != 0 { pipeline.readable() }
                if revents & Int16(POLLOUT) != 0 { pipeline.writable() }
                // A socket closed under us (a replaced connection): look again at what to wait on.
                if revents & Int16(POLLNVAL) != 0 { seen = -1 }
            }
        }
    }
}
