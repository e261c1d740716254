import BatonClient
import BatonCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking  // Linux, where scripts/typecheck-apple checks this file; on iOS, Foundation has it all
#endif

/// Signs a test user in against `baton serve --sandbox`: `POST /web/dev-token?user=ID` answers a token for that user
/// to a local request only, and only with this run's dev sign-in secret in `X-Baton-Dev-Secret` (docs/CONTRACTS.md):
/// `baton serve --sandbox` prints it at start (`baton serve: dev sign-in secret …`, a new one each run) and writes it
/// to `.baton/dev-sign-in-secret` in the folder it runs in. A real app signs in against its own identity provider
/// instead.
enum SandboxSignIn {
    /// Why signing in failed (never the token or the secret).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct TokenAnswer: Decodable {
        let token: String
    }

    /// The app token for `userID`, given the dev sign-in secret the developer pasted (surrounding whitespace ignored).
    static func token(
        for userID: String, devSecret: String, backend: URL = SampleConfiguration.backend
    ) async throws -> Secret {
        let secret = devSecret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else {
            throw Failure(description: "paste the dev sign-in secret that baton serve --sandbox printed at start")
        }
        var components = URLComponents(url: backend, resolvingAgainstBaseURL: false)
        components?.path = "/web/dev-token"
        components?.queryItems = [URLQueryItem(name: "user", value: userID)]
        guard let url = components?.url else { throw Failure(description: "the backend URL is not valid") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue(secret, forHTTPHeaderField: "X-Baton-Dev-Secret")
        let (data, response) = try await URLSessionTransport().send(request)
        if response.statusCode == 403 {
            throw Failure(
                description: "dev-token answered 403: copy the dev sign-in secret this run of the sandbox printed")
        }
        guard response.statusCode == 200 else {
            throw Failure(description: "dev-token answered \(response.statusCode): is baton serve --sandbox running?")
        }
        return Secret(try JSONDecoder().decode(TokenAnswer.self, from: data).token)
    }
}
