import Foundation

/// RFC 3339 timestamps as Baton's JSON carries them (`2025-01-31T12:00:00Z`, fractional seconds and offsets read).
public enum RFC3339 {
    /// Parses `text`, with or without fractional seconds; `nil` when it is not RFC 3339, including a field out of its
    /// calendar range (`12:99`, `25:00`, February 30th), which Foundation's parser would roll over into another time.
    public static func date(from text: String) -> Date? {
        guard hasFieldsInRange(Array(text.utf8)) else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with every field in range (seconds 00-59).
    static func hasFieldsInRange(_ bytes: [UInt8]) -> Bool {
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        func byte(_ index: Int, _ allowed: String) -> Bool {
            index < bytes.count && allowed.utf8.contains(bytes[index])
        }
        guard let year = number(0..<4), byte(4, "-"), let month = number(5..<7), byte(7, "-"),
            let day = number(8..<10), byte(10, "Tt"), let hour = number(11..<13), byte(13, ":"),
            let minute = number(14..<16), byte(16, ":"), let second = number(17..<19),
            (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        var index = 19
        if byte(index, ".") {
            index += 1
            let start = index
            while number(index..<index + 1) != nil { index += 1 }
            guard index > start else { return false }
        }
        if byte(index, "Zz") { return index + 1 == bytes.count }
        guard byte(index, "+-"), bytes.count == index + 6, let offsetHours = number(index + 1..<index + 3),
            byte(index + 3, ":"), let offsetMinutes = number(index + 4..<index + 6)
        else { return false }
        return offsetHours < 24 && offsetMinutes < 60
    }

    /// Formats `date` in UTC, whole seconds (`2025-01-31T12:00:00Z`).
    public static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// A JSON decoder whose dates are RFC 3339 strings.
    public static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = date(from: try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an RFC 3339 date")
            }
            return date
        }
        return decoder
    }

    /// A JSON encoder whose dates are RFC 3339 strings and whose keys are sorted (stable output).
    public static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date))
        }
        return encoder
    }
}
