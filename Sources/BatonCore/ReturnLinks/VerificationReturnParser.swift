/// Parses Privue verification return links strictly, per CONTRACTS §1 and seed 001. Never throws, never traps.
///
/// In order: the URL must split strictly, use `https`, carry no userinfo and match a registered (https) return
/// URL; then `verification_id` must be non-empty (first occurrence wins). `status` is read, first occurrence, as a
/// hint. Everything else, the fragment included, is ignored.
public struct VerificationReturnParser: Sendable, Hashable {
    /// The `https` return URLs registered with Privue.
    public let registeredReturnURLs: [RegisteredReturnURL]

    /// Creates a parser; throws when a URL is not `https` (Privue rejects custom schemes) or none is given.
    public init(registeredReturnURLs: [RegisteredReturnURL]) throws(ReturnURLRegistrationError) {
        guard !registeredReturnURLs.isEmpty else { throw ReturnURLRegistrationError(code: .noneRegistered) }
        guard registeredReturnURLs.allSatisfy(\.isHTTPS) else { throw ReturnURLRegistrationError(code: .notHTTPS) }
        self.registeredReturnURLs = registeredReturnURLs
    }

    /// Creates a parser from registered URL strings.
    public init(registered: [String]) throws(ReturnURLRegistrationError) {
        var urls: [RegisteredReturnURL] = []
        for string in registered { urls.append(try RegisteredReturnURL(string)) }
        try self.init(registeredReturnURLs: urls)
    }

    /// Answers whether `url` (exactly as the OS delivered it) is a Privue verification return, and with what.
    public func parse(_ url: String) -> ReturnLinkResult<VerificationReturn> {
        guard let parts = RawURLComponents(url) else { return .rejected(.unparseableURL) }
        guard parts.schemeIs("https") else { return .rejected(.notHTTPS) }
        guard parts.userinfo == nil else { return .rejected(.userinfoPresent) }
        guard registeredReturnURLs.contains(where: { $0.matches(parts) }) else { return .rejected(.unregisteredURL) }
        let query = parts.query ?? ""
        guard let verificationID = FormURLEncodedQuery.firstNonEmpty("verification_id", in: query) else {
            return .rejected(.missingVerificationID)
        }
        let statusHint = FormURLEncodedQuery.firstNonEmpty("status", in: query)
        return .accepted(VerificationReturn(verificationID: verificationID, statusHint: statusHint))
    }

    /// Whether `url` is a *bare* return: an `https` registered return URL exactly (scheme, host, port, path), without
    /// userinfo and without any query (the landing page's link back to the app, CONTRACTS.md §2.1). It carries no
    /// `verification_id`, so ``parse(_:)`` refuses it; the flow asks its backend, reading nothing from the URL.
    public func isBareReturn(_ url: String) -> Bool {
        guard let parts = RawURLComponents(url), parts.schemeIs("https"), parts.userinfo == nil,
            parts.query?.isEmpty ?? true
        else { return false }
        return registeredReturnURLs.contains { $0.matches(parts) }
    }
}
