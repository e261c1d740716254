import Foundation
import Synchronization

/// What a loop drives beside its source, on its thread: a descriptor to wait on and a deadline — libcurl's multi
/// handle for the transfers its handlers start (``CurlTransport``). Every requirement is called on the loop's thread
/// only, so an attachment needs no lock of its own; it is `Sendable` because others hold it to hand it work through
/// ``EventLoop/execute(_:)``.
package protocol EventLoopAttachment: AnyObject, Sendable {
    /// The descriptor whose readability means work (an epoll set of the attachment's own sockets).
    var fileDescriptor: Int32 { get }
    /// Milliseconds until ``run()`` is due even without I/O (-1: never).
    func timeout() -> Int32
    /// Does what is ready or due.
    func run()
    /// The loop is exiting (or dropped the attachment): fail what is pending and free everything.
    func detached()
}

/// A key no other attachment owner has, for ``EventLoop/attachment(for:orMake:)`` (never reused in the process, unlike
/// an object's address): each owner of attachments (a ``CurlTransport``, a PostgreSQL store) takes one.
package func newEventLoopAttachmentOwner() -> UInt64 { lastAttachmentOwner.add(1, ordering: .relaxed).newValue }

private let lastAttachmentOwner = Atomic<UInt64>(0)

/// The loop whose thread this is, for ``EventLoop/current``.
private let currentLoopKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
    return key
}()

/// Whether the calling thread runs an event loop that has nothing else queued right now (no job, no connection to
/// resume, no closure): work that would hop to another thread and back (a short SQLite write) may run here instead,
/// provided it never waits long, without holding up another request.
package var eventLoopHasNothingQueued: Bool { EventLoop.current?.hasNothingQueued ?? false }

