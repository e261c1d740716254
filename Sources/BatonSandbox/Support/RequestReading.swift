import BatonCore
import BatonHTTP

extension HTTPRequest {
    /// The body parsed as `application/x-www-form-urlencoded`.
    var form: FormURLEncodedQuery { FormURLEncodedQuery(parsing: String(decoding: body, as: UTF8.self)) }

    /// The value of cookie `name`, if the request carries it.
    func cookie(_ name: String) -> String? {
        for header in headers.values(for: "cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name {
                    return String(trimmed[trimmed.index(after: equals)...])
                }
            }
        }
        return nil
    }

    /// The bearer token of the `Authorization` header, if it has one.
    var bearerToken: String? {
        guard let value = headers["authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }
}

extension HTTPResponse {
    /// A sandbox body as JSON, members sorted by name (stable output), written by the one writer: it cannot fail.
    static func sandboxJSON(_ value: JSONValue, status: Int = 200, headers extra: HTTPHeaders = [:]) -> HTTPResponse {
        var response = HTTPResponse(
            status: status, headers: ["content-type": "application/json"], body: Array(value.sortingKeys.rendered.utf8))
        for field in extra { response.headers.set(field.name, field.value) }
        return response
    }
}
