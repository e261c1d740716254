import BatonClient
import BatonCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking  // Linux, where scripts/typecheck-apple checks this file; on iOS, Foundation has it all
#endif

/// Signs a test user in against `baton serve --sandbox`: `POST /web/dev-token?user=ID` answers a token for that user
/// to a local request only (docs/CONTRACTS.md). A real app signs in against its own identity provider instead.
enum SandboxSignIn {
    /// Why signing in failed (never the token).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct TokenAnswer: Decodable {
        let token: String
    }

    /// The app token for `userID`.
    static func token(for userID: String, backend: URL = SampleConfiguration.backend) async throws -> Secret {
        var components = URLComponents(url: backend, resolvingAgainstBaseURL: false)
        components?.path = "/web/dev-token"
        components?.queryItems = [URLQueryItem(name: "user", value: userID)]
        guard let url = components?.url else { throw Failure(description: "the backend URL is not valid") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let (data, response) = try await URLSessionTransport().send(request)
        guard response.statusCode == 200 else {
            throw Failure(description: "dev-token answered \(response.statusCode): is baton serve --sandbox running?")
        }
        return Secret(try JSONDecoder().decode(TokenAnswer.self, from: data).token)
    }
}
