import BatonCore
import BatonHTTP
import Foundation

/// A Privue verification as the backend keeps it: id and status only (its `journey_url` is dropped).
public struct PrivueVerificationState: Sendable, Hashable {
    /// Privue's verification id.
    public let id: String
    /// Privue's status literal (`pending`, `in_progress`, `approved`, `rejected`, `needs_review`, …).
    public let status: String
    /// When Privue last changed it, if it said.
    public let updatedAt: Date?
}

/// A Privue handoff: the single-use signed-in URL (with its `#ticket=` fragment) and its lifetime.
public struct PrivueHandoff: Sendable, Hashable {
    /// The handoff URL, fragment included; shown only in the one response that creates it.
    public let url: SensitiveURL
    /// Seconds it stays valid (120, seed 001).
    public let expiresInSeconds: Int
}

/// Privue's API as the backend uses it (seed 001), with `Authorization: Bearer <key>`.
package struct PrivueClient: Sendable {
    let origin: String
    let apiKey: Secret
    let caller: ProviderCaller
    let urls: URLPolicy
    /// The hosts a handoff `url` may have (`privue.journeyHosts`): its origin gets the camera in the app.
    let journeyHosts: JourneyHostPins

    /// Creates the user's verification for `workflow`, or gets the existing one (Privue is idempotent per
    /// `user_ref` + `workflow`).
    package func createVerification(
        userRef: String, workflow: String, returnURL: String
    ) async throws -> ProviderResult<
        PrivueVerificationState
    > {
        var body = JSONText()
        body.field("return_url", returnURL)
        body.field("user_ref", userRef)
        body.field("workflow", workflow)
        let exchange = try await caller.send(
            request(.post, "/verifications", body: body.finishBytes()), provider: .privue,
            operation: .createVerification,
            repeatability: .idempotent)
        let result = ProviderJSON.result(exchange, decode: Self.state)
        caller.record(.privue, .createVerification, result)
        return result
    }

    /// A fresh single-use handoff for verification `id`. Not retried once sent: each call mints a new ticket.
    package func createHandoff(verificationID id: String) async throws -> ProviderResult<PrivueHandoff> {
        let exchange = try await caller.send(
            request(.post, "/verifications/\(Self.segment(id))/handoff", body: []), provider: .privue,
            operation: .createHandoff, repeatability: .onlyIfNotSent)
        let result = ProviderJSON.result(exchange) { response -> PrivueHandoff? in
            struct Body: Decodable {
                let url: String
                let expiresInSeconds: Int
                enum CodingKeys: String, CodingKey {
                    case url
                    case expiresInSeconds = "expires_in_seconds"
                }
            }
            guard let body = ProviderJSON.decode(Body.self, response), body.expiresInSeconds > 0,
                let url = urls.journeyURL(body.url), body.url.contains("#")
            else { return nil }
            return PrivueHandoff(url: url, expiresInSeconds: body.expiresInSeconds)
        }
        let pinned = caller.pin(result, to: journeyHosts, .privue, .createHandoff) { $0.url }
        caller.record(.privue, .createHandoff, pinned)
        return pinned
    }

    /// The authoritative state of verification `id`.
    package func verification(id: String) async throws -> ProviderResult<PrivueVerificationState> {
        let exchange = try await caller.send(
            request(.get, "/verifications/\(Self.segment(id))", body: []), provider: .privue,
            operation: .getVerification, repeatability: .idempotent)
        let result = ProviderJSON.result(exchange, decode: Self.state)
        caller.record(.privue, .getVerification, result)
        return result
    }

    private func request(_ method: HTTPMethod, _ path: String, body: [UInt8]) -> OutboundRequest {
        var headers: HTTPHeaders = ["authorization": "Bearer " + apiKey.revealForUse(), "accept": "application/json"]
        if method == .post { headers.add("content-type", "application/json") }
        return OutboundRequest(method: method, url: origin + path, headers: headers, body: body)
    }

    static func state(_ response: OutboundResponse) -> PrivueVerificationState? {
        struct Body: Decodable {
            let id: String
            let status: String
            let updatedAt: String?
            enum CodingKeys: String, CodingKey {
                case id, status
                case updatedAt = "updated_at"
            }
        }
        guard let body = ProviderJSON.decode(Body.self, response), !body.id.isEmpty, !body.status.isEmpty else {
            return nil
        }
        return PrivueVerificationState(
            id: body.id, status: body.status, updatedAt: body.updatedAt.flatMap(RFC3339.date(from:)))
    }

    /// Percent-encodes an opaque id for one path segment.
    static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? id
    }

    /// A client for Privue at `origin` (package-wide for the fuzzing harness, `BatonServerFuzzing`).
    package init(
        origin: String, apiKey: Secret, caller: ProviderCaller, urls: URLPolicy,
        journeyHosts: JourneyHostPins
    ) {
        self.origin = origin
        self.apiKey = apiKey
        self.caller = caller
        self.urls = urls
        self.journeyHosts = journeyHosts
    }
}
