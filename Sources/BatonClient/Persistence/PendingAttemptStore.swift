/// Durable storage for Chia ``PendingAttempt``s (body and key only, never a URL), one per catalog item.
public protocol PendingAttemptStore: Sendable {
    /// The attempt saved for `catalogItemID`, if any.
    func load(catalogItemID: String) async throws -> PendingAttempt?
    /// Saves `attempt` under its body's `catalogItemId`, replacing any other.
    func save(_ attempt: PendingAttempt) async throws
    /// Deletes the attempt for `catalogItemID`, if any.
    func remove(catalogItemID: String) async throws
}

/// A ``PendingAttemptStore`` in memory (tests, previews): it survives a coordinator, not the process.
public actor InMemoryPendingAttemptStore: PendingAttemptStore {
    private var attempts: [String: PendingAttempt]

    /// Creates a store holding `attempts`.
    public init(_ attempts: [PendingAttempt] = []) {
        self.attempts = Dictionary(attempts.map { ($0.body.catalogItemId, $0) }, uniquingKeysWith: { $1 })
    }

    /// Every attempt held, for inspection.
    public var all: [PendingAttempt] { attempts.values.sorted { $0.body.catalogItemId < $1.body.catalogItemId } }

    public func load(catalogItemID: String) -> PendingAttempt? { attempts[catalogItemID] }

    public func save(_ attempt: PendingAttempt) { attempts[attempt.body.catalogItemId] = attempt }

    public func remove(catalogItemID: String) { attempts[catalogItemID] = nil }
}
