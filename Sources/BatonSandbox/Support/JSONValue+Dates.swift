import BatonCore
import Foundation

extension JSONValue {
    /// An RFC 3339 date.
    static func date(_ value: Date) -> JSONValue { .string(RFC3339.string(from: value)) }
    /// An RFC 3339 date, or `null`.
    static func date(_ value: Date?) -> JSONValue { value.map { .date($0) } ?? .null }
}
