import BatonCore
import BatonHTTP
import Foundation

/// Everything `baton serve` needs, read from a JSON file plus environment variables for every secret.
///
/// Loading checks every field and reports every problem at once with its exact path (see ``ConfigurationErrors``);
/// a configuration that loads is complete, so the server never half-starts. Secrets are never read from the file:
/// only from the environment variables named in ``SecretVariable``. The file format is documented in
/// `docs/configuration.md`.
public struct BackendConfiguration: Sendable {
    /// Where the backend listens and how it names itself.
    public struct Server: Sendable, Hashable {
        /// The address to bind; `127.0.0.1` unless a load balancer fronts the backend.
        public var host: String
        /// The TCP port.
        public var port: Int
        /// MHD worker threads; defaults to the number of cores.
        public var threads: Int
        /// The backend's public origin, used to build the neutral `/assets/…` image URLs the app receives.
        public var publicOrigin: String
        /// Most connections open at once from one client address (0: no limit); loopback peers (a proxy on this
        /// host) are exempt. Behind a proxy on another host, raise it above the proxy's pool or set 0.
        public var maxConnectionsPerAddress: Int = HTTPServerLimits().maxConnectionsPerAddress
        /// Most connections open at once in this instance (all worker threads together); one more waits in the listen
        /// backlog, unanswered, until a connection closes. Each open connection holds about 17 KiB.
        public var maxConnections: Int = HTTPServerLimits().maxConnections
        /// The address the admin listener binds (`/metrics`, the detailed `/readyz`): loopback unless a scraper on
        /// another host must reach it.
        public var adminHost: String = "127.0.0.1"
        /// The admin listener's port (`0`: any free port, printed at start).
        public var adminPort: Int = 9464
    }

    /// Chia catalog handoff (seed 000).
    public struct Chia: Sendable {
        /// Chia's API origin (catalog, handoff sessions).
        public var apiOrigin: String
        /// The only origin catalog images are downloaded from.
        public var assetOrigin: String
        /// Chia API key.
        public var apiKey: Secret
        /// The registered generic-return host (marketplace home), if a generic return was approved.
        public var genericReturnHost: String?
        /// The path of the approved generic return URL on ``genericReturnHost``, if its landing page and association
        /// component should be served.
        public var genericReturnPath: String?
        /// How often the catalog is fetched.
        public var syncInterval: TimeInterval
        /// The catalog decision's evidence TTL and clock skew.
        public var decisionPolicy: CatalogDecisionPolicy
        /// The largest image that is mirrored.
        public var maxImageBytes: Int
        /// The hosts a handoff session's URL may have (`chia.journeyHosts`; default: the host of ``apiOrigin``, as
        /// seed 000 names no other).
        public var journeyHosts: JourneyHostPins = Self.placeholderJourneyHosts
        /// Stands in until the loader sets ``journeyHosts`` (pins nothing a provider would answer with).
        static let placeholderJourneyHosts = JourneyHostPins(knownHost: "chia.invalid")
        /// Whether `chia.journeyHosts` was set (otherwise the API origin's host stands in).
        public var journeyHostsConfigured = false
    }

    /// Privue verification handoff (seed 001).
    public struct Privue: Sendable {
        /// Privue's API origin.
        public var apiOrigin: String
        /// Privue API key.
        public var apiKey: Secret
        /// The Standard Webhooks key bytes for `POST /webhooks/privue`.
        public var webhookSecret: Secret
        /// The secret before the last rotation (`BATON_PRIVUE_WEBHOOK_SECRET_PREVIOUS`), accepted until
        /// ``previousWebhookSecretUntil``.
        public var previousWebhookSecret: Secret? = nil
        /// When the previous secret stops being accepted (`privue.previousWebhookSecretUntil`).
        public var previousWebhookSecretUntil: Date? = nil
        /// The registered https `return_url` the journey redirects to on submit.
        public var returnURL: RegisteredReturnURL
        /// The workflows an app may start.
        public var workflows: [String]
        /// The hosts a handoff URL may have (`privue.journeyHosts`; default `verify.privue.ai`, seed 001): its
        /// origin gets the camera in the app.
        public var journeyHosts: JourneyHostPins = Self.documentedJourneyHosts
        /// The journey host seed 001 documents.
        public static let documentedJourneyHosts = JourneyHostPins(knownHost: "verify.privue.ai")
    }

