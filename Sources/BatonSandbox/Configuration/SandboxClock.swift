import Foundation
import Synchronization

/// Where the sandbox reads the current time: the system clock by default, a test's manual clock in tests
/// (`SandboxClock { clock.now }`).
///
/// Every expiry in the sandbox (handoff sessions, tickets, connect sessions, publications) and every timestamp it
/// writes comes from here, so tests move time forward instead of sleeping. A ``shiftable(_:offset:)`` clock can also
/// be moved while the sandbox runs — by `baton demo`, and by any local tool through `POST /_sandbox/clock`
/// (docs/CONTRACTS.md §4.4) — so a harness outside the process can expire a Privue ticket without waiting.
public struct SandboxClock: Sendable {
    private let read: @Sendable () -> Date
    private let offset: Offset?

    /// A clock that answers `read()`; it cannot be shifted.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
        self.offset = nil
    }

    private init(read: @escaping @Sendable () -> Date, offset: Offset) {
        self.read = read
        self.offset = offset
    }

    /// The system clock.
    public static let system = SandboxClock { Date() }

    /// `base` plus an offset, starting at `offset` seconds, that ``shift(by:)`` moves.
    public static func shiftable(_ base: SandboxClock = .system, offset: TimeInterval = 0) -> SandboxClock {
        SandboxClock(read: base.now, offset: Offset(offset))
    }

    /// The current time.
    public func now() -> Date {
        guard let offset else { return read() }
        return read().addingTimeInterval(offset.value.withLock { $0 })
    }

    /// The seconds this clock runs ahead of its base (negative: behind); `nil` for a clock that cannot be shifted.
    public var offsetSeconds: TimeInterval? { offset?.value.withLock { $0 } }

    /// Moves a shiftable clock by `seconds` (negative: back) and returns the new offset; `nil`, moving nothing, for a
    /// clock that cannot be shifted.
    @discardableResult
    public func shift(by seconds: TimeInterval) -> TimeInterval? {
        offset?.value.withLock { total in
            total += seconds
            return total
        }
    }

    /// The offset every copy of one shiftable clock shares.
    private final class Offset: Sendable {
        let value: Mutex<TimeInterval>
        init(_ seconds: TimeInterval) { value = Mutex(seconds) }
    }
}
