import BatonCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The production ``BackendClient``: the partner backend's `/v2` routes over a ``BackendTransport``.
///
/// Every request carries `Authorization: Bearer <token>` from `tokenProvider` and ignores local caches; the share
/// request carries `Idempotency-Key`. Non-2xx answers become ``BackendError`` with the status, the problem+json
/// `code` and `Retry-After`; no error ever contains the request, the token or a URL.
public struct URLSessionBackendClient: BackendClient {
    /// The partner backend's origin, for example `https://partner.example`.
    public let baseURL: URL
    private let tokenProvider: @Sendable () async -> Secret?
    private let transport: any BackendTransport
    private let timeout: TimeInterval

    /// A client for `baseURL` that asks `tokenProvider` for the app token before each call.
    public init(
        baseURL: URL, tokenProvider: @escaping @Sendable () async -> Secret?,
        transport: any BackendTransport = URLSessionTransport(), timeout: TimeInterval = 30
    ) {
        self.baseURL = baseURL
        self.tokenProvider = tokenProvider
        self.transport = transport
        self.timeout = timeout
    }

    public func catalog() async throws(BackendError) -> [CatalogCard] {
        let data = try await send("GET", path: ["v2", "catalog"])
        return try BackendResponseDecoding.catalogCards(from: data)
    }

    public func createHandoffSession(_ attempt: PendingAttempt) async throws(BackendError) -> HandoffSession {
        let data = try await send(
            "POST", path: ["v2", "handoff-sessions"], body: attempt.body.jsonData(),
            headers: ["Idempotency-Key": attempt.key.rawValue])
        return try BackendResponseDecoding.decode(HandoffSession.self, from: data)
    }

    public func createVerificationHandoff(workflow: String) async throws(BackendError) -> VerificationHandoff {
        let body = Data(VerificationHandoffRequest(workflow: workflow).jsonBody)
        let data = try await send("POST", path: ["v2", "verification-handoffs"], body: body)
        return try BackendResponseDecoding.decode(VerificationHandoff.self, from: data)
    }

    public func verification(workflow: String) async throws(BackendError) -> VerificationState {
        let data = try await send("GET", path: ["v2", "verifications", workflow])
        return try BackendResponseDecoding.decode(VerificationState.self, from: data)
    }

    public func createConnectSession(callback: ConnectCallback.Kind) async throws(BackendError) -> ConnectSession {
        let body = Data(ConnectSessionRequest(callback: callback).jsonBody)
        let data = try await send("POST", path: ["v2", "connect-sessions"], body: body)
        return try BackendResponseDecoding.decode(ConnectSession.self, from: data)
    }

    public func connectSession(id: String) async throws(BackendError) -> ConnectSessionState {
        let data = try await send("GET", path: ["v2", "connect-sessions", id])
        return try BackendResponseDecoding.decode(ConnectSessionState.self, from: data)
    }

    /// The request for `method` on `path` (each segment percent-encoded), without sending it.
    func request(
        _ method: String, path: [String], body: Data? = nil, headers: [String: String] = [:], token: Secret
    ) -> URLRequest {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        for segment in path {
            text += "/" + (segment.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "")
        }
        let url = URL(string: text) ?? baseURL
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("Bearer \(token.revealForUse())", forHTTPHeaderField: "Authorization")
        request.setValue("application/json, application/problem+json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private func send(
        _ method: String, path: [String], body: Data? = nil, headers: [String: String] = [:]
    ) async throws(BackendError) -> Data {
        guard let token = await tokenProvider() else { throw BackendError(.notAuthenticated) }
        let request = request(method, path: path, body: body, headers: headers, token: token)
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch let error as URLError {
            throw BackendError(.transport(Self.transportFailure(error)))
        } catch {
            throw BackendError(.transport(.connectionFailed))
        }
        guard (200...299).contains(response.statusCode) else {
            throw BackendError(
                .http(
                    status: response.statusCode, code: BackendResponseDecoding.problemCode(from: data),
                    retryAfter: response.value(forHTTPHeaderField: "Retry-After")))
        }
        return data
    }

    /// RFC 3986 unreserved characters: an opaque id is always one path segment, never parsed.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func transportFailure(_ error: URLError) -> ShareRequestOutcome.TransportFailure {
        switch error.code {
        case .timedOut: .timedOut
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse: .connectionReset
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            .tlsFailure
        default: .connectionFailed
        }
    }
}
