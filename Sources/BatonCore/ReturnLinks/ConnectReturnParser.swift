/// Parses BB connect return links strictly, per CONTRACTS §1 and seed 002. Never throws, never traps.
///
/// In order: the URL must split strictly, carry no userinfo, and match a registered return URL; then `sessionId`
/// must be non-empty and `resultCode` exactly `Ok`, `Error` or `Cancelled` (first occurrence of each wins).
/// `connectionId` and `error` are optional (first occurrence, empty is absent). Other parameters, such as the app's
/// own on the registered URL, and the fragment are ignored.
public struct ConnectReturnParser: Sendable, Hashable {
    /// The return URLs registered with BB (universal link and/or custom scheme).
    public let registeredReturnURLs: [RegisteredReturnURL]

    /// Creates a parser for `registeredReturnURLs`; throws when the list is empty.
    public init(registeredReturnURLs: [RegisteredReturnURL]) throws(ReturnURLRegistrationError) {
        guard !registeredReturnURLs.isEmpty else { throw ReturnURLRegistrationError(code: .noneRegistered) }
        self.registeredReturnURLs = registeredReturnURLs
    }

    /// Creates a parser from registered URL strings; throws when one cannot be registered or none is given.
    public init(registered: [String]) throws(ReturnURLRegistrationError) {
        var urls: [RegisteredReturnURL] = []
        for string in registered { urls.append(try RegisteredReturnURL(string)) }
        try self.init(registeredReturnURLs: urls)
    }

    /// Answers whether `url` (exactly as the OS delivered it) is a BB connect return, and with what.
    public func parse(_ url: String) -> ReturnLinkResult<ConnectReturn> {
        guard let parts = RawURLComponents(url) else { return .rejected(.unparseableURL) }
        guard parts.userinfo == nil else { return .rejected(.userinfoPresent) }
        guard registeredReturnURLs.contains(where: { $0.matches(parts) }) else { return .rejected(.unregisteredURL) }
        let query = parts.query ?? ""
        guard let sessionID = FormURLEncodedQuery.firstNonEmpty("sessionId", in: query) else {
            return .rejected(.missingSessionID)
        }
        guard let resultText = FormURLEncodedQuery.first("resultCode", in: query) else {
            return .rejected(.missingResultCode)
        }
        guard let resultCode = ConnectReturn.ResultCode(rawValue: resultText) else {
            return .rejected(.invalidResultCode)
        }
        return .accepted(
            ConnectReturn(
                sessionID: sessionID,
                resultCode: resultCode,
                connectionID: FormURLEncodedQuery.firstNonEmpty("connectionId", in: query),
                error: FormURLEncodedQuery.firstNonEmpty("error", in: query)
            )
        )
    }

    /// Whether `url` is a *bare* return: a registered return URL exactly (scheme, host, port, path), without userinfo
    /// and without any query.
    ///
    /// The landing page at a registered return path links back to the app this way (CONTRACTS.md §2.1): it carries no
    /// `sessionId` and no `resultCode`, so ``parse(_:)`` refuses it, yet it is the end of the browser phase. The flow
    /// asks its backend about the session it already knows; nothing is read from the URL.
    public func isBareReturn(_ url: String) -> Bool {
        guard let parts = RawURLComponents(url), parts.userinfo == nil, parts.query?.isEmpty ?? true else {
            return false
        }
        return registeredReturnURLs.contains { $0.matches(parts) }
    }
}
