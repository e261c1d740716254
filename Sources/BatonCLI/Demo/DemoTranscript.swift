import Foundation
import Synchronization

/// The demo's readable transcript: one line per step, each with the time since its journey started. It never
/// receives a journey URL, a ticket or an idempotency key: callers pass redacted forms only.
final class DemoTranscript: Sendable {
    private let console: Console
    private let journeyStart = Mutex(ContinuousClock.now)

    init(console: Console) { self.console = console }

    /// Starts a journey: prints its title and resets the step clock.
    func journey(_ number: Int, of total: Int, _ title: String) {
        journeyStart.withLock { $0 = ContinuousClock.now }
        console.print("")
        console.print("[\(number)/\(total)] \(title)")
    }

    /// One step of the running journey, `kind` one of `tap`, `backend`, `browser`, `outcome`, …
    func step(_ kind: String, _ text: String) {
        let elapsed = ContinuousClock.now - journeyStart.withLock { $0 }
        let milliseconds = Int(
            elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        let time = String(repeating: " ", count: max(0, 6 - String(milliseconds).count)) + "\(milliseconds) ms"
        let label = kind.padding(toLength: 8, withPad: " ", startingAt: 0)
        console.print("  \(time)  \(label) \(text)")
    }

    /// A line outside any journey.
    func note(_ text: String) { console.print(text) }
}
