import BatonCore

/// The check in front of the routes that exist only for local development (the web shell's `POST /web/dev-token`,
/// the sandbox's `/_sandbox/*`): the request must come from this machine, and from a page of this same origin.
///
/// A loopback peer alone proves little: a reverse proxy on the same host is a loopback peer for every client it
/// forwards, and a developer's browser is one for every web page it shows, including another site's page posting
/// here (CSRF) and a page whose host name an attacker re-points at 127.0.0.1 (DNS rebinding). A request passes only
/// when
/// 1. its peer address is loopback (`127.0.0.0/8`, `::1`);
/// 2. it carries no `Forwarded`, `X-Forwarded-*`, `X-Real-IP` or `Via` field (a proxy relayed it: a default nginx
///    `proxy_pass` rewrites `Host` to `127.0.0.1:PORT` and adds none of the others, and `Via` is what an HTTP/1.1
///    proxy that says anything says);
/// 3. its `Host` names this machine: `localhost`, a `127.x.y.z` literal or `[::1]`, with any port; and
/// 4. its `Origin`, when present, is this same origin, `http://` and that `Host`.
///
/// ```swift
/// if let refusal = LocalRequestCheck.refusal(for: request) { throw refusal }
/// ```
public enum LocalRequestCheck {
    /// Why a request is not a local one.
    public enum Reason: String, Sendable, CaseIterable {
        /// The peer is not a loopback address.
        case remotePeer = "the peer is not on this machine"
        /// A proxy relayed the request (`Forwarded`, `X-Forwarded-*`, `X-Real-IP`, `Via`).
        case forwarded = "the request was relayed by a proxy"
        /// `Host` is missing or names another host than this machine.
        case foreignHost = "Host does not name this machine"
        /// `Origin` is another origin than the one the request was sent to.
        case crossOrigin = "Origin is another origin"
    }

    /// Why `request` is not local, or `nil` when it is.
    public static func reason(for request: HTTPRequest) -> Reason? {
        guard let peer = request.remoteAddress, LoopbackAddress.isLoopback(peer) else { return .remotePeer }
        var host: String?
        var origin: String?
        for field in request.headers {
            let name = field.name.lowercased()
            if name == "forwarded" || name == "x-real-ip" || name == "via" || name.hasPrefix("x-forwarded-") {
                return .forwarded
            }
            if name == "host" {
                guard host == nil else { return .foreignHost }
                host = field.value.lowercased()
            } else if name == "origin" {
                guard origin == nil else { return .crossOrigin }
                origin = field.value.lowercased()
            }
        }
        guard let host, isLoopbackAuthority(host) else { return .foreignHost }
        if let origin, origin != "http://" + host { return .crossOrigin }
        return nil
    }

    /// The `403 not_local` refusal for `request`, or `nil` when it is local.
    public static func refusal(for request: HTTPRequest) -> HTTPError? {
        reason(for: request).map { reason in
            HTTPError(
                .notLocal,
                detail: "Only pages served from this machine may call this development route: \(reason.rawValue).")
        }
    }

    /// Whether a (lowercased) `Host` value is a loopback name with an optional port.
    static func isLoopbackAuthority(_ authority: String) -> Bool {
        var name = Substring(authority)
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            name = authority[...close]
            guard isPort(authority[authority.index(after: close)...]) else { return false }
        } else if let colon = authority.lastIndex(of: ":") {
            name = authority[..<colon]
            guard isPort(authority[colon...]) else { return false }
        }
        return URLPolicy.isLoopback(host: String(name))
    }

    /// Empty, or `:` and 1–5 digits.
    private static func isPort(_ text: Substring) -> Bool {
        guard let first = text.first else { return true }
        let digits = text.dropFirst()
        return first == ":" && (1...5).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
