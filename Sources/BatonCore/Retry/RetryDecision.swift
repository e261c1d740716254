import Foundation

/// What the app does after a share request, per seed 000's tap sequence and CONTRACTS §2 "App rule".
///
/// Network errors, timeouts (a transport timeout or a `408 Request Timeout`), 429 and 5xx leave the outcome uncertain,
/// so the app retries with the exact same body and `Idempotency-Key` (the backend dedupes). A 401 means the app's
/// sign-in lapsed: the first attempt may still have reached Chia, so the app signs in again and retries with the same
/// body and key. Any other 4xx is a definitive rejection: discard body and key and fetch a new projection before
/// another attempt. A 2xx is done. Anything else (1xx, 3xx, out of range) is not a definitive answer either, so it is
/// treated like a network error: keeping the key is always safe.
public enum RetryDecision: Sendable, Hashable {
    /// Retry later with the same body and key; `after` is the server's `Retry-After` in seconds, when it gave one.
    case retryKeepingRequest(after: Int?)
    /// Sign in again, then retry with the same body and key (a 401).
    case signInAndRetryKeepingRequest
    /// Discard the body and key and refetch the projection.
    case discardAndRefetchProjection
    /// The request succeeded; open the URL from this response.
    case done

    /// Classifies `outcome`; `now` resolves a `Retry-After` given as an HTTP date.
    public static func classify(_ outcome: ShareRequestOutcome, now: Date) -> RetryDecision {
        switch outcome {
        case .transportFailure:
            return .retryKeepingRequest(after: nil)
        case .response(let status, let retryAfter):
            switch status {
            case 200...299:
                return .done
            case 408, 429, 500...599:
                return .retryKeepingRequest(after: retryAfter.flatMap { retryAfterSeconds($0, now: now) })
            case 401:
                return .signInAndRetryKeepingRequest
            case 400...499:
                return .discardAndRefetchProjection
            default:
                return .retryKeepingRequest(after: nil)
            }
        }
    }

    /// Parses a `Retry-After` value (RFC 9110 §10.2.3): delay-seconds, or an IMF-fixdate resolved against `now`
    /// (a past date is 0). `nil` when malformed.
    public static func retryAfterSeconds(_ value: String, now: Date) -> Int? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            // Anything longer than nine digits is clamped rather than overflowing.
            return trimmed.count > 9 ? Int(Int32.max) : Int(trimmed)
        }
        guard let date = parseIMFFixdate(trimmed) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, strictly.
    private static func parseIMFFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        let days = ["Mon,", "Tue,", "Wed,", "Thu,", "Fri,", "Sat,", "Sun,"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, days.contains(String(parts[0])), parts[5] == "GMT", parts[1].count == 2,
            let day = Int(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])), parts[3].count == 4,
            let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 3, time.allSatisfy({ $0.count == 2 }), let hour = Int(time[0]), let minute = Int(time[1]),
            let second = Int(time[2]), hour < 24, minute < 60, second < 61
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let components = DateComponents(
            year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day
        else { return nil }
        return date
    }
}
