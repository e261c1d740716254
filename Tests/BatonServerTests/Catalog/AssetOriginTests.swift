import Testing

@testable import BatonServer

@Suite("Asset origin, addresses and image formats")
struct AssetOriginTests {
    @Test func onlyHTTPSOrLoopbackHTTPInDevelopmentIsAnAssetOrigin() throws {
        #expect(AssetOrigin("https://assets.chia.example", allowsLoopbackHTTP: false) != nil)
        #expect(AssetOrigin("https://assets.chia.example/", allowsLoopbackHTTP: false) != nil)
        #expect(AssetOrigin("http://assets.chia.example", allowsLoopbackHTTP: true) == nil)
        #expect(AssetOrigin("http://127.0.0.1:9001", allowsLoopbackHTTP: false) == nil)
        #expect(AssetOrigin("http://127.0.0.1:9001", allowsLoopbackHTTP: true)?.isLoopbackOrigin == true)
        #expect(AssetOrigin("http://[::1]:9001", allowsLoopbackHTTP: true)?.isLoopbackOrigin == true)
        #expect(AssetOrigin("https://assets.chia.example/v2", allowsLoopbackHTTP: false) == nil)
        #expect(AssetOrigin("https://user@assets.chia.example", allowsLoopbackHTTP: false) == nil)
        #expect(AssetOrigin("https://assets.chia.example?x=1", allowsLoopbackHTTP: false) == nil)
        let origin = try #require(AssetOrigin("https://Assets.Chia.example:8443", allowsLoopbackHTTP: false))
        #expect(origin.assetURL(assetID: "img_1") == "https://assets.chia.example:8443/v2/assets/img_1")
        #expect(!origin.isLoopbackOrigin && origin.port == 8443)
    }

    @Test(arguments: [
        ("8.8.8.8", true), ("93.184.216.34", true), ("2606:4700::1111", true),
        ("10.1.2.3", false), ("172.16.0.1", false), ("172.31.255.255", false), ("172.32.0.1", true),
        ("192.168.0.1", false), ("127.0.0.1", false), ("169.254.169.254", false), ("100.64.0.1", false),
        ("0.0.0.0", false), ("224.0.0.1", false), ("255.255.255.255", false), ("192.0.2.1", false),
        ("198.18.0.1", false), ("::1", false), ("::", false), ("fe80::1", false), ("fc00::1", false),
        ("ff02::1", false), ("::ffff:192.168.1.1", false), ("::ffff:8.8.8.8", true), ("2001:db8::1", false),
        ("2002:c0a8:0101::1", false),
    ])
    func publicUnicastAddresses(_ literal: String, _ isPublic: Bool) throws {
        let address = try #require(IPAddress(literal: literal))
        #expect(address.isPublicUnicast == isPublic)
    }

    @Test func loopbackAddresses() throws {
        #expect(IPAddress(literal: "127.0.0.1")?.isLoopback == true)
        #expect(IPAddress(literal: "127.255.0.9")?.isLoopback == true)
        #expect(IPAddress(literal: "[::1]")?.isLoopback == true)
        #expect(IPAddress(literal: "::ffff:127.0.0.1")?.isLoopback == true)
        #expect(IPAddress(literal: "10.0.0.1")?.isLoopback == false)
        #expect(IPAddress(literal: "localhost") == nil)
        #expect(IPAddress(literal: "::1")?.description == "::1")
    }

    @Test func imageFormatsAreRecognisedByTheirMagicBytes() {
        #expect(ImageFormat(sniffing: HostileAssetOrigin.png) == .png)
        #expect(ImageFormat(sniffing: HostileAssetOrigin.jpeg) == .jpeg)
        #expect(ImageFormat(sniffing: HostileAssetOrigin.webp) == .webp)
        #expect(ImageFormat(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == nil)
        #expect(ImageFormat(sniffing: Array("GIF89a".utf8)) == nil)
        #expect(ImageFormat(sniffing: Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(ImageFormat(sniffing: []) == nil)
        #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(ImageFormat(fileExtension: "jpg") == .jpeg && ImageFormat(fileExtension: "jpeg") == nil)
    }
}
