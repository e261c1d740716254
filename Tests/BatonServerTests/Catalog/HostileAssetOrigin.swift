import BatonCrypto
import BatonHTTP
import Foundation
import Synchronization

@testable import BatonServer

/// A misbehaving Chia asset origin on 127.0.0.1, and a second host on 127.0.0.2 that must never be reached.
///
/// Assets (`GET /v2/assets/{id}`), all behind `Bearer <key>`:
/// `png_as_text` a PNG labelled `text/plain`; `jpeg`; `webp`; `html_as_png` HTML labelled `image/png`;
/// `big_png` a 4 KiB PNG; `to_other_host` a 302 to the other host; `same_host_redirect` a 302 to `png_as_text`;
/// `server_error` a 500; `empty` a 200 with no body.
final class HostileAssetOrigin: Sendable {
    let server: HTTPServer
    let otherHost: HTTPServer
    let key: String?
    private let otherHitsCounter: LockedCounter
    private let log: LockedLog

    static let png: [UInt8] = Array(
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAFElEQVQImWPU6w5nwAaYsIoOWgkA2T8BINOVpmQAAAAASUVORK5CYII="
        )!)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0xFF, 0xD9]
    static let webp: [UInt8] =
        Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 14)
    static let bigPNG: [UInt8] = png + [UInt8](repeating: 0, count: 4096)

    /// Creates the origins; with a `key`, any other bearer token is a 401.
    init(key: String?) throws {
        self.key = key
        var other = Router()
        var otherConfiguration = HTTPServerConfiguration()
        otherConfiguration.host = "127.0.0.2"
        let hits = LockedCounter()
        other.get("/{anything}") { _ in
            hits.increment()
            return .text("stolen")
        }
        otherHost = try HTTPServer.start(otherConfiguration, router: other)
        self.otherHitsCounter = hits
        let otherURL = otherHost.url("/steal")
        var router = Router()
        let log = LockedLog()
        self.log = log
        router.get("/v2/assets/{id}") { request in
            log.append("\(request.parameters["id"] ?? "") \(request.headers["authorization"] ?? "none")")
            if let key, request.headers["authorization"] != "Bearer \(key)" { return .text("no", status: 401) }
            switch request.parameters["id"] ?? "" {
            case "png_as_text": return HTTPResponse(headers: ["content-type": "text/plain"], body: Self.png)
            case "jpeg": return HTTPResponse(headers: ["content-type": "image/jpeg"], body: Self.jpeg)
            case "webp": return HTTPResponse(headers: ["content-type": "application/octet-stream"], body: Self.webp)
            case "html_as_png":
                return HTTPResponse(headers: ["content-type": "image/png"], body: Array("<html>hi</html>".utf8))
            case "big_png": return HTTPResponse(headers: ["content-type": "image/png"], body: Self.bigPNG)
            case "to_other_host": return HTTPResponse(status: 302, headers: ["location": otherURL])
            case "same_host_redirect": return HTTPResponse(status: 302, headers: ["location": "/v2/assets/png_as_text"])
            case "server_error": return .text("boom", status: 500)
            case "empty": return HTTPResponse(headers: ["content-type": "image/png"])
            default: return .text("not found", status: 404)
            }
        }
        server = try HTTPServer.start(router: router)
    }

    var origin: String { server.url("") }
    /// Requests the other host received.
    var otherHostRequests: Int { otherHitsCounter.value }
    /// `"<asset id> <authorization>"` per request received.
    var requests: [String] { log.all }

    func shutdown() async {
        await server.shutdown(grace: .seconds(1))
        await otherHost.shutdown(grace: .seconds(1))
    }
}

final class LockedCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

final class LockedLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}
