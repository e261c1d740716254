import BatonClient
import BatonCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One headless browser instance: its own cookies, requests through a transport that does not follow redirects
/// (the browser follows them itself, so every hop is seen and recorded), and the little HTML reading a harness
/// needs (`data-page` markers, form actions, the Privue script's redeem endpoint).
struct HeadlessBrowser {
    /// A loaded response.
    struct Page {
        let url: URL
        let status: Int
        let location: String?
        let body: String
        var marker: String? { HeadlessBrowser.firstMatch(#"data-page="([^"]+)""#, in: body) }
    }

    let transport: any BackendTransport
    let record: @Sendable (HeadlessRequest) async -> Void
    private var cookies: [String: String] = [:]
    static let maxRedirects = 5

    init(transport: any BackendTransport, record: @escaping @Sendable (HeadlessRequest) async -> Void) {
        self.transport = transport
        self.record = record
    }

    /// Sends one request (no redirect followed), keeping cookies; `nil` when no response arrived.
    mutating func send(
        _ method: String, _ url: URL, purpose: HeadlessRequest.Purpose, body: Data? = nil, contentType: String? = nil
    ) async -> Page? {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 15)
        request.httpMethod = method
        request.httpShouldHandleCookies = false
        if let body {
            request.httpBody = body
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        if !cookies.isEmpty {
            let header = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            request.setValue(header, forHTTPHeaderField: "Cookie")
        }
        let sensitive = SensitiveURL(url.absoluteString, allowingSchemes: ["http", "https"])
        do {
            let (data, response) = try await transport.send(request)
            if let cookie = response.value(forHTTPHeaderField: "Set-Cookie") { keep(cookie) }
            let page = Page(
                url: url, status: response.statusCode, location: response.value(forHTTPHeaderField: "Location"),
                body: String(decoding: data, as: UTF8.self))
            if let sensitive {
                await record(
                    HeadlessRequest(
                        method: method, url: sensitive, purpose: purpose, status: page.status, page: page.marker))
            }
            return page
        } catch {
            if let sensitive {
                await record(HeadlessRequest(method: method, url: sensitive, purpose: purpose, status: nil, page: nil))
            }
            return nil
        }
    }

    /// Sends a request and follows `3xx` redirects with `GET` while `follow` allows the target (a return link is
    /// not followed: the caller gets the redirect and decides).
    mutating func load(
        _ method: String, _ url: URL, purpose: HeadlessRequest.Purpose, body: Data? = nil, contentType: String? = nil,
        follow: @Sendable (String) -> Bool
    ) async -> Page? {
        var page = await send(method, url, purpose: purpose, body: body, contentType: contentType)
        var hops = 0
        while let current = page, (300...399).contains(current.status), let location = current.location,
            follow(location), hops < Self.maxRedirects,
            let next = URL(string: location, relativeTo: current.url)?.absoluteURL
        {
            hops += 1
            page = await send("GET", next, purpose: .page)
        }
        return page
    }

    private mutating func keep(_ header: String) {
        // One cookie per Set-Cookie header is all the sandbox sends: `name=value; attributes`.
        let pair = header.split(separator: ";", maxSplits: 1)[0]
        guard let equals = pair.firstIndex(of: "=") else { return }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        cookies[name] = String(pair[pair.index(after: equals)...])
    }

    /// The first capture group of `pattern` in `text`.
    static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            match.numberOfRanges > 1, let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range]).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// A `<form>` action ending in `suffix`, resolved against the page's URL.
    static func formAction(endingIn suffix: String, on page: Page) -> URL? {
        let escaped = NSRegularExpression.escapedPattern(for: suffix)
        return firstMatch(#"action="([^"]*"# + escaped + #")""#, in: page.body).flatMap {
            URL(string: $0, relativeTo: page.url)?.absoluteURL
        }
    }

    /// `application/x-www-form-urlencoded` for `fields`.
    static func form(_ fields: [(String, String)]) -> Data {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = fields.map { name, value in
            let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            return "\(name)=\(encoded)"
        }.joined(separator: "&")
        return Data(text.utf8)
    }
}
