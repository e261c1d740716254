import BatonCore

/// Answers which flow a URL the OS delivered to the app belongs to, and hands it to that flow.
///
/// An app receives every universal link, app link and custom-scheme URL through one entry point (`onOpenURL`,
/// `scene(_:openURLContexts:)`, `scene(_:continue:)`). The router sorts them by the registered return URLs only —
/// scheme, host, effective port and exact path, as ``RegisteredReturnURL`` compares them — and never by what the query
/// says: deciding whether a link is a return, and what it claims, stays with the flow's own strict parser. In order:
///
/// 1. a URL that does not split strictly, or carries userinfo, belongs to no flow;
/// 2. a BB return URL (any registered one: the universal link, the custom scheme, the landing page's open-host link)
///    goes to BB — as a *landing* link when it carries no query (the landing page's "Return to the app" link,
///    docs/CONTRACTS.md §2.1), else as a return link;
/// 3. likewise a Privue return URL goes to Privue;
/// 4. an `https` URL on Chia's approved generic return host, default port, goes to Chia (always marketplace home);
/// 5. anything else belongs to no flow, and the app handles it as its own.
///
/// Paths decide before hosts, so a Privue return path on the same host as Chia's generic return goes to Privue.
/// Vectors: `Conformance/link-routing.v1.json`, run on every shell.
public struct BatonLinkRouter: Sendable, Hashable {
    /// The flow a link belongs to.
    public enum Route: Sendable, Hashable {
        /// A BB connect return (`landing`: the bare link of the landing page, no query).
        case bankConnect(landing: Bool)
        /// A Privue verification return (`landing`: the bare link of the landing page, no query).
        case verification(landing: Bool)
        /// Chia's generic return: marketplace home.
        case chiaGenericReturn
        /// Not a Baton link.
        case none(Refusal)
    }

    /// Why a link belongs to no flow.
    public enum Refusal: String, Sendable, Hashable {
        /// The URL does not split strictly (docs/CONTRACTS.md §1).
        case unparseableURL = "unparseable_url"
        /// The URL carries userinfo.
        case userinfoPresent = "userinfo_present"
        /// No registered return URL or host matches.
        case unregisteredURL = "unregistered_url"
    }

    /// Why a registration cannot be routed.
    public struct RegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL registered for both BB and Privue.
        public let url: String
        public var description: String { "return URL \(url) is registered for both BB and Privue" }
    }

    /// BB's registered return URLs.
    public let bankConnectReturnURLs: [RegisteredReturnURL]
    /// Privue's registered return URLs.
    public let verificationReturnURLs: [RegisteredReturnURL]
    /// Chia's approved generic return, if any.
    public let genericReturn: GenericReturnParser?

    /// A router for the app's registered return URLs: the same lists its flows' parsers take (BB's universal link,
    /// custom scheme and landing link; Privue's return URL and landing link) and Chia's generic return host, if
    /// approved. Throws when a URL is registered for both BB and Privue, so a link could not be told apart.
    public init(
        bankConnect: [RegisteredReturnURL], verification: [RegisteredReturnURL], genericReturn: GenericReturnParser?
    ) throws(RegistrationError) {
        for bb in bankConnect {
            guard let parts = RawURLComponents(bb.string) else { continue }
            if verification.contains(where: { $0.matches(parts) }) { throw RegistrationError(url: bb.string) }
        }
        bankConnectReturnURLs = bankConnect
        verificationReturnURLs = verification
        self.genericReturn = genericReturn
    }

    /// Which flow `url` (exactly as the OS delivered it) belongs to.
    public func route(_ url: String) -> Route {
        guard let parts = RawURLComponents(url) else { return .none(.unparseableURL) }
        guard parts.userinfo == nil else { return .none(.userinfoPresent) }
        let landing = parts.query?.isEmpty ?? true
        if bankConnectReturnURLs.contains(where: { $0.matches(parts) }) { return .bankConnect(landing: landing) }
        if verificationReturnURLs.contains(where: { $0.matches(parts) }) { return .verification(landing: landing) }
        if case .accepted = genericReturn?.parse(url) { return .chiaGenericReturn }
        return .none(.unregisteredURL)
    }

    /// The flows a link can be handed to; a flow that is not running is `nil`.
    public struct Flows: Sendable {
        /// BB's coordinator.
        public var bankConnect: ConnectCoordinator?
        /// Privue's coordinator.
        public var verification: VerificationCoordinator?
        /// The coordinator of the Chia card on screen, which routes the generic return to marketplace home.
        public var chia: ChiaHandoffCoordinator?
        /// Called for Chia's generic return when no Chia coordinator runs (the app goes to marketplace home).
        public var marketplaceHome: (@Sendable () -> Void)?

        /// The flows to hand links to.
        public init(
            bankConnect: ConnectCoordinator? = nil, verification: VerificationCoordinator? = nil,
            chia: ChiaHandoffCoordinator? = nil, marketplaceHome: (@Sendable () -> Void)? = nil
        ) {
            self.bankConnect = bankConnect
            self.verification = verification
            self.chia = chia
            self.marketplaceHome = marketplaceHome
        }
    }

    /// Routes `url` and hands it, unchanged, to its flow's `returnLink(_:)` (which parses it strictly and decides);
    /// returns the route. A link for a flow that is not running is dropped, as AppAuth drops a response with no
    /// pending request: the app asks its backend when that flow next starts or restores.
    @discardableResult
    public func deliver(_ url: String, to flows: Flows) async -> Route {
        let route = route(url)
        switch route {
        case .bankConnect: await flows.bankConnect?.returnLink(url)
        case .verification: await flows.verification?.returnLink(url)
        case .chiaGenericReturn:
            if let chia = flows.chia {
                await chia.returnLink(url)
            } else {
                flows.marketplaceHome?()
            }
        case .none: break
        }
        return route
    }
}
