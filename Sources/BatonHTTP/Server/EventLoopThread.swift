import Foundation

/// Whether the calling thread is an event loop's: work that would otherwise hop to another thread and back (a short
/// SQLite write) may run right here instead, provided it never waits long.
public enum EventLoopThread {
    /// Set (to any non-null value) on each loop thread, for its lifetime.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    /// Whether the calling thread runs an ``EventLoop``.
    public static var isCurrent: Bool { pthread_getspecific(key) != nil }

    /// Marks the calling thread as a loop's; called once, first thing on the loop's thread.
    static func markCurrent() { _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }
}
