import BatonClient
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``BackendTransport`` over an ephemeral `URLSession` that never follows a redirect, stores no cookie and caches
/// nothing: the ``HeadlessPresenter`` sees every `3xx` and decides itself (a return link must be caught, not loaded).
public struct NonRedirectingURLSessionTransport: BackendTransport {
    /// Refuses every redirect, so the `3xx` response itself is delivered.
    final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    private let session: URLSession

    /// Creates the transport.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.cancellableData(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}
