import BatonCore
import BatonHTTP
import Foundation

extension BatonBackend {
    /// Assembles the backend the one way the CLI, the end-to-end tests, the fixtures and the benchmarks do: opens the
    /// configuration's store (unless ``BackendOverrides/store`` hands one in), builds the Chia ``CatalogPipeline``
    /// over it with `evidence`, and wires every route. Nothing runs until ``start(host:port:)``.
    ///
    /// ```swift
    /// let backend = try await BatonBackend.build(configuration: configuration, evidence: myAccountSystem)
    /// let running = try backend.start()
    /// await running.shutdown(grace: .seconds(10))
    /// await backend.store.close()
    /// ```
    ///
    /// - Parameters:
    ///   - evidence: the partner's account system, which the catalog decision reads at request time.
    ///   - overrides: the seams tests and the CLI set (clock, transport, logger, an open store…); the defaults are
    ///     what a deployment runs.
    /// - Throws: `StoreError` when the store cannot be opened; ``ConfigurationError`` when `chia.assetOrigin` is not
    ///   an origin the backend may download from. A store opened here is closed again before throwing.
    public static func build(
        configuration: BackendConfiguration, evidence: any ServiceStateProvider,
        overrides: BackendOverrides = BackendOverrides()
    ) async throws -> BatonBackend {
        let opened = overrides.store == nil
        let store: any Store
        if let given = overrides.store {
            store = given
        } else {
            let logger = overrides.logger
            store = try await StoreURL(configuration.database).open(
                password: configuration.databasePassword,
                slowWrites: { logger.log(.warning, "sqlite_slow_write", $0.logFields) })
        }
        do {
            var pipeline: CatalogPipeline?
            let catalog: any CatalogComponent
            if let replacement = overrides.catalog {
                catalog = replacement
            } else {
                let built = try CatalogPipeline(
                    configuration: configuration, store: store, transport: overrides.transport ?? CurlTransport(),
                    evidence: evidence, onEvent: overrides.onCatalogEvent)
                pipeline = built
                catalog = built
            }
            return BatonBackend(
                configuration: configuration, store: store, catalog: catalog, pipeline: pipeline, options: overrides)
        } catch {
            if opened { await store.close() }
            throw error
        }
    }
}
