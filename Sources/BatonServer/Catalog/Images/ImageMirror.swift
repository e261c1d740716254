import BatonCore
import BatonCrypto
import BatonHTTP
import Foundation

/// An image stored by the backend under its SHA-256, served at the neutral `/assets/<sha256>.<ext>`.
public struct MirroredImage: Sendable, Hashable, Codable {
    /// SHA-256 hex of the bytes.
    public var sha256: String
    /// The format the bytes' magic says they are.
    public var fileExtension: String

    /// Creates a reference.
    public init(sha256: String, format: ImageFormat) {
        self.sha256 = sha256
        self.fileExtension = format.fileExtension
    }

    /// `<sha256>.<ext>`.
    public var fileName: String { "\(sha256).\(fileExtension)" }
}

/// Downloads one authenticated Chia image from the configured asset origin, checks it and stores it by SHA-256.
///
/// The request carries the API key and goes only to ``AssetOrigin/assetURL(assetID:)``; the response must be a
/// `200` (a redirect is a failure, never followed; the transport does not follow redirects either), at most
/// `maxImageBytes` long, and start with PNG, JPEG or WebP magic bytes — the `Content-Type` header is ignored. The
/// key and the asset URL are never logged or put in an error.
public struct ImageMirror: Sendable {
    let origin: AssetOrigin
    let apiKey: Secret
    let transport: any HTTPTransport
    let store: any Store
    let maxImageBytes: Int
    let timeout: Duration
    let resolve: @Sendable (String) async -> [IPAddress]

    /// Creates a mirror. Give it a transport whose own response limit is near `maxImageBytes` (for
    /// `CurlTransport`, `maxResponseBytes`), so an oversized body is cut off while downloading. `resolve` is
    /// the system resolver unless a test injects DNS answers.
    public init(
        origin: AssetOrigin, apiKey: Secret, transport: any HTTPTransport, store: any Store, maxImageBytes: Int,
        timeout: Duration = .seconds(30),
        resolve: @escaping @Sendable (String) async -> [IPAddress] = IPAddress.systemResolve
    ) {
        self.resolve = resolve
        self.origin = origin
        self.apiKey = apiKey
        self.transport = transport
        self.store = store
        self.maxImageBytes = maxImageBytes
        self.timeout = timeout
    }

    /// Checks that the asset origin resolves only to addresses its policy permits and returns them; run before a
    /// batch of downloads and hand the result to each ``mirror(assetID:itemID:now:checkedAddresses:)``.
    @discardableResult
    public func checkOrigin() async throws(AssetMirrorFailure) -> [IPAddress] {
        let addresses = await resolve(origin.resolvableHost)
        try origin.check(resolved: addresses)
        return addresses
    }

    /// Downloads, checks and stores the asset `assetID` of catalog item `itemID`.
    ///
    /// The download connects only to `checkedAddresses` (from ``checkOrigin()``; checked afresh when `nil`): the
    /// host is pinned to them, so a DNS answer that changes between the check and the connection (rebinding) is
    /// never used.
    public func mirror(
        assetID: String?, itemID: String, now: Date, checkedAddresses: [IPAddress]? = nil
    ) async throws(AssetMirrorFailure) -> MirroredImage {
        guard let assetID, let url = origin.assetURL(assetID: assetID) else { throw .noAsset }
        let addresses: [IPAddress]
        if let checkedAddresses { addresses = checkedAddresses } else { addresses = try await checkOrigin() }
        var headers = HTTPHeaders()
        headers.add("authorization", "Bearer \(apiKey.revealForUse())")
        headers.add("accept", "image/png, image/jpeg, image/webp")
        var request = OutboundRequest(url: url, headers: headers, timeout: timeout)
        request.pinnedAddresses = addresses.map(\.description)
        let response: OutboundResponse
        do {
            response = try await transport.send(request)
        } catch let error as TransportError where error.kind == .responseTooLarge {
            throw .tooLarge
        } catch {
            throw .transport
        }
        let bytes = try check(response)
        guard let format = ImageFormat(sniffing: bytes) else { throw .unsupportedType }
        let sha256 = SHA256.hexDigest(bytes)
        do {
            try await store.saveAssetBytes(sha256: sha256, bytes: bytes, now: now)
            try await store.saveMirroredAsset(
                MirroredAsset(
                    assetID: assetID, itemID: itemID, sha256: sha256, fileExtension: format.fileExtension,
                    contentType: format.contentType, byteCount: bytes.count, mirroredAt: now))
        } catch {
            throw .storage
        }
        return MirroredImage(sha256: sha256, format: format)
    }

    private func check(_ response: OutboundResponse) throws(AssetMirrorFailure) -> [UInt8] {
        if (300..<400).contains(response.status) { throw .redirect }
        guard response.status == 200 else { throw .status }
        if let declared = response.headers["content-length"].flatMap(Int.init), declared > maxImageBytes {
            throw .tooLarge
        }
        guard response.body.count <= maxImageBytes else { throw .tooLarge }
        guard !response.body.isEmpty else { throw .empty }
        return response.body
    }
}
