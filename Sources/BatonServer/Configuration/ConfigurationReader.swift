import BatonCore
import BatonCrypto
import Foundation

/// Walks a decoded JSON object field by field, recording every problem with its full path instead of stopping at
/// the first, and refusing fields it does not know (a typo is an error, not a silently ignored setting).
struct ConfigurationReader {
    private(set) var errors: [ConfigurationError] = []
    let allowsLoopbackHTTP: Bool

    init(allowsLoopbackHTTP: Bool) { self.allowsLoopbackHTTP = allowsLoopbackHTTP }

    mutating func fail(_ field: String, _ problem: String, kind: ConfigurationError.Kind = .invalid) {
        errors.append(ConfigurationError(field: field, problem: problem, kind: kind))
    }

    /// The object at `path`, with unknown keys reported; an absent optional object reads as empty.
    mutating func object(
        _ parent: [String: JSONValue], _ key: String, path: String, known: Set<String>, required: Bool = true
    ) -> [String: JSONValue] {
        guard let value = parent[key] else {
            if required { fail(path, "is required") }
            return [:]
        }
        guard let object = value.members else {
            fail(path, "must be an object")
            return [:]
        }
        rejectUnknownKeys(object, path: path, known: known)
        return object
    }

    mutating func rejectUnknownKeys(_ object: [String: JSONValue], path: String, known: Set<String>) {
        for key in object.keys.sorted() where !known.contains(key) {
            fail(path.isEmpty ? key : "\(path).\(key)", "is not a known setting", kind: .unknownSetting)
        }
    }

    mutating func string(
        _ object: [String: JSONValue], _ key: String, path: String, default fallback: String? = nil
    )
        -> String
    {
        guard let value = object[key] else {
            if let fallback { return fallback }
            fail(path, "is required")
            return ""
        }
        guard case .string(let string) = value, !string.isEmpty else {
            fail(path, "must be a non-empty string")
            return ""
        }
        return string
    }

    mutating func strings(_ object: [String: JSONValue], _ key: String, path: String, required: Bool = true) -> [String]
    {
        guard let value = object[key] else {
            if required { fail(path, "is required") }
            return []
        }
        guard case .array(let array) = value,
            case let strings = array.compactMap({ if case .string(let s) = $0, !s.isEmpty { s } else { nil } }),
            strings.count == array.count
        else {
            fail(path, "must be an array of non-empty strings")
            return []
        }
        return strings
    }

    mutating func integer(
        _ object: [String: JSONValue], _ key: String, path: String, default fallback: Int, range: ClosedRange<Int>
    )
        -> Int
    {
        guard let value = object[key] else { return fallback }
        guard case .number(let number) = value, let integer = Int(exactly: number), range.contains(integer) else {
            fail(path, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return fallback
        }
        return integer
    }

    mutating func bool(_ object: [String: JSONValue], _ key: String, path: String, default fallback: Bool) -> Bool {
        guard let value = object[key] else { return fallback }
        guard case .bool(let bool) = value else {
            fail(path, "must be true or false")
            return fallback
        }
        return bool
    }

    /// An origin (`scheme://host[:port]`, no path) that must be https, or loopback http in development.
    mutating func origin(_ object: [String: JSONValue], _ key: String, path: String) -> String {
        let value = string(object, key, path: path)
        guard !value.isEmpty else { return value }
        guard let parts = RawURLComponents(value), parts.userinfo == nil, parts.query == nil, parts.fragment == nil,
            parts.path.isEmpty || parts.path == "/"
        else {
            fail(path, "must be an origin such as https://api.example.com (no path, query or userinfo)")
            return value
        }
        if parts.normalizedScheme == "https" { return value.hasSuffix("/") ? String(value.dropLast()) : value }
        if parts.normalizedScheme == "http" && allowsLoopbackHTTP && Self.isLoopback(parts.normalizedHost) {
            return value.hasSuffix("/") ? String(value.dropLast()) : value
        }
        fail(path, "must use https (plain http is accepted only for a loopback host in development mode)")
        return value
    }

    /// `localhost`, `[::1]` or a `127.x.y.z` literal: exactly, so `127.attacker.example` is not loopback.
    static func isLoopback(_ host: String) -> Bool { URLPolicy.isLoopback(host: host) }

    /// A secret from the environment, at least `minimumLength` bytes long.
    mutating func secret(_ environment: [String: String], _ name: String, minimumLength: Int) -> Secret {
        guard let value = environment[name], !value.isEmpty else {
            fail(name, "environment variable is not set")
            return Secret("")
        }
        guard value.utf8.count >= minimumLength else {
            fail(name, "is too short: at least \(minimumLength) characters are required")
            return Secret("")
        }
        return Secret(value)
    }

    /// A Standard Webhooks secret (`whsec_` + base64 of at least 24 bytes) from the environment, as key bytes.
    mutating func webhookSecret(_ environment: [String: String], _ name: String) -> Secret {
        guard let value = environment[name], !value.isEmpty else {
            fail(name, "environment variable is not set")
            return Secret("")
        }
        guard let secret = WebhookSecret(value) else {
            fail(
                name,
                "must be \(WebhookSecret.prefix) followed by the base64 of at least "
                    + "\(WebhookSecret.minimumKeyByteCount) random bytes")
            return Secret("")
        }
        return secret.key
    }

    /// A 256-bit key given as base64 in the environment.
    mutating func key256(_ environment: [String: String], _ name: String) -> Secret {
        guard let value = environment[name], !value.isEmpty else {
            fail(name, "environment variable is not set")
            return Secret(bytes: [])
        }
        guard let bytes = Data(base64Encoded: value), bytes.count == 32 else {
            fail(name, "must be the base64 of exactly 32 random bytes (e.g. `openssl rand -base64 32`)")
            return Secret(bytes: [])
        }
        return Secret(bytes: Array(bytes))
    }

    /// Comma-separated base64 256-bit keys from the environment; none when the variable is absent or empty.
    mutating func keys256(_ environment: [String: String], _ name: String) -> [Secret] {
        guard let value = environment[name], !value.isEmpty else { return [] }
        var keys: [Secret] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let text = part.trimmingCharacters(in: .whitespaces)
            guard let bytes = Data(base64Encoded: text), bytes.count == 32 else {
                fail(name, "must be comma-separated base64 values of exactly 32 bytes each")
                return []
            }
            keys.append(Secret(bytes: Array(bytes)))
        }
        return keys
    }
}
