import Foundation

/// Where the sandbox reads the current time: the system clock by default, a test's manual clock in tests
/// (`SandboxClock { clock.now }`).
///
/// Every expiry in the sandbox (handoff sessions, tickets, connect sessions, publications) and every timestamp it
/// writes comes from here, so tests move time forward instead of sleeping.
public struct SandboxClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that answers `read()`.
    public init(_ read: @escaping @Sendable () -> Date) { self.read = read }

    /// The system clock.
    public static let system = SandboxClock { Date() }

    /// The current time.
    public func now() -> Date { read() }
}
