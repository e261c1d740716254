import Foundation
import Synchronization

/// Where the sandbox reads the current time: the system clock by default, a ``ManualClock`` in tests.
///
/// Every expiry in the sandbox (handoff sessions, tickets, connect sessions, publications) and every timestamp it
/// writes comes from here, so tests move time forward instead of sleeping.
public struct SandboxClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that answers `read()`.
    public init(_ read: @escaping @Sendable () -> Date) { self.read = read }

    /// The system clock.
    public static let system = SandboxClock { Date() }

    /// A clock driven by `manual`.
    public static func manual(_ manual: ManualClock) -> SandboxClock { SandboxClock { manual.now } }

    /// The current time.
    public func now() -> Date { read() }
}

/// A clock that only moves when told to, for tests of expiry.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// A clock stopped at `start` (a fixed, whole-second instant by default).
    public init(start: Date = Date(timeIntervalSince1970: 1_750_000_000)) { self.current = Mutex(start) }

    /// The current time.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }

    /// Sets the clock to `date`.
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
