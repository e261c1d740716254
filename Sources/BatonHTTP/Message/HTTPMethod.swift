/// An HTTP request method, compared case-sensitively as RFC 9110 requires.
public struct HTTPMethod: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The method token as it appears on the request line.
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a method token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `GET`.
    public static let get = HTTPMethod("GET")
    /// `HEAD`.
    public static let head = HTTPMethod("HEAD")
    /// `POST`.
    public static let post = HTTPMethod("POST")
    /// `PUT`.
    public static let put = HTTPMethod("PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod("DELETE")
    /// `OPTIONS`.
    public static let options = HTTPMethod("OPTIONS")

    public var description: String { rawValue }
}
