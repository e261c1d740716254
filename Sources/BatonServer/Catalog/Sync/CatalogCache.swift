import Synchronization

/// The last good catalog this instance holds in memory, shared by ``CatalogSync`` (which replaces it) and
/// ``CatalogService`` (which reads it on every request, without an actor hop).
public final class CatalogCache: Sendable {
    private let current = Mutex<LoadedCatalog?>(nil)

    /// An empty cache: every item is hidden until a sync or a stored snapshot fills it.
    public init() {}

    /// The catalog, or `nil` before the first load.
    public var catalog: LoadedCatalog? { current.withLock { $0 } }

    func replace(with catalog: LoadedCatalog) { current.withLock { $0 = catalog } }
}
