import BatonHTTP
import Foundation

/// What ``BatonBackend`` takes besides its configuration and store: the seams tests and the CLI set.
public struct BackendOptions: Sendable {
    /// The wall clock every expiry, lease and webhook tolerance reads (inject one in tests).
    public var now: @Sendable () -> Date = { Date() }
    /// Where JSON log lines go.
    public var logger = Logger()
    /// The outbound transport for provider calls; a `CurlTransport` when `nil`.
    public var transport: (any HTTPTransport)?
    /// Provider call timeouts and retries; from the configuration's `providers.timeoutSeconds` when `nil`.
    public var providerPolicy: ProviderCallPolicy?
    /// Waits between provider retries (tests inject one that returns at once).
    public var providerRetrySleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// Idempotency waits and retention for the share route.
    public var handoff = HandoffSessionOptions()
    /// This instance's name in idempotency leases and webhook-event leases.
    public var instanceID = "baton-" + UUID().uuidString.prefix(8).lowercased()
    /// How long maintenance keeps connect sessions, processed webhook events and idle rate-limit buckets.
    public var retention = RecordRetention()
    /// How often the background maintenance (purge sealed responses, drain webhook events) runs.
    public var maintenanceInterval: Duration = .seconds(30)
    /// The catalog pipeline, when there is one; see ``CatalogComponent``.
    public var catalog: (any CatalogComponent)?
    /// Whether `/web/` serves the web reference shell (``WebShell``) whatever the configuration says: `baton serve
    /// --sandbox` and `baton demo` set it. Off by default; a deployment turns the shell on for partners' QA with the
    /// configuration's `webShell.enabled` (``BackendConfiguration/servesWebShell``).
    public var servesWebShell = false
    /// Whether the web shell's sandbox sign-in, `POST /web/dev-token`, is mounted: only `baton serve --sandbox` and
    /// `baton demo` set it, and it takes effect only with `development.allowLoopbackHTTP` too. No configuration
    /// file can turn it on.
    public var mountsDevSignIn = false

    /// The defaults.
    public init() {}
}
