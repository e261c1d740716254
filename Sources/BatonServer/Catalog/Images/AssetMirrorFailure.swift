/// Why one catalog image was not mirrored (its item is then hidden). Carries no URL, key or body.
public enum AssetMirrorFailure: String, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The item names no image asset, or an asset id that cannot be put in a URL path segment.
    case noAsset = "no_asset"
    /// The asset origin's host did not resolve.
    case resolution
    /// The asset origin resolved to an address its policy forbids (a private address for a public origin, or a
    /// non-loopback address for a loopback development origin).
    case forbiddenAddress = "forbidden_address"
    /// The origin answered with a redirect; redirects are never followed.
    case redirect
    /// The origin answered with a status other than 200.
    case status
    /// No response (connect failure, timeout, reset), or the body went over the transport's limit.
    case transport
    /// The body is larger than the configured maximum.
    case tooLarge = "too_large"
    /// The body is empty.
    case empty
    /// The bytes are not a PNG, JPEG or WebP, whatever the `Content-Type` said.
    case unsupportedType = "unsupported_type"
    /// The bytes could not be stored.
    case storage

    public var description: String { "AssetMirrorFailure.\(rawValue)" }
}
