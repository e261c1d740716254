import Foundation

extension JSONText {
    /// Adds the member `name`, a literal that needs no escaping, as the RFC 3339 timestamp of `date`, written by
    /// ``RFC3339/append(_:milliseconds:to:)`` straight into the text.
    package mutating func field(literal name: StaticString, timestamp date: Date, milliseconds: Bool = false) {
        field(literal: name) { RFC3339.append(date, milliseconds: milliseconds, to: &$0) }
    }
}
