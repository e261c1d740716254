import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

/// RFC 3339 parsing is strict: Foundation's ISO 8601 parser rolls an out-of-range field over (`12:99` reads as
/// `13:39`), which let a webhook envelope with an impossible timestamp through (found by the api-contract fuzzing).
@Suite struct RFC3339Tests {
    @Test(arguments: [
        "2024-01-01T12:99:00Z", "2024-01-01T25:00:00Z", "2024-01-01T24:00:00Z", "2024-02-30T12:00:00Z",
        "2023-02-29T12:00:00Z", "2024-01-01T12:00:61Z", "2024-01-01T12:60:00Z", "2024-13-01T12:00:00Z",
        "2024-00-10T12:00:00Z", "2024-01-00T12:00:00Z", "2024-01-01T12:00:00+25:00", "2024-01-01T12:00:00+01:60",
        "2024-01-01T12:00:00.Z", "2024-01-01T12:00:00", "2024-01-01 12:00:00Z", "2024-01-01T12:00:00Zjunk", "",
    ])
    func outOfRangeOrMalformedTimestampsAreRefused(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test(arguments: [
        ("2024-02-29T23:59:59Z", 1_709_251_199.0), ("2026-03-01T12:00:00Z", 1_772_366_400.0),
        ("2026-03-01T12:00:00.250Z", 1_772_366_400.25), ("2026-03-01T13:30:00+01:30", 1_772_366_400.0),
    ])
    func validTimestampsParse(text: String, seconds: Double) {
        #expect(RFC3339.date(from: text)?.timeIntervalSince1970 == seconds)
    }

    /// The digit-by-digit writer and reader give what Foundation gives, over 1970-9999 (fractional seconds dropped
    /// when writing, as Foundation drops them) and at the range's edges; outside it Foundation still answers.
    @Test func theFastPathsAgreeWithFoundation() {
        var generator = SeededGenerator(seed: 3339)
        var dates = [
            0, 1, 59.999, 86_399.5, 951_782_400, 4_107_542_400, 253_402_300_799.75, 253_402_300_800, -1, -86_400.5,
        ]
        .map(Date.init(timeIntervalSince1970:))
        for _ in 0..<5_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: 0..<253_402_300_800, using: &generator)))
            dates.append(Date(timeIntervalSince1970: Double(Int64.random(in: 0..<4_102_444_800, using: &generator))))
        }
        for date in dates {
            let text = RFC3339.string(from: date)
            #expect(text == RFC3339.foundationString(from: date), "\(date.timeIntervalSince1970)")
            // What parsing gave before the fast path: the range check, then Foundation.
            let before = RFC3339.hasFieldsInRange(Array(text.utf8)) ? RFC3339.foundationDate(from: text) : nil
            #expect(RFC3339.date(from: text) == before, "\(text)")
        }
    }
    /// The millisecond form (log lines) is what the log's own writer gave before this one replaced it: `gmtime_r`
    /// field by field, over 1970-9999 (kept below as the reference); outside that range Foundation writes it, with
    /// its fraction (the old writer printed `.-250Z` for 1969-12-31T23:59:58.750Z).
    @Test func theMillisecondFormIsWhatTheLogWroteBefore() {
        var generator = SeededGenerator(seed: 1000)
        var dates = [0, 0.001, 59.9995, 1_700_000_000.123, 951_782_400.5, 253_402_300_799.999]
            .map(Date.init(timeIntervalSince1970:))
        for _ in 0..<5_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: 0..<253_402_300_800, using: &generator)))
        }
        for date in dates {
            var bytes: [UInt8] = []
            RFC3339.append(date, milliseconds: true, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == Self.logTimestamp(date), "\(date.timeIntervalSince1970)")
        }
        for (seconds, text) in [(-1.25, "1969-12-31T23:59:58.750Z"), (253_402_300_800.5, "10000-01-01T00:00:00.500Z")] {
            var bytes: [UInt8] = []
            RFC3339.append(Date(timeIntervalSince1970: seconds), milliseconds: true, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == text)
        }
    }

    /// The log's timestamp writer before it became ``RFC3339/append(_:milliseconds:to:)``, for 1970-9999.
    static func logTimestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(milliseconds % 1000))
    }
}
