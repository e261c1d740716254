/// Appends query parameters to a URL the way a redirect must: after the URL's own parameters, before any
/// fragment, each name and value form-encoded.
enum URLQueryAppending {
    /// `url` with `parameters` appended (`?` or `&` as needed); `nil` values are skipped.
    static func append(_ parameters: [(String, String?)], to url: String) -> String {
        var base = url
        var fragment = ""
        if let hash = url.firstIndex(of: "#") {
            base = String(url[..<hash])
            fragment = String(url[hash...])
        }
        let pairs = parameters.compactMap { name, value in value.map { "\(encode(name))=\(encode($0))" } }
        guard !pairs.isEmpty else { return url }
        let separator: String
        if let mark = base.firstIndex(of: "?") {
            let query = base[base.index(after: mark)...]
            separator = query.isEmpty || query.hasSuffix("&") ? "" : "&"
        } else {
            separator = "?"
        }
        return base + separator + pairs.joined(separator: "&") + fragment
    }

    /// Percent-encodes everything but the RFC 3986 unreserved characters.
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                output += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
            }
        }
        return output
    }
}
