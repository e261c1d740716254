import BatonCore
import BatonHTTP
import Foundation

/// An asset origin for the sync benchmark: `GET /v2/assets/bench_<n>` answers a distinct real PNG per id (the
/// sandbox's 8×8 PNG with the id appended after `IEND`, which decoders ignore), behind the Chia key.
///
/// The sandbox itself serves only its three fixture images, so a thousand distinct images need this origin.
struct BenchAssetOrigin {
    let server: HTTPServer

    static let png: [UInt8] = Array(
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAFElEQVQImWPU6w5nwAaYsIoOWgkA2T8BINOVpmQAAAAASUVORK5CYII="
        ) ?? Data())

    /// The PNG above is not Base64 (a defect of this file).
    struct UndecodablePNG: Error {}

    init(key: Secret) throws {
        guard !Self.png.isEmpty else { throw UndecodablePNG() }
        var router = Router()
        router.get("/v2/assets/{id}") { request in
            guard request.headers["authorization"] == "Bearer \(key.revealForUse())" else {
                return .text("unauthorized", status: 401)
            }
            let id = request.parameters["id"] ?? ""
            return HTTPResponse(headers: ["content-type": "image/png"], body: Self.png + Array(id.utf8))
        }
        var configuration = HTTPServerConfiguration()
        configuration.threadPoolSize = 2
        server = try HTTPServer.start(configuration, router: router)
    }

    var origin: String { server.url("") }
}