/// One thread that waits in `poll(2)` for its I/O source and for jobs, and runs both: the task executor a request's
/// handler prefers, so that the request runs on the thread that read its bytes and wakes there again.
///
/// A handler started with `Task.immediate(executorPreference: loop)` inside the source's callback runs on this
/// thread up to its first suspension; when the store's thread resumes it, the continuation is queued here (one byte
/// down a pipe, only if the loop sleeps) instead of on Swift's global pool, and the handler's end resumes the
/// connection on the same thread. Its provider calls never leave the loop: ``CurlTransport`` drives them on the
/// loop's own libcurl handle, an ``EventLoopAttachment`` whose descriptor the loop polls beside its source. A request
/// then costs the wake-ups of the threads it waits on and of this one, not a hop through the pool and back at each
/// `await`.
///
/// The source (a libmicrohttpd daemon in external-poll mode) is only ever run on this thread. After ``stop()`` the
/// loop finishes the jobs already queued and exits; a job queued later runs on a fresh thread of its own, so a
/// straggler can never hang.
package final class EventLoop: TaskExecutor, Sendable {
    /// What the loop drives besides jobs: a descriptor to wait on, and the work to do when it is readable or due.
    package struct Source: Sendable {
        let fileDescriptor: Int32
        /// Milliseconds until `run` is due even without I/O (-1: never); asked on the loop thread before each wait.
        let timeout: @Sendable () -> Int32
        /// Called on the loop thread when the descriptor is readable, the timeout has passed, or tokens were handed
        /// to ``resumeSoon(_:)`` (passed here, in order).
        let run: @Sendable (_ resumed: [UInt]) -> Void

        package init(
            fileDescriptor: Int32, timeout: @escaping @Sendable () -> Int32,
            run: @escaping @Sendable (_ resumed: [UInt]) -> Void
        ) {
            self.fileDescriptor = fileDescriptor
            self.timeout = timeout
            self.run = run
        }
    }

    private struct State {
        var jobs: [UnownedJob] = []
        /// Tokens for the source's next run (suspended connections to resume).
        var resumed: [UInt] = []
        /// Work handed to the loop's thread by ``execute(_:)``.
        var closures: [@Sendable () -> Void] = []
        /// The loop is in (or about to enter) `poll` with nothing queued: a new job must wake it.
        var sleeping = false
        /// A wake-up is already on its way since the loop went to sleep.
        var woken = false
        var stopping = false
        var exited = false
    }

    private enum Admission {
        case queued
        case queuedWake
        case runElsewhere
    }

    /// The attachments the loop drives, by their owner, and in the order their descriptors follow the wake-up pipe's
    /// and the source's in `poll`. Only the loop's thread reads or changes them; the lock makes that checkable.
    private struct Attachments {
        var byOwner: [UInt64: any EventLoopAttachment] = [:]
        var order: [any EventLoopAttachment] = []
    }

    package let name: String
    private let attachments = Mutex(Attachments())
    /// The pipe a job queued while the loop sleeps writes a byte down: read end, write end.
    private let wakeUp: (read: Int32, write: Int32)
    private let state = Mutex(State())
    /// Jobs of the round's batch not yet run (read by ``hasNothingQueued`` on the loop's own thread).
    private let batchLeft = Atomic(0)
    private let finished = DispatchSemaphore(value: 0)

    /// Creates the loop's wake-up pipe; the thread starts with ``start(_:)``.
    package init(name: String) {
        self.name = name
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe failed: out of descriptors")
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.wakeUp = (ends[0], ends[1])
    }

    deinit {
        close(wakeUp.read)
        close(wakeUp.write)
    }

    /// Starts the loop's thread, driving `source`.
    package func start(_ source: Source) {
        startNamedThread(name) { [self] in
            self.run(source)
            self.finished.signal()
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let admission = state.withLock { state -> Admission in
            guard !state.exited else { return .runElsewhere }
            state.jobs.append(job)
            guard state.sleeping, !state.woken else { return .queued }
            state.woken = true
            return .queuedWake
        }
        switch admission {
        case .queued: break
        case .queuedWake: wake()
        case .runElsewhere:
            startNamedThread(name) { [self] in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// Hands `token` to the source's next run on the loop thread, waking the loop if it sleeps. libmicrohttpd in
    /// external-poll mode has no wake-up of its own for a resumed connection: the loop resumes it and runs the daemon.
    /// Dropped once the loop has exited (the daemon is being stopped and closes every connection).
    func resumeSoon(_ token: UInt) {
        let wake = state.withLock { state in
            guard !state.exited else { return false }
            state.resumed.append(token)
            guard state.sleeping, !state.woken else { return false }
            state.woken = true
            return true
        }
        if wake { self.wake() }
    }

    /// The loop whose thread is running this code, if any.
    package static var current: EventLoop? {
        guard let pointer = pthread_getspecific(currentLoopKey) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The attachment `owner` (an id never reused in the process) keeps on this loop, made (and driven from now on) if it has none. Only on the loop's
    /// thread (``current``).
    package func attachment<Attachment: EventLoopAttachment>(
        for owner: UInt64, orMake make: () -> Attachment
    ) -> Attachment {
        if let existing = attachments.withLock({ $0.byOwner[owner] }) as? Attachment { return existing }
        let made = make()
        attachments.withLock { attachments in
            attachments.byOwner[owner] = made
            attachments.order.append(made)
        }
        return made
    }

    /// Whether no job, connection to resume or closure waits for this loop's thread besides the one running.
    fileprivate var hasNothingQueued: Bool {
        batchLeft.load(ordering: .relaxed) == 0
            && state.withLock { $0.jobs.isEmpty && $0.resumed.isEmpty && $0.closures.isEmpty }
    }

    /// Stops driving `owner`'s attachment and tells it (``EventLoopAttachment/detached()``). Only on the loop's thread.
    package func detach(_ owner: UInt64) {
        let removed = attachments.withLock { attachments -> (any EventLoopAttachment)? in
            guard let attachment = attachments.byOwner.removeValue(forKey: owner) else { return nil }
            attachments.order.removeAll { $0 === attachment }
            return attachment
        }
        removed?.detached()
    }

    /// How many attachments the loop drives; only on the loop's thread (tests read it through ``execute(_:)``).
    var attachmentCount: Int { attachments.withLock { $0.order.count } }

    /// Runs `body` on the loop's thread soon, waking it if it sleeps; `false` (and `body` dropped) once the loop has
    /// exited, when every attachment was already told.
    @discardableResult
    package func execute(_ body: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            guard !state.exited else { return (false, false) }
            state.closures.append(body)
            guard state.sleeping, !state.woken else { return (true, false) }
            state.woken = true
            return (true, true)
        }
        if wake { self.wake() }
        return accepted
    }

    /// Asks the loop to finish the jobs queued and exit, and waits until it has. Blocks: never call it on the loop's
    /// own thread or on the cooperative pool.
    package func stopAndWait() {
        let wake = state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard wake else { return }
        self.wake()
        finished.wait()
    }

    // MARK: - The loop thread

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeUp.write, &byte, 1)
    }

    private enum Next {
        /// Jobs or connections to resume are waiting: no sleep.
        case work
        case sleep(milliseconds: Int32)
        case exit
    }

    private func run(_ source: Source) {
        pthread_setspecific(currentLoopKey, Unmanaged.passUnretained(self).toOpaque())
        defer {
            let left = attachments.withLock { attachments in
                defer { attachments = Attachments() }
                return attachments.order
            }
            for attachment in left { attachment.detached() }
            pthread_setspecific(currentLoopKey, nil)
        }
        var batch: [UnownedJob] = []
        batch.reserveCapacity(64)
        var closures: [@Sendable () -> Void] = []
        var resumed: [UInt] = []
        resumed.reserveCapacity(64)
        var drained = [UInt8](repeating: 0, count: 64)
        var descriptors = [
            pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0),
            pollfd(fd: source.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var roundsWithoutSource = 0
        while true {
            state.withLock { state in
                swap(&state.jobs, &batch)
                swap(&state.closures, &closures)
            }
            batchLeft.store(batch.count, ordering: .relaxed)
            for job in batch {
                batchLeft.subtract(1, ordering: .relaxed)
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
            batch.removeAll(keepingCapacity: true)
            for closure in closures { closure() }
            closures.removeAll(keepingCapacity: true)
            let attached = attachments.withLock { $0.order }
            var due = source.timeout()
            for attachment in attached { due = Self.earlier(due, attachment.timeout()) }
            let next = state.withLock { state -> Next in
                swap(&state.resumed, &resumed)
                if !state.jobs.isEmpty || !state.closures.isEmpty || !resumed.isEmpty || due == 0 { return .work }
                if state.stopping {
                    state.exited = true
                    return .exit
                }
                state.sleeping = true
                return .sleep(milliseconds: due)
            }
            var runSource: Bool
            var runAttachments: Bool
            switch next {
            case .exit:
                return
            case .work:
                // The source polls its own descriptors without blocking when run, so there is no `poll` here: it
                // runs when it has connections to resume or is due, and at least every few rounds while jobs keep
                // coming; so do the attachments.
                runSource = !resumed.isEmpty || due == 0 || roundsWithoutSource >= 8
                runAttachments = runSource
            case .sleep(let wait):
                descriptors.removeSubrange(2...)
                for attachment in attached {
                    descriptors.append(pollfd(fd: attachment.fileDescriptor, events: Int16(POLLIN), revents: 0))
                }
                let count = poll(&descriptors, nfds_t(descriptors.count), wait)
                state.withLock { state in
                    state.sleeping = false
                    state.woken = false
                    swap(&state.resumed, &resumed)
                }
                if count > 0, descriptors[0].revents != 0 { _ = read(wakeUp.read, &drained, drained.count) }
                // Connections to resume, the source is readable, or the wait ended on a deadline (the source's or
                // an attachment's: both run, and each does only what is ready or due).
                runSource = !resumed.isEmpty || (count > 0 && descriptors[1].revents != 0) || count == 0
                runAttachments = count == 0 || descriptors[2...].contains { $0.revents != 0 }
            }
            if runSource {
                source.run(resumed)
                resumed.removeAll(keepingCapacity: true)
                roundsWithoutSource = 0
            } else {
                roundsWithoutSource += 1
            }
            if runAttachments {
                for attachment in attached { attachment.run() }
            }
        }
    }

    /// The sooner of two `poll` timeouts (-1: none).
    private static func earlier(_ first: Int32, _ second: Int32) -> Int32 {
        if first < 0 { return second }
        if second < 0 { return first }
        return min(first, second)
    }
}
