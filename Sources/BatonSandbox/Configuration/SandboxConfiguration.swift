import BatonCore
import BatonCrypto
import Foundation

/// Everything the three provider simulators need: keys, webhook secrets and targets, registered return URLs,
/// lifetimes and the clock.
///
/// Keys are `Secret`s and never print. Return URLs are validated here, so a sandbox cannot start with a Privue
/// return URL the real provider would refuse (Privue accepts only `https`; BB accepts `https` and custom schemes).
public struct SandboxConfiguration: Sendable {
    /// Chia's API key (`Authorization: Bearer …`).
    public var chiaAPIKey: Secret
    /// Privue's API key (`Authorization: Bearer …`).
    public var privueAPIKey: Secret
    /// BB's API key (`X-Api-Key`).
    public var bbAPIKey: Secret
    /// BB's client id (`X-Client-Id`); an identifier, checked together with the key.
    public var bbClientID: Secret
    /// Signs Privue's `verification.updated` webhooks.
    public var privueWebhookSecret: WebhookSecret
    /// Signs BB's `connect_session.updated` webhooks.
    public var bbWebhookSecret: WebhookSecret
    /// Where Privue webhooks are delivered; `nil` records events without delivering them.
    public var privueWebhookURL: String?
    /// Where BB webhooks are delivered; `nil` records events without delivering them.
    public var bbWebhookURL: String?
    /// The Privue account slug, the first path segment of journey URLs (`/<account>/<workflow>`).
    public private(set) var privueAccount: String
    /// Privue's registered return URLs (all `https`).
    public private(set) var privueReturnURLs: [RegisteredReturnURL]
    /// BB's registered return URLs (`https` universal links and custom schemes).
    public private(set) var bbReturnURLs: [RegisteredReturnURL]
    /// Where Chia's co-branded and neutral pages offer to go back to the partner (the generic return), if anywhere.
    public var chiaGenericReturnURL: String?
    /// The origin of the neutral URLs in Chia's catalog (`<origin>/c/<slug>`); `nil` (the default) uses the Chia
    /// sandbox's own `http://127.0.0.1:PORT`, which serves those pages.
    ///
    /// Loopback `http` passes BatonCore's https checks only under `URLPolicy.development` (sandbox mode); set an
    /// `https` origin here for a consumer that checks under `URLPolicy.production`.
    public var chiaNeutralOrigin: String?
    /// Lifetimes of sessions, tickets and publications.
    public var lifetimes: SandboxLifetimes
    /// How webhooks are retried.
    public var webhookRetry: WebhookRetryPolicy
    /// The clock every expiry and timestamp reads.
    public var clock: SandboxClock

    /// Creates a configuration, validating the return URLs.
    ///
    /// - Throws: ``SandboxConfigurationError`` when a return URL cannot be registered, a Privue return URL is not
    ///   `https`, or the account slug is not a single path segment.
    public init(
        chiaAPIKey: Secret, privueAPIKey: Secret, bbAPIKey: Secret, bbClientID: Secret,
        privueWebhookSecret: WebhookSecret, bbWebhookSecret: WebhookSecret,
        privueReturnURLs: [String], bbReturnURLs: [String], privueAccount: String = "acme",
        privueWebhookURL: String? = nil, bbWebhookURL: String? = nil, chiaGenericReturnURL: String? = nil,
        lifetimes: SandboxLifetimes = SandboxLifetimes(), webhookRetry: WebhookRetryPolicy = WebhookRetryPolicy(),
        clock: SandboxClock = .system
    ) throws(SandboxConfigurationError) {
        self.chiaAPIKey = chiaAPIKey
        self.privueAPIKey = privueAPIKey
        self.bbAPIKey = bbAPIKey
        self.bbClientID = bbClientID
        self.privueWebhookSecret = privueWebhookSecret
        self.bbWebhookSecret = bbWebhookSecret
        self.privueWebhookURL = privueWebhookURL
        self.bbWebhookURL = bbWebhookURL
        self.chiaGenericReturnURL = chiaGenericReturnURL
        self.lifetimes = lifetimes
        self.webhookRetry = webhookRetry
        self.clock = clock
        self.privueAccount = ""
        self.privueReturnURLs = []
        self.bbReturnURLs = []
        try setPrivueAccount(privueAccount)
        try setPrivueReturnURLs(privueReturnURLs)
        try setBBReturnURLs(bbReturnURLs)
    }

    /// Sets the Privue account slug; it must be one path segment of `[A-Za-z0-9_-]`.
    public mutating func setPrivueAccount(_ slug: String) throws(SandboxConfigurationError) {
        guard Self.isSlug(slug) else { throw SandboxConfigurationError(.invalidAccountSlug, slug) }
        privueAccount = slug
    }

