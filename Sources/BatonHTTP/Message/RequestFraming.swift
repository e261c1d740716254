import BatonCore
import Foundation

/// The checks of RFC 9112 Baton makes on every request before routing, where libmicrohttpd 0.9.75 lets a request
/// through that a strict server refuses: byte-level, on the target and the fields libmicrohttpd has already split.
///
/// A request that fails one is answered with problem+json and its connection closed: when the framing is in doubt,
/// so is where the next request starts (request smuggling behind a proxy that frames by the other header).
enum RequestFraming {
    /// Why a request is refused.
    enum Refusal: Equatable, Sendable {
        /// The target is not origin-form (`/` first), or contains a control character, space or NUL.
        case targetNotOriginForm
        /// Two `Content-Length` values that differ, or one that is not a decimal number.
        case conflictingContentLength
        /// Both `Content-Length` and `Transfer-Encoding`.
        case lengthAndTransferEncoding
        /// A transfer coding other than exactly `chunked` (Baton decodes no other).
        case unsupportedTransferCoding
        /// A field name or value with a control character (CR, LF, NUL, …) in it.
        case invalidFieldCharacter

        /// The problem+json answer.
        var error: HTTPError {
            switch self {
            case .targetNotOriginForm:
                HTTPError(
                    .invalidTarget,
                    detail: "The request target must be a path starting with '/' (origin-form).")
            case .conflictingContentLength:
                HTTPError(.invalidFraming, detail: "Content-Length is malformed or repeated.")
            case .lengthAndTransferEncoding:
                HTTPError(
                    .invalidFraming,
                    detail: "Content-Length and Transfer-Encoding must not both be sent.")
            case .unsupportedTransferCoding:
                HTTPError(
                    .unsupportedTransferCoding,
                    detail: "Only Transfer-Encoding: chunked is supported.")
            case .invalidFieldCharacter:
                HTTPError(
                    .invalidHeaderField,
                    detail: "A header field contains a control character.")
            }
        }
    }

    /// Whether `target` is origin-form: `/` first, then no byte below `!` (controls, space) and no DEL.
    ///
    /// A NUL cannot be seen here when the target came through a C string; see the daemon's length check.
    static func isOriginForm(_ target: String) -> Bool {
        var utf8 = target.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "/") else { return false }
        while let byte = utf8.next() {
            if byte <= 0x20 || byte == 0x7F { return false }
        }
        return true
    }

    /// The refusal the framing fields of `headers` call for, or `nil`.
    static func refusal(for headers: HTTPHeaders) -> Refusal? {
        var length: String?
        var codings: String?
        for field in headers {
            if HTTPHeaders.equalNames(field.name, "content-length") {
                guard isDecimal(field.value), length == nil || length == field.value else {
                    return .conflictingContentLength
                }
                length = field.value
            } else if HTTPHeaders.equalNames(field.name, "transfer-encoding") {
                // Two fields are one comma-separated list (RFC 9110 §5.3): anything but a single `chunked` is refused.
                guard codings == nil else { return .unsupportedTransferCoding }
                codings = field.value
            }
        }
        guard let codings else { return nil }
        if length != nil { return .lengthAndTransferEncoding }
        return HTTPHeaders.equalNames(codings.trimmingCharacters(in: .whitespaces), "chunked")
            ? nil : .unsupportedTransferCoding
    }

    /// Whether a field name (`isName`) or value holds a byte RFC 9110 does not allow there: any control but HTAB
    /// in a value, any control, space or DEL in a name.
    static func hasInvalidFieldByte(_ bytes: UnsafeRawBufferPointer, isName: Bool) -> Bool {
        for byte in bytes {
            if byte == 0x7F || (byte < 0x20 && (isName || byte != 0x09)) || (isName && byte == 0x20) { return true }
        }
        return false
    }

    private static func isDecimal(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 18
            && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
