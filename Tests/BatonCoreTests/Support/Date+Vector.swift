import Foundation

extension Date {
    /// Parses an RFC 3339 vector timestamp or stops the test run: vector files are trusted input.
    init(vector text: String) {
        guard let date = RFC3339Parse.date(text) else { fatalError("bad date in vector: \(text)") }
        self = date
    }
}

enum RFC3339Parse {
    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
