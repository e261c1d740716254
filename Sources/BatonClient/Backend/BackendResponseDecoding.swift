import BatonCore
import Foundation

/// Decoding of the app-facing API's bodies (CONTRACTS §2) into the types of `BatonCore/API`; every failure is
/// ``BackendError/Kind/malformedResponse``.
enum BackendResponseDecoding {
    /// Decodes `type`; URLs in it are checked under `urls`.
    static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, urls: URLPolicy = .production
    ) throws(BackendError) -> T {
        let decoder = RFC3339.jsonDecoder()
        decoder.userInfo.merge(urls.decoderUserInfo) { $1 }
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw BackendError(.malformedResponse)
        }
    }

    /// The `code` of a problem+json body, when there is one; an unknown code keeps its raw value.
    static func problemCode(from data: Data) -> ProblemCode? {
        struct Problem: Decodable { let code: ProblemCode? }
        return (try? JSONDecoder().decode(Problem.self, from: data))?.code
    }

    /// `GET /v2/catalog`: `{"items": [CatalogCard…]}` (CONTRACTS §2, the server's shape). A card that does not
    /// decode strictly is dropped: an item that cannot be rendered safely is not rendered at all.
    static func catalogCards(from data: Data, urls: URLPolicy = .production) throws(BackendError) -> [CatalogCard] {
        struct Lenient: Decodable {
            let card: CatalogCard?
            init(from decoder: any Decoder) throws { card = try? CatalogCard(from: decoder) }
        }
        struct Envelope: Decodable { let items: [Lenient] }
        return try decode(Envelope.self, from: data, urls: urls).items.compactMap(\.card)
    }
}