    /// Replaces Privue's registered return URLs; each must be `https` (custom schemes are rejected, as Privue does).
    public mutating func setPrivueReturnURLs(_ urls: [String]) throws(SandboxConfigurationError) {
        var registered: [RegisteredReturnURL] = []
        for url in urls {
            let parsed = try Self.register(url, provider: "Privue")
            guard parsed.isHTTPS else { throw SandboxConfigurationError(.privueReturnURLNotHTTPS, url) }
            registered.append(parsed)
        }
        privueReturnURLs = registered
    }

    /// Replaces BB's registered return URLs (`https` or a custom scheme).
    public mutating func setBBReturnURLs(_ urls: [String]) throws(SandboxConfigurationError) {
        var registered: [RegisteredReturnURL] = []
        for url in urls { registered.append(try Self.register(url, provider: "BB")) }
        bbReturnURLs = registered
    }

    /// Fresh random dev keys, client id and webhook secrets, and example return URLs.
    ///
    /// Privue: `https://app.example.com/kyc/done`; BB: `https://app.example.com/bb-callback` and
    /// `acmewallet://bb-callback` (seed 002's examples).
    ///
    /// - Throws: ``SandboxConfigurationError`` only if those example URLs stopped passing the initialiser's checks
    ///   (a test pins that they pass).
    public static func generated(
        clock: SandboxClock = .system
    ) throws(SandboxConfigurationError)
        -> SandboxConfiguration
    {
        try SandboxConfiguration(
            chiaAPIKey: Secret(RandomToken.make("chia_test_", length: 32)),
            privueAPIKey: Secret(RandomToken.make("pv_test_", length: 32)),
            bbAPIKey: Secret(RandomToken.make("bb_test_", length: 32)),
            bbClientID: Secret(RandomToken.make("cli_", length: 16)),
            privueWebhookSecret: .generate(), bbWebhookSecret: .generate(),
            privueReturnURLs: ["https://app.example.com/kyc/done"],
            bbReturnURLs: ["https://app.example.com/bb-callback", "acmewallet://bb-callback"],
            clock: clock)
    }

    private static func register(
        _ url: String, provider: String
    ) throws(SandboxConfigurationError)
        -> RegisteredReturnURL
    {
        do {
            return try RegisteredReturnURL(url)
        } catch {
            throw SandboxConfigurationError(.unregistrableReturnURL, "\(provider) \(url): \(error.code.rawValue)")
        }
    }

    private static func isSlug(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

/// How long the sandbox's short-lived things live (seconds).
public struct SandboxLifetimes: Sendable, Hashable {
    /// A Chia `phs_…` handoff session: 15 minutes (seed 000).
    public var chiaHandoffSession: TimeInterval = 15 * 60
    /// How long Chia remembers a handoff session's `Idempotency-Key` after creating it: until then the same key
    /// replays (or answers 410 once the session expired); after it the session and its key are forgotten, so the
    /// sandbox's memory is bounded by the share rate times this (24 hours, the usual provider idempotency window).
    public var chiaIdempotencyRetention: TimeInterval = 24 * 60 * 60
    /// A Chia catalog publication; once expired, the next catalog read publishes a fresh one.
    public var chiaPublication: TimeInterval = 24 * 60 * 60
    /// A Privue handoff ticket: 120 seconds (seed 001).
    public var privueTicket: TimeInterval = 120
    /// A Privue signed-in browser session (the cookie the ticket or mobile sign-in sets).
    public var privueBrowserSession: TimeInterval = 60 * 60
    /// A BB connect session that has not finished.
    public var bbConnectSession: TimeInterval = 30 * 60

    /// The defaults above.
    public init() {}
}

/// Why a ``SandboxConfiguration`` is invalid; the message names the offending value (never a key).
public struct SandboxConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable machine code.
    public enum Code: String, Sendable, Hashable {
        /// A return URL is unparseable or has userinfo or a fragment.
        case unregistrableReturnURL = "unregistrable_return_url"
        /// A Privue return URL is not `https` (custom schemes are rejected).
        case privueReturnURLNotHTTPS = "privue_return_url_not_https"
        /// The Privue account slug is not a single `[A-Za-z0-9_-]` path segment.
        case invalidAccountSlug = "invalid_account_slug"
        /// A webhook secret is not `whsec_` and the base64 of at least 24 bytes.
        case invalidWebhookSecret = "invalid_webhook_secret"
    }

    /// What is wrong.
    public let code: Code
    /// The offending (non-secret) value.
    public let value: String

    /// Creates an error.
    public init(_ code: Code, _ value: String) {
        self.code = code
        self.value = value
    }

    public var description: String {
        switch code {
        case .unregistrableReturnURL: "return URL cannot be registered: \(value)"
        case .privueReturnURLNotHTTPS:
            "Privue return URLs must use https (custom schemes are rejected): \(value)"
        case .invalidAccountSlug: "Privue account slug must be one path segment of [A-Za-z0-9_-]: \(value)"
        case .invalidWebhookSecret: "webhook secret must be whsec_ and the base64 of at least 24 bytes"
        }
    }
}
