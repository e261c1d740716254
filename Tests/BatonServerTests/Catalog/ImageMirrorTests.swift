import BatonCore
import BatonCrypto
import BatonHTTP
import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// Image mirroring over real HTTP against a misbehaving asset origin, and the address policy with injected DNS.
@Suite("Image mirroring")
struct ImageMirrorTests {
    let key = "chia_test_key_0123456789"

    private func withMirror(
        maxImageBytes: Int = 1024, transport: (any HTTPTransport)? = nil,
        _ body: (ImageMirror, HostileAssetOrigin, any Store) async throws -> Void
    ) async throws {
        let hostile = try HostileAssetOrigin(key: key)
        let database = try TemporaryDatabase(.sqlite)
        let store = try await database.open()
        let origin = try #require(AssetOrigin(hostile.origin, allowsLoopbackHTTP: true))
        let mirror = ImageMirror(
            origin: origin, apiKey: Secret(key), transport: transport ?? CurlTransport(), store: store,
            maxImageBytes: maxImageBytes)
        do {
            try await body(mirror, hostile, store)
        } catch {
            Issue.record(error)
        }
        await hostile.shutdown()
        await store.close()
        database.remove()
    }

    private func failure(_ mirror: ImageMirror, _ assetID: String) async -> AssetMirrorFailure? {
        do {
            _ = try await mirror.mirror(assetID: assetID, itemID: "item", now: t0)
            return nil
        } catch {
            return error
        }
    }

    @Test func theTypeComesFromTheMagicBytesNotTheContentType() async throws {
        try await withMirror { mirror, hostile, store in
            try await mirror.checkOrigin()
            let png = try await mirror.mirror(assetID: "png_as_text", itemID: "cat_a", now: t0)
            #expect(png == MirroredImage(sha256: SHA256.hexDigest(HostileAssetOrigin.png), format: .png))
            #expect(try await store.assetBytes(sha256: png.sha256) == HostileAssetOrigin.png)
            let record = try #require(try await store.mirroredAsset(sha256: png.sha256))
            #expect(record.contentType == "image/png" && record.assetID == "png_as_text" && record.itemID == "cat_a")
            #expect(try await mirror.mirror(assetID: "jpeg", itemID: "x", now: t0).fileExtension == "jpg")
            #expect(try await mirror.mirror(assetID: "webp", itemID: "x", now: t0).fileExtension == "webp")
            // The key goes to the asset origin, as a bearer token.
            #expect(hostile.requests.allSatisfy { $0.hasSuffix("Bearer \(key)") })
        }
    }

    @Test func bytesThatAreNotAnImageAreRejectedWhateverTheyAreLabelled() async throws {
        try await withMirror { mirror, _, store in
            #expect(await failure(mirror, "html_as_png") == .unsupportedType)
            #expect(await failure(mirror, "empty") == .empty)
            let stored = try await store.mirroredAsset(assetID: "html_as_png")
            #expect(stored == nil)
        }
    }

    @Test func anOversizedImageIsRejected() async throws {
        try await withMirror { mirror, _, _ in
            #expect(await failure(mirror, "big_png") == .tooLarge)
        }
        // With the transport's own limit at the cap, the download is cut off instead of read whole.
        var limits = CurlTransport.Configuration()
        limits.maxResponseBytes = 1024
        try await withMirror(transport: CurlTransport(configuration: limits)) { mirror, _, _ in
            #expect(await failure(mirror, "big_png") == .tooLarge)
            #expect(await failure(mirror, "png_as_text") == nil)
        }
    }

    @Test func redirectsAreNeverFollowedAndTheOtherHostIsNeverReached() async throws {
        try await withMirror { mirror, hostile, _ in
            #expect(await failure(mirror, "to_other_host") == .redirect)
            #expect(await failure(mirror, "same_host_redirect") == .redirect)
            #expect(hostile.otherHostRequests == 0)
            #expect(await failure(mirror, "server_error") == .status)
            #expect(await failure(mirror, "missing") == .status)
        }
    }

