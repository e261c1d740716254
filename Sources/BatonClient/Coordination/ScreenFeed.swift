/// What a coordinator shows: the screen it rendered last, and the stream of every screen it rendered, in order.
struct ScreenFeed<Screen: Sendable> {
    /// The screen rendered last (the machine's first screen before any render).
    private(set) var current: Screen
    /// Every screen rendered from now on, until ``finish()``.
    let stream: AsyncStream<Screen>
    private let continuation: AsyncStream<Screen>.Continuation

    /// A feed showing `initial`.
    init(showing initial: Screen) {
        current = initial
        (stream, continuation) = AsyncStream.makeStream()
    }

    /// Shows `screen`: it becomes ``current`` and goes to ``stream``.
    mutating func show(_ screen: Screen) {
        current = screen
        continuation.yield(screen)
    }

    /// Ends ``stream``.
    func finish() { continuation.finish() }
}
