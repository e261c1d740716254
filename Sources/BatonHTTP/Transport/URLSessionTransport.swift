import BatonCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` on `URLSession`: the platform's own client on Apple platforms and in the app.
///
/// Redirects are not followed (as with ``CurlTransport``), nothing is cached or stored in cookies, and each request's
/// ``OutboundRequest/timeout`` bounds the whole exchange. Failures are ``TransportError``s; cancelling the calling
/// task cancels the data task and throws `CancellationError`.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport on an ephemeral session allowing `maxConnectionsPerHost` parallel connections per host.
    public init(maxConnectionsPerHost: Int = 64) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        self.session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        guard let url = URL(string: request.url), url.scheme == "http" || url.scheme == "https" else {
            throw TransportError(.other, detail: "not an absolute http(s) URL")
        }
        guard request.pinnedAddresses.isEmpty else {
            throw TransportError(.other, detail: "URLSession cannot pin addresses; use CurlTransport")
        }
        guard request.connectTo == nil else {
            throw TransportError(.other, detail: "URLSession cannot connect to another address; use CurlTransport")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.timeoutInterval = Double(request.timeout.components.seconds) + 1
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let session = self.session
        let frozen = urlRequest

        return try await withThrowingTaskGroup(of: OutboundResponse.self) { group in
            group.addTask {
                do {
                    let (data, response) = try await session.cancellableData(for: frozen)
                    guard let http = response as? HTTPURLResponse else {
                        throw TransportError(.other, detail: "not an HTTP response")
                    }
                    var headers = HTTPHeaders()
                    for (name, value) in http.allHeaderFields {
                        headers.add(String(describing: name), String(describing: value))
                    }
                    return OutboundResponse(status: http.statusCode, headers: headers, body: Array(data))
                } catch let error as URLError {
                    throw Self.transportError(error)
                }
            }
            group.addTask {
                try await Task.sleep(for: request.timeout)
                throw TransportError(.timedOut, detail: "request timeout passed")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    private static func transportError(_ error: URLError) -> any Error {
        let detail = "URLError \(error.code.rawValue)"
        switch error.code {
        case .cancelled: return CancellationError()
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return TransportError(.connectFailed, detail: detail)
        case .timedOut: return TransportError(.timedOut, detail: detail)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            return TransportError(.tls, detail: detail)
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            return TransportError(.connectionReset, detail: detail)
        default: return TransportError(.other, detail: detail)
        }
    }
}

/// Refuses every redirect so the caller sees the 3xx, as with ``CurlTransport``.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
