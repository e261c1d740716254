/// Store writes run one after another, in the order a machine asked for them, without the actor waiting for them.
struct WriteChain {
    /// The last write queued; it finishes after every earlier one.
    private(set) var last: Task<Void, Never>?

    /// Queues `operation` after every write queued before it.
    mutating func append(_ operation: @escaping @Sendable () async -> Void) {
        let previous = last
        last = Task {
            await previous?.value
            await operation()
        }
    }
}
