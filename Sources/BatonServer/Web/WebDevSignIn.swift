import BatonHTTP
import Foundation

/// The sandbox-only sign-in of the web shell: `POST /web/dev-token?user=ID` answers `{"token","expiresAt"}`, a
/// bearer token for `ID` signed like the ones `baton token` prints.
///
/// ``WebShell/init(configuration:devSignIn:now:)`` creates it only for `baton serve --sandbox` and `baton demo`
/// (never from a configuration file), and it answers only local requests (``LocalRequestCheck``): a loopback peer,
/// no proxy's forwarding fields, a loopback `Host`, and no `Origin` but its own (CSRF, DNS rebinding). A partner's
/// production backend never mounts it: there the page takes a token from the partner's own sign-in.
public struct WebDevSignIn: Sendable {
    private let authenticator: SignedTokenAuthenticator
    private let tokenTTL: TimeInterval
    private let now: @Sendable () -> Date

    /// Creates the sign-in; tokens are valid for `tokenTTL` seconds from `now()`.
    public init(
        authenticator: SignedTokenAuthenticator, tokenTTL: TimeInterval,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.authenticator = authenticator
        self.tokenTTL = tokenTTL
        self.now = now
    }

    private struct Answer: Encodable {
        let token: String
        let expiresAt: String
    }

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        if let refusal = LocalRequestCheck.refusal(for: request) { throw refusal }
        guard let user = Self.user(in: request.query) else {
            throw HTTPError.badRequest(
                code: "invalid_request", detail: "user must be 1-64 letters, digits, '.', '_' or '-'")
        }
        let issuedAt = now()
        let expiry = issuedAt.addingTimeInterval(tokenTTL)
        let formatter = ISO8601DateFormatter()
        let answer = Answer(
            token: authenticator.token(for: user, expiresAt: expiry, issuedAt: issuedAt),
            expiresAt: formatter.string(from: expiry))
        return try HTTPResponse.json(answer)
    }

    /// The first `user` query value, when it is a plain identifier.
    static func user(in query: String?) -> String? {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "user" else { continue }
            let value = String(parts[1])
            let allowed = value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
            return allowed && (1...64).contains(value.count) ? value : nil
        }
        return nil
    }
}
