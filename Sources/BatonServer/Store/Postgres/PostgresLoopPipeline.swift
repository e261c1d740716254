import BatonHTTP
private import CLibPQ
import Foundation
import Synchronization

/// An event loop's own pipelined PostgreSQL connections: the statements a handler makes on the loop go out on them,
/// and the loop itself reads the answers and resumes the handlers, on the thread they prefer.
///
/// Through the store's shared pipelines (``PostgresEventLoop``), an answer wakes the store's thread, which wakes the
/// handler's loop: two threads woken per statement. Here the loop waits on the sockets beside libmicrohttpd's and
/// libcurl's, so an answer wakes the loop alone, or none if it is busy.
///
/// There are up to ``connections`` per loop, the second opened only once the first has statements in flight (as the
/// shared ones): a commit that waits (for a synchronous standby, say) holds every statement queued behind it on its
/// connection, so one connection per loop would be the whole instance's concurrency.
///
/// The loop waits on one epoll set holding the sockets (``EventLoopAttachment/fileDescriptor`` never changes, so a
/// connection replaced or a full socket is taken into account at once, even while the loop sleeps). Every requirement
/// of ``EventLoopAttachment`` runs on the loop's thread; each pipeline's watcher is told of a change on whichever
/// thread made it (the loop's, or the thread that connected).
final class PostgresLoopPipeline: EventLoopAttachment {
    /// Connections per loop.
    static let connections = 2

    /// The loop's connections, the first preferred.
    let pipelines: [PostgresPipeline]
    private let sockets: PostgresSocketSet

    /// `makePipeline` makes the pipeline at an index, reporting its socket to the watcher it is given.
    init(makePipeline: (_ index: Int, _ watcher: any PostgresPipelineWatcher) -> PostgresPipeline) {
        let sockets = PostgresSocketSet()
        self.sockets = sockets
        pipelines = (0..<Self.connections).map { index in
            makePipeline(index, PostgresSocketSet.Member(set: sockets, index: UInt64(index)))
        }
    }

    /// `false` when no epoll set could be made (the process is out of file descriptors): the loop cannot wait on
    /// the connections, so statements go to the store's shared pipelines instead.
    var isUsable: Bool { sockets.descriptor >= 0 }

    /// The first connection, or the least busy once it has statements in flight.
    var pipeline: PostgresPipeline { leastBusy(pipelines) }

    var fileDescriptor: Int32 { sockets.descriptor }

    func timeout() -> Int32 { -1 }

    func run() {
        withUnsafeTemporaryAllocation(of: epoll_event.self, capacity: Self.connections) { events in
            guard let base = events.baseAddress else { return }
            let count = epoll_wait(sockets.descriptor, base, Int32(events.count), 0)
            for event in events.prefix(max(0, Int(count))) {
                let pipeline = pipelines[Int(event.data.u64)]
                if event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
                    pipeline.readable()
                }
                if event.events & EPOLLOUT.rawValue != 0 { pipeline.writable() }
            }
        }
    }

    func detached() {
        for pipeline in pipelines { pipeline.close() }
        sockets.close()
    }
}

/// The first of `pipelines`, or the one with the fewest statements in flight once the first has any.
func leastBusy(_ pipelines: [PostgresPipeline]) -> PostgresPipeline {
    var pipeline = pipelines[0]
    var busy = pipeline.inFlight.load(ordering: .relaxed)
    for candidate in pipelines.dropFirst() where busy > 0 {
        let load = candidate.inFlight.load(ordering: .relaxed)
        if load < busy { (pipeline, busy) = (candidate, load) }
    }
    return pipeline
}

/// One epoll set for the sockets of a loop's connections, each kept up to date by its pipeline (``Member``).
private final class PostgresSocketSet: Sendable {
    /// A pipeline's place in the set: its socket is registered with the pipeline's index as the event's data.
    struct Member: PostgresPipelineWatcher {
        let set: PostgresSocketSet
        let index: UInt64

        func changed(socket: Int32, write: Bool) { set.changed(index, socket: socket, write: write) }
    }

    private struct State {
        /// `false` once closed.
        var open = true
        /// Each member's socket in the set, or `-1`.
        var sockets: [UInt64: Int32] = [:]
    }

    /// The set's descriptor, for the loop's `poll` (valid until ``close()``); `-1` if none could be made (`poll`
    /// skips a negative descriptor).
    let descriptor: Int32
    private let state = Mutex(State())

    init() { descriptor = epoll_create1(Int32(EPOLL_CLOEXEC)) }

    fileprivate func changed(_ index: UInt64, socket: Int32, write: Bool) {
        state.withLock { state in
            guard state.open, descriptor >= 0 else { return }
            // A closed socket left the set by itself; its number may already be the new connection's.
            let old = state.sockets[index] ?? -1
            if old >= 0, old != socket { _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, old, nil) }
            state.sockets[index] = socket
            guard socket >= 0 else { return }
            var event = epoll_event()
            event.events = EPOLLIN.rawValue | (write ? EPOLLOUT.rawValue : 0)
            event.data.u64 = index
            if epoll_ctl(descriptor, EPOLL_CTL_MOD, socket, &event) != 0 {
                _ = epoll_ctl(descriptor, EPOLL_CTL_ADD, socket, &event)
            }
        }
    }

    /// Closes the set; later changes are ignored (its number may belong to another file by then).
    func close() {
        state.withLock { state in
            guard state.open else { return }
            state.open = false
            if descriptor >= 0 { Glibc.close(descriptor) }
        }
    }
}
