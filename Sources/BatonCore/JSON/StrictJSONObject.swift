/// A JSON object whose member names must be exactly a given set, read member by member without coercion.
///
/// Only flat objects of strings, integers, booleans and nulls are accepted: every request body and token payload
/// Baton reads is one, and a fraction, exponent, array or nested object in any member would be refused by its caller
/// anyway. Integers are written as JSON writes them (`0`, `-12`, no leading zeros) and must fit in 64 bits. Within
/// that, the reading is RFC 8259's: whitespace, every escape (surrogate pairs joined, lone surrogates refused), no
/// raw control characters, valid UTF-8, nothing after the object, and each name at most once (compared after
/// unescaping, so `"affirmed"` and `"affirm\u0065d"` are the same member). It reads the bytes once, without
/// Foundation.
package struct StrictJSONObject: Sendable {
    /// One member's value.
    package enum Member: Sendable, Equatable {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case null
    }

    private let members: [String: Member]

    /// `nil` unless `body` is such an object (at most 16 KiB) whose member names are exactly `keys`.
    package init?(_ body: [UInt8], keys: Set<String>) {
        // The names are unique, so "exactly `keys`" is: as many, and each of `keys` present (no set built).
        guard let object = StrictJSONObject(anyNames: body), object.members.count == keys.count,
            keys.allSatisfy({ object.members[$0] != nil })
        else { return nil }
        self = object
    }

    /// `nil` unless `body` is such an object (at most 16 KiB) whose member names are all in `allowed`.
    package init?(_ body: [UInt8], allowedKeys allowed: Set<String>) {
        guard let object = StrictJSONObject(anyNames: body), object.names.isSubset(of: allowed) else { return nil }
        self = object
    }

    /// Such an object whatever its member names.
    package init?(anyNames body: [UInt8]) {
        guard body.count <= 16 * 1024 else { return nil }
        var reader = JSONReader(body)
        guard let members = reader.flatObject() else { return nil }
        self.members = members
    }

    /// The member names.
    package var names: Set<String> { Set(members.keys) }

    /// Whether member `name` is the literal `null`.
    package func isNull(_ name: String) -> Bool { members[name] == .null }

    /// The non-empty string member `name`, else `nil`.
    package func string(_ name: String) -> String? {
        guard case .string(let value)? = members[name], !value.isEmpty else { return nil }
        return value
    }

    /// The string member `name`, empty or not; `nil` when absent or not a string.
    package func anyString(_ name: String) -> String? {
        guard case .string(let value)? = members[name] else { return nil }
        return value
    }

    /// Whether member `name` is absent or the literal `null`.
    package func isAbsentOrNull(_ name: String) -> Bool { members[name] == nil || members[name] == .null }

    /// The string member `name`, `nil` when it is absent or `null`; `.none` (refuse the body) for any other value.
    package func optionalString(_ name: String) -> String?? {
        if isAbsentOrNull(name) { return .some(nil) }
        return anyString(name).map { .some($0) } ?? .none
    }

    /// Whether member `name` is the literal `true`.
    package func isTrue(_ name: String) -> Bool { members[name] == .bool(true) }

    /// The integer member `name`, else `nil`.
    package func integer(_ name: String) -> Int64? {
        guard case .integer(let value)? = members[name] else { return nil }
        return value
    }
}