    /// BB bank connect (seed 002).
    public struct BB: Sendable {
        /// BB's API origin.
        public var apiOrigin: String
        /// BB API key (`X-Api-Key`).
        public var apiKey: Secret
        /// BB client id (`X-Client-Id`); not secret, but kept with the key.
        public var clientID: String
        /// The Standard Webhooks key bytes for `POST /webhooks/bb`.
        public var webhookSecret: Secret
        /// The secret before the last rotation (`BATON_BB_WEBHOOK_SECRET_PREVIOUS`), accepted until
        /// ``previousWebhookSecretUntil``.
        public var previousWebhookSecret: Secret? = nil
        /// When the previous secret stops being accepted (`bb.previousWebhookSecretUntil`).
        public var previousWebhookSecretUntil: Date? = nil
        /// The universal-link return URL, caught with `.https(host:path:)` on iOS 17.4+.
        public var httpsReturnURL: RegisteredReturnURL
        /// The custom-scheme fallback for older iOS, if registered.
        public var customSchemeReturnURL: RegisteredReturnURL?
        /// The hosts a `hostedUrl` may have (`bb.journeyHosts`; default: the host of ``apiOrigin``, as seed 002
        /// names no other).
        public var journeyHosts: JourneyHostPins = Self.placeholderJourneyHosts
        /// Stands in until the loader sets ``journeyHosts`` (pins nothing a provider would answer with).
        static let placeholderJourneyHosts = JourneyHostPins(knownHost: "bb.invalid")
        /// Whether `bb.journeyHosts` was set (otherwise the API origin's host stands in).
        public var journeyHostsConfigured = false
    }

    /// The app identities the well-known files vouch for.
    public struct Apps: Sendable, Hashable {
        /// `TEAMID.bundle.id` values for `applinks` and `webcredentials`.
        public var appleAppIDs: [String]
        /// The Android package name, if any.
        public var androidPackageName: String?
        /// SHA-256 signing-certificate fingerprints (`AA:BB:…`) for `assetlinks.json`.
        public var androidCertificateFingerprints: [String]
    }

    /// The per-user token bucket in front of the provider-backed routes (`rateLimit` in the file).
    public struct RateLimit: Sendable, Hashable {
        /// Whether requests are limited at all (on by default).
        public var enabled: Bool
        /// How many requests a user may make in a burst (the bucket's size).
        public var burst: Int
        /// How many requests per minute a user regains (the refill rate).
        public var perMinute: Int
        /// The size of the separate, smaller bucket the three create routes (share, verification handoff, connect
        /// create) draw on instead (`rateLimit.createBurst`).
        public var createBurst: Int
        /// Its refill rate per minute (`rateLimit.createPerMinute`).
        public var createPerMinute: Int
        /// The most BB connect sessions one user may have pending (created in the last hour, not finished) before
        /// another create is refused (`rateLimit.maxPendingConnectSessions`; 0: no cap).
        public var maxPendingConnectSessions: Int

        /// How far back a pending connect session counts against ``maxPendingConnectSessions``.
        public static let pendingWindow: TimeInterval = 3_600

        /// Creates a limit.
        public init(
            enabled: Bool = true, burst: Int = 60, perMinute: Int = 60, createBurst: Int = 10,
            createPerMinute: Int = 2, maxPendingConnectSessions: Int = 5
        ) {
            self.enabled = enabled
            self.burst = burst
            self.perMinute = perMinute
            self.createBurst = createBurst
            self.createPerMinute = createPerMinute
            self.maxPendingConnectSessions = maxPendingConnectSessions
        }
    }

