import Foundation

/// The signed-in partner user a request acts for.
public struct AuthenticatedUser: Sendable, Hashable {
    /// The partner's own user id (opaque to Baton).
    public let id: String

    /// Creates a user with `id`.
    public init(id: String) { self.id = id }

    /// The longest id accepted, in UTF-8 bytes: ids are stored in every row, bucket and log line of a user.
    public static let maximumIDLength = 256

    /// Whether `id` may name a user: 1 to ``maximumIDLength`` UTF-8 bytes, and no control character (C0, DEL, C1:
    /// `Cc`), so no NUL that a C API would cut the id at ("victim\0x" read as "victim"). ``AuthenticationMiddleware``
    /// refuses any other id, whichever ``Authenticator`` produced it.
    public static func isAcceptableID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maximumIDLength && !hasControlCharacter(id)
    }

    /// Whether `text` holds a C0 or C1 control or DEL. ASCII text (the usual id) is checked byte by byte; only text
    /// with other characters asks for Unicode properties (slower; docs/reliability-history.md has the figure).
    package static func hasControlCharacter(_ text: String) -> Bool {
        for byte in text.utf8 {
            if byte >= 0x80 { return text.unicodeScalars.contains { $0.properties.generalCategory == .control } }
            if byte < 0x20 || byte == 0x7F { return true }
        }
        return false
    }
}
