import Foundation
import Testing

@testable import BatonHTTP

@Suite("The access log's byte-level line writer")
struct LogLineTests {
    static let dates: [Date] = [
        Date(timeIntervalSince1970: 1_700_000_000.123), Date(timeIntervalSince1970: 0),
        Date(timeIntervalSince1970: 951_782_400.5), Date(timeIntervalSince1970: 253_402_300_799.5),
        Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: -1.25),
    ]

    @Test(
        arguments: zip(
            dates.prefix(4),
            [
                "2023-11-14T22:13:20.123Z", "1970-01-01T00:00:00.000Z", "2000-02-29T00:00:00.500Z",
                "9999-12-31T23:59:59.500Z",
            ]
        ))
    func timestampsAreRFC3339WithMilliseconds(date: Date, text: String) {
        #expect(Logger.timestamp(date) == text)
    }

    /// The access log writes its line itself, in bytes; it must be exactly what `Logger.log` writes for the same
    /// fields, whatever the values (escapes, numbers, and the dates outside the fast path).
    @Test func writesWhatLoggerWritesForTheSameFields() {
        let strings = [
            "", "GET", "/v2/connect-sessions/{sessionId}", "<unmatched>", "a\"b", "back\\slash", "tab\t",
            "\u{0}\u{1F}\u{7F}", "line\u{2028}sep", "é😀", "7f3a2b-0000002a",
        ]
        let numbers: [Double] = [0, 0.001, 0.032, 12.5, 1234.567, 1e-7, 1e21, .infinity, .nan]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let date = Self.dates[round % Self.dates.count]
            let level: Logger.Level = round % 3 == 0 ? .error : .info
            let id = strings.randomElement(using: &generator) ?? ""
            let method = strings.randomElement(using: &generator) ?? ""
            let route = strings.randomElement(using: &generator) ?? ""
            let status = [0, 200, 404, 503, -1, Int.max].randomElement(using: &generator) ?? 0
            let duration = numbers.randomElement(using: &generator) ?? 0
            let upstream = round % 2 == 0 ? numbers.randomElement(using: &generator) : nil

            let sink = InMemoryLogSink()
            var fields: [String: LogValue] = [
                "duration_ms": .double(duration), "id": .string(id), "method": .string(method),
                "route": .string(route), "status": .int(status),
            ]
            if let upstream { fields["upstream_ms"] = .double(upstream) }
            Logger(sink: sink, now: { date }).log(level, "request", fields)

            var line = LogLine(date: date, level: level, event: "request")
            line.field("duration_ms", duration)
            line.field("id", id)
            line.field("method", method)
            line.field("route", route)
            line.field("status", status)
            if let upstream { line.field("upstream_ms", upstream) }
            #expect([String(decoding: line.finish(), as: UTF8.self)] == sink.captured)
        }
    }
    /// The access log's line, byte for byte: pinned here, not only against `Logger.log`, which shares the writer.
    @Test func writesTheAccessLineByteForByte() {
        var line = LogLine(date: Self.dates[0], level: .info, event: "request")
        line.field("duration_ms", 0.032)
        line.field("id", "7f3a2b-0000002a")
        line.field("method", "GET")
        line.field("route", "a\"b\u{2028}")
        line.field("status", 200)
        #expect(
            String(decoding: line.finish(), as: UTF8.self)
                == #"{"ts":"2023-11-14T22:13:20.123Z","level":"info","event":"request","duration_ms":0.032,"#
                + #""id":"7f3a2b-0000002a","method":"GET","route":"a\"b\u2028","status":200}"#)
    }

    static let orders: [(StaticString, StaticString, Bool)] = [
        ("attempts", "duration_ms", true), ("outcome", "provider", true), ("id", "id", false),
        ("route", "method", false), ("status", "status_code", true), ("upstream_ms", "status", false),
    ]

    @Test func aFieldMustSortAfterThePrevious() {
        for (previous, name, follows) in Self.orders {
            #expect(LogLine.follows(previous, name) == follows, "\(name) after \(previous)")
        }
    }

    #if DEBUG
    /// A field added out of key order would make the line differ from `Logger.log`'s: a debug build stops there.
    @Test func aFieldOutOfOrderStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var line = LogLine(date: Date(timeIntervalSince1970: 0), level: .info, event: "request")
            line.field("route", "/healthz")
            line.field("method", "GET")
            _ = line.finish()
        }
    }
    #endif
}
