/// What a `postgres://` URI says about how the link to the server is protected: its TLS mode, the root it trusts,
/// where it connects and whether it carries a password. For `baton doctor`; the URI itself goes to libpq unchanged.
///
/// Only the URI form is read (`postgres://user[:password]@host[:port]/db?param=value&…`, percent-encoded), as the
/// configuration file accepts nothing else. Nothing here keeps or returns the password.
struct PostgresLink: Sendable, Hashable {
    /// libpq's `sslmode` (`prefer` when the URI names none, libpq's default).
    var sslMode: String
    /// Whether `sslrootcert` names a root certificate (a file, or `system`).
    var namesRootCertificate: Bool
    /// Whether the URI carries a password (in the user part or as `password=`).
    var carriesPassword: Bool
    /// Whether every host is a Unix-domain socket directory (no network between the instance and the server).
    var isUnixSocket: Bool

    /// Whether the server's certificate is checked against a trusted root, so no one in between can relay the login:
    /// `verify-full`, or `verify-ca` with a named root.
    var authenticatesServer: Bool {
        sslMode == "verify-full" || (sslMode == "verify-ca" && namesRootCertificate)
    }

    /// Reads `uri`; `nil` when it is not a `postgres://` or `postgresql://` URI.
    init?(uri: String) {
        guard let schemeEnd = uri.range(of: "://"),
            ["postgres", "postgresql"].contains(uri[..<schemeEnd.lowerBound].lowercased())
        else { return nil }
        var rest = Substring(uri[schemeEnd.upperBound...])
        var parameters: [String: String] = [:]
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = Self.percentDecoded(parts[0])
                parameters[key] = parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
            }
            rest = rest[..<question]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var carriesPassword = !(parameters["password"] ?? "").isEmpty
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            if let colon = userInfo.firstIndex(of: ":"), userInfo.index(after: colon) < userInfo.endIndex {
                carriesPassword = true
            }
            rest = rest[rest.index(after: at)...]
        }
        let hosts =
            (parameters["host"].map { $0.split(separator: ",").map(String.init) } ?? [])
            + rest.split(separator: ",").map { Self.percentDecoded($0) }
        self.sslMode = (parameters["sslmode"] ?? "prefer").lowercased()
        self.namesRootCertificate = !(parameters["sslrootcert"] ?? "").isEmpty
        self.carriesPassword = carriesPassword
        // No host at all is libpq's default Unix socket, unless `hostaddr` names an address.
        let addressed = !(parameters["hostaddr"] ?? "").isEmpty
        self.isUnixSocket = !addressed && hosts.allSatisfy { $0.hasPrefix("/") || $0.hasPrefix("%2F") }
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