    public var server: Server
    /// `sqlite:PATH` or `postgres://…`.
    public var database: String
    /// The PostgreSQL password from `BATON_DATABASE_PASSWORD`, if set (never read from the file).
    public var databasePassword: Secret?
    /// Accepts loopback `http` origins; set only by `baton serve --sandbox` and tests.
    public var allowsLoopbackHTTP: Bool
    /// Uses the sandbox's fixture users as service-state evidence (`development.sandboxEvidence`): for a backend
    /// configured against a separately running `baton sandbox`; development mode only.
    public var usesSandboxEvidence: Bool
    /// The key app bearer tokens are signed with.
    public var tokenSigningKey: Secret
    /// Older token signing keys still accepted (by key id) after a rotation, from
    /// `BATON_TOKEN_PREVIOUS_SIGNING_KEYS` (comma-separated); tokens are always minted with ``tokenSigningKey``.
    public var previousTokenSigningKeys: [RetiredTokenKey] = []
    /// How far a token's `iat` may be ahead of this server's clock (`tokens.clockSkewSeconds`, default 60).
    public var tokenClockSkew: TimeInterval = 60
    /// The oldest `iat` accepted, in seconds before now (`tokens.maxLifetimeSeconds`, default the larger of a day
    /// and `tokens.ttlSeconds`); `nil` accepts any age (until `exp`).
    public var tokenMaxLifetime: TimeInterval? = 86_400
    /// Whether `/web/` serves the web reference shell (`webShell.enabled`, default off): for partners' QA of the
    /// rendering rules, not for end users. `baton serve --sandbox` and `baton demo` serve it regardless.
    public var servesWebShell = false
    /// The `aud` every token must carry: `tokens.audience`, by default ``Server/publicOrigin``.
    public var tokenAudience: String = ""
    /// How long a token minted by `baton token` is valid.
    public var tokenTTL: TimeInterval
    /// The AES-256-GCM key idempotent responses are sealed with at rest (`BATON_SEALING_KEY`).
    public var sealingKey: Secret
    /// Retired sealing keys that still open what they sealed (`BATON_SEALING_KEYS_PREVIOUS`); never used to seal.
    public var previousSealingKeys: [Secret]
    /// The secret provider `Idempotency-Key`s are derived under, per user and app key
    /// (`BATON_IDEMPOTENCY_SECRET`, or derived from ``tokenSigningKey`` when that is not set).
    public var idempotencySecret: Secret
    /// Whether ``idempotencySecret`` came from `BATON_IDEMPOTENCY_SECRET` (`false`: derived from the token key).
    public var idempotencySecretIsConfigured: Bool
    /// How long maintenance keeps each kind of record and how often it runs (`retention`).
    public var retention = Retention()
    /// The per-user limit on provider-backed routes (`rateLimit`).
    public var rateLimit: RateLimit
    /// The timeout for one provider call.
    public var providerTimeout: TimeInterval
    public var chia: Chia
    public var privue: Privue
    public var bb: BB
    public var apps: Apps
    /// The landing pages at the registered https return paths (``ReturnLanding``).
    public var returnLanding: ReturnLanding
}

/// The environment variables that carry secrets; the configuration file never does. (One optional variable is not
/// listed: `BATON_TOKEN_PREVIOUS_SIGNING_KEYS`, the retired token keys still accepted, see
/// ``BackendConfiguration/previousTokenSigningKeys``.)
public enum SecretVariable: String, CaseIterable, Sendable {
    case tokenSigningKey = "BATON_TOKEN_SIGNING_KEY"
    case sealingKey = "BATON_SEALING_KEY"
    case chiaAPIKey = "BATON_CHIA_API_KEY"
    case privueAPIKey = "BATON_PRIVUE_API_KEY"
    case privueWebhookSecret = "BATON_PRIVUE_WEBHOOK_SECRET"
    case bbAPIKey = "BATON_BB_API_KEY"
    case bbClientID = "BATON_BB_CLIENT_ID"
    case bbWebhookSecret = "BATON_BB_WEBHOOK_SECRET"
}

/// Environment variables for secrets a configuration may leave out (see docs/configuration.md).
public enum OptionalSecretVariable: String, CaseIterable, Sendable {
    /// Base64 of 32 random bytes; the provider `Idempotency-Key` derivation secret. Derived from
    /// `BATON_TOKEN_SIGNING_KEY` when absent.
    case idempotencySecret = "BATON_IDEMPOTENCY_SECRET"
    /// Comma-separated base64 32-byte keys, retired from `BATON_SEALING_KEY`, that still open stored replays.
    case previousSealingKeys = "BATON_SEALING_KEYS_PREVIOUS"
    /// The PostgreSQL password, handed to libpq beside the URL (which should carry none); unset, libpq reads its
    /// passfile (`~/.pgpass` or `PGPASSFILE`).
    case databasePassword = "BATON_DATABASE_PASSWORD"
}
