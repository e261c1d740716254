import Foundation

/// RFC 3339 timestamps as Baton's JSON carries them (`2025-01-31T12:00:00Z`, fractional seconds and offsets read).
public enum RFC3339 {
    /// Parses `text`, with or without fractional seconds; `nil` when it is not RFC 3339, including a field out of its
    /// calendar range (`12:99`, `25:00`, February 30th), which Foundation's parser would roll over into another time.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard hasFieldsInRange(bytes) else { return nil }
        if let seconds = wholeSecondsUTC(bytes) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        return foundationDate(from: text)
    }

    /// What Foundation's parser makes of a string that passed ``hasFieldsInRange(_:)``.
    static func foundationDate(from text: String) -> Date? {
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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The one RFC 3339 writer: appends `date` in UTC to `bytes`, whole seconds (`2025-01-31T12:00:00Z`), or with
    /// `milliseconds` (`2025-01-31T12:00:00.123Z`, rounded down, as log lines carry it).
    ///
    /// 1970-01-01 through 9999-12-31 is written digit by digit rather than by Foundation's formatter, which writes
    /// any other date (``foundationString(from:milliseconds:)``).
    package static func append(_ date: Date, milliseconds: Bool = false, to bytes: inout [UInt8]) {
        let perSecond: Int64 = milliseconds ? 1000 : 1
        let units = (date.timeIntervalSince1970 * Double(perSecond)).rounded(.down)
        guard units >= 0, units < 253_402_300_800 * Double(perSecond) else {
            bytes.append(contentsOf: foundationString(from: date, milliseconds: milliseconds).utf8)
            return
        }
        let count = Int64(units)
        let seconds = count / perSecond
        let ofDay = Int(seconds % 86_400)
        let (year, month, day) = civil(fromDays: seconds / 86_400)
        func put(_ value: Int, _ width: Int, _ separator: UInt8) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10))
                divisor /= 10
            }
            bytes.append(separator)
        }
        put(year, 4, UInt8(ascii: "-"))
        put(month, 2, UInt8(ascii: "-"))
        put(day, 2, UInt8(ascii: "T"))
        put(ofDay / 3600, 2, UInt8(ascii: ":"))
        put(ofDay / 60 % 60, 2, UInt8(ascii: ":"))
        if milliseconds {
            put(ofDay % 60, 2, UInt8(ascii: "."))
            put(Int(count % perSecond), 3, UInt8(ascii: "Z"))
        } else {
            put(ofDay % 60, 2, UInt8(ascii: "Z"))
        }
    }

    /// Foundation's formatting, for dates outside the range the digit-by-digit writer covers.
    static func foundationString(from date: Date, milliseconds: Bool = false) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: milliseconds))
    }

    /// Seconds since 1970 for the plain form `YYYY-MM-DDTHH:MM:SSZ` (uppercase, no fraction, no offset) with a year
    /// from 1970 through 9999 — what Baton, its apps and the sandbox write — read without Foundation's parser (the
    /// two timestamps a share reads; docs/reliability-history.md has the figure); `nil` for any other form. `bytes` has passed
    /// ``hasFieldsInRange(_:)``.
    static func wholeSecondsUTC(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int {
            range.reduce(0) { $0 * 10 + Int(bytes[$1] &- UInt8(ascii: "0")) }
        }
        let year = number(0..<4)
        guard year >= 1970 else { return nil }
        let days = days(fromCivil: year, number(5..<7), number(8..<10))
        return days * 86_400 + Int64(number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's `civil_from_days`), for `days` ≥ 0.
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
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
