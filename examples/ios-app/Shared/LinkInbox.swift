import Foundation

/// Where every URL the OS delivers arrives first (`onOpenURL`, or the scene delegate), whether or not a user is
/// signed in yet: a link that cold-launched the app waits here until the session exists, then goes to the router.
@MainActor
final class LinkInbox {
    private var pending: [URL] = []
    private var deliver: (@MainActor (URL) -> Void)?

    /// A URL the OS delivered.
    func receive(_ url: URL) {
        if let deliver { deliver(url) } else { pending.append(url) }
    }

    /// From now on, hands each URL to `deliver`, starting with those that waited.
    func open(_ deliver: @escaping @MainActor (URL) -> Void) {
        self.deliver = deliver
        let waiting = pending
        pending = []
        waiting.forEach(deliver)
    }

    /// Keeps URLs again until the next `open` (at sign-out).
    func close() {
        deliver = nil
    }
}
