import BatonCore
import Foundation

/// Decoding of the app-facing API's bodies (CONTRACTS §2); every failure is ``BackendError/Kind/malformedResponse``.
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

    static func json(_ object: [String: String]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)) ?? Data()
    }

    /// The `code` of a problem+json body, when there is one.
    static func problemCode(from data: Data) -> String? {
        struct Problem: Decodable { let code: String? }
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

    static func handoffSession(from data: Data, urls: URLPolicy = .production) throws(BackendError) -> HandoffSession {
        struct Body: Decodable {
            let url: SensitiveURL
            let expiresAt: String?
        }
        let body = try decode(Body.self, from: data, urls: urls)
        return HandoffSession(url: body.url, expiresAt: body.expiresAt.flatMap(RFC3339.date(from:)))
    }

    static func verificationHandoff(
        from data: Data, urls: URLPolicy = .production
    ) throws(BackendError) -> VerificationHandoff {
        struct Body: Decodable {
            let url: SensitiveURL
            let expiresInSeconds: Int?
        }
        let body = try decode(Body.self, from: data, urls: urls)
        return VerificationHandoff(url: body.url, expiresInSeconds: body.expiresInSeconds)
    }

    /// `{"sessionId","hostedUrl","callback":{"kind":"https"|"custom-scheme",…}}` (a bare kind string is accepted).
    static func connectSession(from data: Data, urls: URLPolicy = .production) throws(BackendError) -> ConnectSession {
        struct Callback: Decodable {
            let kind: ConnectCallback.Kind
            enum CodingKeys: String, CodingKey { case kind }
            init(from decoder: any Decoder) throws {
                if let kind = try? decoder.singleValueContainer().decode(ConnectCallback.Kind.self) {
                    self.kind = kind
                } else {
                    kind = try decoder.container(keyedBy: CodingKeys.self).decode(
                        ConnectCallback.Kind.self, forKey: .kind)
                }
            }
        }
        struct Body: Decodable {
            let sessionId: String
            let hostedUrl: SensitiveURL
            let callback: Callback
        }
        let body = try decode(Body.self, from: data, urls: urls)
        guard !body.sessionId.isEmpty else { throw BackendError(.malformedResponse) }
        return ConnectSession(sessionID: body.sessionId, hostedURL: body.hostedUrl, callbackKind: body.callback.kind)
    }
}