    @Test(arguments: ["", "../admin", "a/b", "a?b", "a#b", "a%2Fb", "a b", "..", "é"])
    func anAssetIDThatCouldChangeTheURLIsRefusedWithoutARequest(_ assetID: String) async throws {
        try await withMirror { mirror, hostile, _ in
            #expect(await failure(mirror, assetID) == .noAsset)
            #expect(hostile.requests.isEmpty)
        }
    }

    @Test func theOriginMayOnlyResolveToAddressesItsPolicyPermits() async throws {
        let database = try TemporaryDatabase(.sqlite)
        let store = try await database.open()
        defer { database.remove() }
        func mirror(_ origin: String, resolving addresses: [String]) throws -> ImageMirror {
            let parsed = addresses.compactMap(IPAddress.init(literal:))
            return ImageMirror(
                origin: try #require(AssetOrigin(origin, allowsLoopbackHTTP: true)), apiKey: Secret(key),
                transport: CurlTransport(), store: store, maxImageBytes: 1024, resolve: { _ in parsed })
        }
        func check(_ mirror: ImageMirror) async -> AssetMirrorFailure? {
            do {
                try await mirror.checkOrigin()
                return nil
            } catch {
                return error
            }
        }
        let publicOrigin = "https://assets.chia.example"
        #expect(await check(try mirror(publicOrigin, resolving: ["93.184.216.34", "2606:2800:220:1::1"])) == nil)
        for forbidden in [
            "10.0.0.5", "127.0.0.1", "169.254.169.254", "192.168.1.1", "100.64.0.1", "::1", "fd00::1",
            "::ffff:10.0.0.1", "fe80::1", "0.0.0.0",
        ] {
            #expect(
                await check(try mirror(publicOrigin, resolving: ["93.184.216.34", forbidden])) == .forbiddenAddress,
                "\(forbidden)")
        }
        #expect(await check(try mirror(publicOrigin, resolving: [])) == .resolution)
        // A loopback development origin may only resolve to loopback.
        #expect(await check(try mirror("http://localhost:9001", resolving: ["127.0.0.1", "::1"])) == nil)
        #expect(await check(try mirror("http://localhost:9001", resolving: ["192.168.1.10"])) == .forbiddenAddress)
        // The real resolver: a loopback literal.
        let real = ImageMirror(
            origin: try #require(AssetOrigin("http://127.0.0.1:9", allowsLoopbackHTTP: true)), apiKey: Secret(key),
            transport: CurlTransport(), store: store, maxImageBytes: 1024)
        #expect(await check(real) == nil)
        await store.close()
    }

    @Test func theDownloadConnectsOnlyToTheAddressesThatWereChecked() async throws {
        let database = try TemporaryDatabase(.sqlite)
        let store = try await database.open()
        defer { database.remove() }
        let transport = PinRecordingTransport()
        let answers = Mutex([["93.184.216.34"], ["10.0.0.5"]])  // the second lookup would rebind to a private address
        let mirror = ImageMirror(
            origin: try #require(AssetOrigin("https://assets.chia.example", allowsLoopbackHTTP: false)),
            apiKey: Secret(key), transport: transport, store: store, maxImageBytes: 1024,
            resolve: { _ in answers.withLock { $0.removeFirst() }.compactMap(IPAddress.init(literal:)) })
        let checked = try await mirror.checkOrigin()
        _ = try await mirror.mirror(assetID: "png", itemID: "cat_a", now: t0, checkedAddresses: checked)
        #expect(transport.pinned == [["93.184.216.34"]])
        // Without addresses from a batch check, the mirror checks (and refuses) the fresh answer itself.
        await #expect(throws: AssetMirrorFailure.forbiddenAddress) {
            _ = try await mirror.mirror(assetID: "png", itemID: "cat_a", now: t0)
        }
        #expect(transport.pinned.count == 1)
        await store.close()
    }
}

/// Answers every request with a tiny PNG and records the addresses each request was pinned to.
private final class PinRecordingTransport: HTTPTransport {
    private let requests = Mutex<[[String]]>([])

    var pinned: [[String]] { requests.withLock { $0 } }

    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        requests.withLock { $0.append(request.pinnedAddresses) }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 24)
        return OutboundResponse(status: 200, headers: ["content-type": "image/png"], body: png)
    }
}
