import Foundation

/// What the app, the OS and the clock tell a journey flow — a hosted journey opened in a browser and confirmed with
/// the backend (``VerificationMachine``, ``ConnectMachine``). Both take these the same way; only what each does with
/// them is its own.
public enum JourneyEvent: Sendable, Hashable {
    /// The OS delivered a link to the app (universal link or custom scheme), raw.
    case returnLink(String, at: Date)
    /// The browser was closed (or failed) without a return.
    case browserClosed(at: Date)
    /// The app went to the background.
    case backgrounded
    /// The app came back to the foreground.
    case foregrounded(at: Date)
    /// The clock ticked.
    case tick(Date)
}

/// A journey flow's event type: its own events, and a ``JourneyEvent`` carried as `journey(_:)` (an enum case
/// satisfies the requirement). The extension names each journey event on the flow's type, so a transcript reads
/// `.returnLink(link, at: now)` whichever flow it drives.
public protocol JourneyFlowEvent: Sendable, Hashable {
    /// The flow event carrying `event`.
    static func journey(_ event: JourneyEvent) -> Self
}

extension JourneyFlowEvent {
    /// The OS delivered `link` to the app, raw.
    public static func returnLink(_ link: String, at date: Date) -> Self { .journey(.returnLink(link, at: date)) }

    /// The browser was closed (or failed) without a return.
    public static func browserClosed(at date: Date) -> Self { .journey(.browserClosed(at: date)) }

    /// The app went to the background.
    public static var backgrounded: Self { .journey(.backgrounded) }

    /// The app came back to the foreground.
    public static func foregrounded(at date: Date) -> Self { .journey(.foregrounded(at: date)) }

    /// The clock ticked.
    public static func tick(_ date: Date) -> Self { .journey(.tick(date)) }
}
