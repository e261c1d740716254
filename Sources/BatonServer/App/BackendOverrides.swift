import BatonCore
import BatonHTTP
import Foundation

/// What ``BatonBackend/build(configuration:evidence:overrides:)`` takes besides the configuration and the evidence:
/// the seams tests, the CLI and the benchmarks set. The defaults are what a deployment runs.
public struct BackendOverrides: Sendable {
    /// An already open store to run on (tests' temporary databases); `nil` opens the configuration's `database`.
    /// A store handed in here is the caller's to close.
    public var store: (any Store)?
    /// The wall clock every expiry, lease and webhook tolerance reads (inject one in tests).
    public var now: @Sendable () -> Date = { Date() }
    /// Where JSON log lines go.
    public var logger = Logger()
    /// The outbound transport for provider calls and the catalog fetch; a `CurlTransport` when `nil`.
    public var transport: (any HTTPTransport)?
    /// Provider call timeouts and retries; from the configuration's `providers.timeoutSeconds` when `nil`.
    public var providerPolicy: ProviderCallPolicy?
    /// Waits between provider retries (tests inject one that returns at once).
    public var providerRetrySleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// Idempotency waits for the share route (its retention is the configuration's `retention`, which replaces
    /// ``HandoffSessionOptions/retention`` here).
    public var handoff = HandoffSessionOptions()
    /// This instance's name in idempotency leases and webhook-event leases.
    public var instanceID = "baton-" + UUID().uuidString.prefix(8).lowercased()
    /// Replaces the Chia ``CatalogPipeline`` that is otherwise always built from the configuration and the evidence
    /// (tests that script the projection or the readiness); see ``CatalogComponent``.
    public var catalog: (any CatalogComponent)?
    /// Catalog sync progress (`baton serve` prints it).
    public var onCatalogEvent: @Sendable (CatalogSyncEvent) -> Void = { _ in }
    /// Whether `/web/` serves the web reference shell (``WebShell``) whatever the configuration says: `baton serve
    /// --sandbox` and `baton demo` set it. Off by default; a deployment turns the shell on for partners' QA with the
    /// configuration's `webShell.enabled` (``BackendConfiguration/servesWebShell``).
    public var servesWebShell = false
    /// The per-run secret of the web shell's sandbox sign-in, `POST /web/dev-token`, which is mounted only when it
    /// is set: only `baton serve --sandbox` and `baton demo` set it, and it takes effect only with
    /// `development.allowLoopbackHTTP` too. No configuration file can turn it on.
    public var devSignInSecret: Secret?

    /// The defaults.
    public init() {}
}
