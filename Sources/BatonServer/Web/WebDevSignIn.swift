import BatonCore
import BatonCrypto
import BatonHTTP
import Foundation

/// The sandbox-only sign-in of the web shell: `POST /web/dev-token?user=ID` answers `{"token","expiresAt"}`, a
/// bearer token for `ID` signed like the ones `baton token` prints.
///
/// ``WebShell/init(configuration:devSignIn:now:)`` creates it only for `baton serve --sandbox` and `baton demo`
/// (never from a configuration file), and it answers only local requests (``LocalRequestCheck``): a loopback peer,
/// no proxy's forwarding fields (`Via` included), a loopback `Host`, and no `Origin` but its own (CSRF, DNS
/// rebinding) — and it must carry the per-run secret the sandbox printed at start, in `X-Baton-Dev-Secret`: a proxy
/// in front of a sandbox that rewrites `Host` and adds no forwarding field passes every other check, and would
/// otherwise hand anyone a token for any user. A partner's production backend never mounts it: there the page takes
/// a token from the partner's own sign-in.
public struct WebDevSignIn: Sendable {
    /// The request field that carries the per-run secret.
    public static let secretField = "x-baton-dev-secret"
    private let authenticator: SignedTokenAuthenticator
    private let tokenTTL: TimeInterval
    private let secret: Secret
    private let now: @Sendable () -> Date

    /// Creates the sign-in; it answers only requests carrying `secret`, with tokens valid for `tokenTTL` seconds
    /// from `now()`.
    public init(
        authenticator: SignedTokenAuthenticator, tokenTTL: TimeInterval, secret: Secret,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.authenticator = authenticator
        self.tokenTTL = tokenTTL
        self.secret = secret
        self.now = now
    }

    /// A fresh per-run secret: 18 random bytes, base64url (24 characters).
    public static func generateSecret() -> Secret {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<18).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Secret(Base64URL.encode(bytes))
    }

    private struct Answer: Encodable {
        let token: String
        let expiresAt: String
    }

    func respond(to request: HTTPRequest) throws -> HTTPResponse {
        if let refusal = LocalRequestCheck.refusal(for: request) { throw refusal }
        // Compared in constant time (``Secret``); the answer never says whether it was missing or wrong.
        guard let given = request.headers[Self.secretField], Secret(given) == secret else {
            throw HTTPError(
                status: 403, code: "not_local",
                detail: "The sandbox sign-in needs the secret baton serve --sandbox printed at start.")
        }
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
