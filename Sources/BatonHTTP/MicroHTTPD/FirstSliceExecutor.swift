import Foundation

/// Runs the first slice of a request's task on the libmicrohttpd thread that read the request, and everything after
/// it on Swift's global concurrent executor.
///
/// A handler that answers without suspending (`/healthz`, a 404, a cached catalog) then finishes inside the access
/// handler: its response is queued at once, with no connection suspended and resumed, and no hop to another thread
/// and back. A handler that does suspend (a store write, a provider call) returns control to libmicrohttpd at its
/// first `await`; the connection is suspended as before, and the rest of the handler runs on the cooperative pool, so
/// no libmicrohttpd thread ever waits on Swift work.
///
/// Only one job is ever run inline per ``runInline(_:)``: the first job the runtime enqueues while the slot is armed,
/// which is the new task's first slice. Child tasks, continuations resumed from other threads and every later slice
/// go to the global executor.
final class FirstSliceExecutor: TaskExecutor {
    static let shared = FirstSliceExecutor()

    /// Per-thread flag: set while ``runInline(_:)`` creates a task on this thread, cleared by the job it runs.
    private let armed: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Calls `start` (which creates the task) with this thread's slot armed, so the task's first slice runs here,
    /// before `start` returns.
    func runInline<T>(_ start: () -> T) -> T {
        pthread_setspecific(armed, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(armed, nil) }
        return start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if pthread_getspecific(armed) != nil {
            pthread_setspecific(armed, nil)
            job.runSynchronously(on: asUnownedTaskExecutor())
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
