import Foundation

/// RFC 3339 timestamps as Baton's JSON carries them (`2025-01-31T12:00:00Z`, fractional seconds and offsets read).
public enum RFC3339 {
    /// Parses `text`, with or without fractional seconds; `nil` when it is not RFC 3339.
    public static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
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
