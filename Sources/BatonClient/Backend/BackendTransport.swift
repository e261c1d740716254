import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The seam every backend call goes through: one request in, one response out (swift-openapi's `ClientTransport`).
public protocol BackendTransport: Sendable {
    /// Sends `request`; throws `URLError` when no HTTP response arrived.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// A ``BackendTransport`` over `URLSession`, by default an ephemeral session with no URL cache, so a response
/// carrying a journey URL is never written to disk whatever its headers say.
public struct URLSessionTransport: BackendTransport {
    private let session: URLSession

    /// Wraps `session`.
    public init(session: URLSession) { self.session = session }

    /// An ephemeral session without a URL cache, cookies or credential storage.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        self.init(session: URLSession(configuration: configuration))
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.cancellableData(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}
