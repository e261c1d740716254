import BatonCore
import BatonHTTP
import Foundation

/// One answer the kit received, with its body read as JSON when it is JSON.
struct VerifyReply: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]
    /// The body as JSON, or `nil` when it is empty or not JSON.
    let json: JSONValue?

    init(_ response: OutboundResponse) {
        status = response.status
        headers = response.headers
        body = response.body
        json = response.body.isEmpty ? nil : try? JSONValue.parse(response.body)
    }

    /// `Cache-Control` holds the `no-store` directive.
    var isNoStore: Bool {
        headers.values(for: "cache-control").joined(separator: ",").split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces).lowercased() == "no-store"
        }
    }

    /// A short description for a failure message: the status and, for a problem, its code (never the body).
    var summary: String {
        if let code = json?["code"]?.stringValue { return "\(status) \(code)" }
        return "\(status)"
    }

    /// Checks the answer is `status` as RFC 9457 `application/problem+json` with `code`, `status` matching, and
    /// `type` and `title` strings (docs/CONTRACTS.md §2, "Errors are application/problem+json").
    func expectProblem(_ status: Int, _ code: String, _ what: String) throws(CheckFailure) {
        try expectProblem([status], code, what)
    }

    /// As ``expectProblem(_:_:_:)-(Int,_,_)``, for any of `statuses`.
    func expectProblem(_ statuses: Set<Int>, _ code: String?, _ what: String) throws(CheckFailure) {
        let expected = statuses.sorted().map(String.init).joined(separator: "/") + (code.map { " " + $0 } ?? "")
        try expect(statuses.contains(status), "\(what): expected \(expected), got \(summary)")
        let type = headers["content-type"]?.lowercased() ?? ""
        try expect(
            type.hasPrefix("application/problem+json"),
            "\(what): a \(status) must be application/problem+json, got '\(type)'")
        guard let json, json.members != nil else {
            throw CheckFailure("\(what): the problem body is not a JSON object")
        }
        if let code {
            try expect(json["code"]?.stringValue == code, "\(what): expected code \(code), got \(summary)")
        }
        try expect(json["status"]?.intValue == status, "\(what): the problem's status member is not \(status)")
        try expect(
            json["type"]?.stringValue != nil && json["title"]?.stringValue != nil,
            "\(what): the problem has no type or title string")
    }

    /// The `Retry-After` value in whole seconds when present and well-formed (delta-seconds or an HTTP date).
    var retryAfter: RetryAfter? { headers["retry-after"].flatMap(RetryAfter.init(headerValue:)) }
}

/// The kit's HTTP: the project's libcurl transport, one request at a time per call, bounded by a timeout.
struct VerifyHTTP: Sendable {
    let transport: any HTTPTransport
    var timeout: Duration = .seconds(30)

    func send(
        _ method: HTTPMethod, _ url: String, headers: HTTPHeaders = [:], body: [UInt8] = []
    ) async throws(CheckFailure) -> VerifyReply {
        do {
            let request = OutboundRequest(method: method, url: url, headers: headers, body: body, timeout: timeout)
            return VerifyReply(try await transport.send(request))
        } catch let error as TransportError {
            // The URL is not repeated: a journey URL may be the one that failed.
            throw CheckFailure("\(method) \(Self.pathOnly(url)): \(error.kind.rawValue)")
        } catch {
            throw CheckFailure("\(method) \(Self.pathOnly(url)): \(type(of: error))")
        }
    }

    func json(
        _ method: HTTPMethod, _ url: String, _ value: JSONValue, headers: HTTPHeaders = [:]
    )
        async throws(CheckFailure) -> VerifyReply
    {
        var headers = headers
        headers.set("content-type", "application/json")
        return try await send(method, url, headers: headers, body: Array(value.rendered.utf8))
    }

    /// `url` without scheme, host, query or fragment, for messages.
    static func pathOnly(_ url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        let path = rest[slash...]
        return String(path.prefix { $0 != "?" && $0 != "#" })
    }
}

extension JSONValue {
    /// The elements, when this is an array.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The whole number, when this is a number without a fraction.
    var intValue: Int? {
        if case .number(let number) = self, number == number.rounded(), abs(number) < 1e15 { return Int(number) }
        return nil
    }

    /// The Boolean, when this is one.
    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The member names, when this is an object.
    var keys: Set<String> { Set(members?.keys.map { $0 } ?? []) }
}
