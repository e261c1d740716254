import BatonCore

/// The only origin catalog images are downloaded from, and the addresses it may resolve to.
///
/// A public origin (`https://assets.chia.example`) may only resolve to public unicast addresses, so a DNS answer
/// pointing at `10.0.0.5`, `169.254.169.254` or `127.0.0.1` is refused before the key is sent. A development
/// origin whose host is loopback itself (`http://127.0.0.1:9001`, accepted only with `allowsLoopbackHTTP`) may only
/// resolve to loopback addresses. Asset URLs are built here from the origin and the asset id; no URL from a
/// response (a redirect `Location`, a catalog field) is ever fetched.
public struct AssetOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `https`, or `http` for a loopback development origin.
    public let scheme: String
    /// The host as written in the origin, lowercased (brackets kept for IPv6).
    public let host: String
    /// The port (explicit, or the scheme's default).
    public let port: Int
    /// Whether this is a loopback development origin (resolved addresses must then be loopback).
    public let isLoopbackOrigin: Bool
    private let origin: String

    /// Validates `origin` (`scheme://host[:port]`, no path, query, fragment or userinfo); `nil` unless https, or
    /// plain http on a loopback host when `allowsLoopbackHTTP`.
    public init?(_ origin: String, allowsLoopbackHTTP: Bool) {
        let trimmed = origin.hasSuffix("/") ? String(origin.dropLast()) : origin
        guard let parts = RawURLComponents(trimmed), parts.userinfo == nil, parts.query == nil,
            parts.fragment == nil, parts.path.isEmpty, !parts.host.isEmpty, let port = parts.effectivePort
        else { return nil }
        let host = parts.normalizedHost
        let loopbackHost = host == "localhost" || IPAddress(literal: host)?.isLoopback == true
        switch parts.normalizedScheme {
        case "https": break
        case "http" where allowsLoopbackHTTP && loopbackHost: break
        default: return nil
        }
        self.scheme = parts.normalizedScheme
        self.host = host
        self.port = port
        self.isLoopbackOrigin = loopbackHost
        self.origin = "\(scheme)://\(host)" + (parts.port.map { ":\($0)" } ?? "")
    }

    /// The URL of Chia's authenticated asset `assetID` (`<origin>/v2/assets/<id>`); `nil` when the id is empty or
    /// holds anything but unreserved URL characters, so it can never change the path, query or host.
    public func assetURL(assetID: String) -> String? {
        guard !assetID.isEmpty, assetID.utf8.count <= 200,
            assetID.utf8.allSatisfy({ Self.unreserved.contains($0) }), assetID != ".", assetID != ".."
        else { return nil }
        return "\(origin)/v2/assets/\(assetID)"
    }

    /// Whether `address` is one this origin may be reached at.
    public func permits(_ address: IPAddress) -> Bool {
        isLoopbackOrigin ? address.isLoopback : address.isPublicUnicast
    }

    /// The host to resolve (IPv6 brackets removed).
    var resolvableHost: String { host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host }

    /// Checks every address the host resolved to against ``permits(_:)``; all must pass, since the transport may
    /// connect to any of them.
    func check(resolved addresses: [IPAddress]) throws(AssetMirrorFailure) {
        guard !addresses.isEmpty else { throw .resolution }
        guard addresses.allSatisfy(permits) else { throw .forbiddenAddress }
    }

    public var description: String { origin }

    private static let unreserved: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))
}
