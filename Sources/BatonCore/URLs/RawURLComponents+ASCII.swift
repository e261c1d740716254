extension RawURLComponents {
    /// Calls `body` with the UTF-8 bytes of `text`: in place for native strings, others are made contiguous first.
    /// (`Substring.withUTF8` specialises where the `UTF8View` slice's `withContiguousStorageIfAvailable` does not.)
    static func withBytes<Result>(_ text: Substring, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = text
        return text.withUTF8(body)
    }
}

/// Where an ASCII URL with no whitespace or control characters splits, as byte offsets; `nil` from `init(bytes:)`
/// when ``RawURLComponents`` rejects it.
///
/// In such a string every byte is one `Character`, so cutting at the first `:`, the first `/`, `?` or `#` after
/// `//`, the last `@`, and so on gives exactly the parts (and the `nil`s) of the `Character`-level split, without
/// its grapheme breaking.
struct ASCIICuts {
    var scheme: Range<Int>
    var userinfo: Range<Int>?
    var host: Range<Int>
    var port: Int?
    var path: Range<Int>
    var query: Range<Int>?
    var fragment: Range<Int>?

    init?(bytes: UnsafeBufferPointer<UInt8>) {
        let end = bytes.count
        func first(_ byte: UInt8, in range: Range<Int>) -> Int? { range.first { bytes[$0] == byte } }

        guard let colon = first(0x3A, in: 0..<end), Self.isValidScheme(bytes[0..<colon]) else { return nil }
        scheme = 0..<colon
        guard colon + 2 < end, bytes[colon + 1] == 0x2F, bytes[colon + 2] == 0x2F else { return nil }
        let authorityStart = colon + 3
        var authorityEnd = end
        var lastAt: Int?
        var index = authorityStart
        scan: while index < end {
            switch bytes[index] {
            case 0x2F, 0x3F, 0x23:
                authorityEnd = index
                break scan
            case 0x5C: return nil
            case 0x40: lastAt = index
            default: break
            }
            index += 1
        }
        var hostStart = authorityStart
        if let lastAt {
            userinfo = authorityStart..<lastAt
            hostStart = lastAt + 1
        }

        // host[:port] or [v6][:port]
        var portStart: Int?
        if hostStart < authorityEnd, bytes[hostStart] == 0x5B {
            guard let close = first(0x5D, in: hostStart..<authorityEnd) else { return nil }
            host = hostStart..<(close + 1)
            if close + 1 < authorityEnd {
                guard bytes[close + 1] == 0x3A else { return nil }
                portStart = close + 2
            }
            guard host.count > 2,
                bytes[(host.lowerBound + 1)..<(host.upperBound - 1)].allSatisfy({
                    RawURLComponents.isASCIIHexDigit($0) || $0 == 0x3A || $0 == 0x2E || $0 == 0x25
                })
            else { return nil }
        } else {
            let portColon = first(0x3A, in: hostStart..<authorityEnd)
            host = hostStart..<(portColon ?? authorityEnd)
            portStart = portColon.map { $0 + 1 }
            guard bytes[host].allSatisfy(Self.isRegNameByte) else { return nil }
        }
        if let portStart, portStart < authorityEnd {
            guard authorityEnd - portStart <= 5 else { return nil }
            var value = 0
            for byte in bytes[portStart..<authorityEnd] {
                guard RawURLComponents.isASCIIDigit(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            guard value <= 65_535 else { return nil }
            port = value
        }

        var pathEnd = end
        if let hash = first(0x23, in: authorityEnd..<end) {
            fragment = (hash + 1)..<end
            pathEnd = hash
        }
        if let question = first(0x3F, in: authorityEnd..<pathEnd) {
            query = (question + 1)..<pathEnd
            pathEnd = question
        }
        path = authorityEnd..<pathEnd
    }

    /// `RawURLComponents.isValidScheme` on bytes: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isValidScheme(_ scheme: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = scheme.first, RawURLComponents.isASCIILetter(first) else { return false }
        return scheme.allSatisfy {
            RawURLComponents.isASCIILetter($0) || RawURLComponents.isASCIIDigit($0) || $0 == 0x2B || $0 == 0x2D
                || $0 == 0x2E
        }
    }

    /// An ASCII byte `RawURLComponents.isValidHost` allows in a reg-name or IPv4 host.
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: true
        // - . _ ~ ! $ & ' ( ) * + , ; = %
        case 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, 0x25: true
        default: false
        }
    }
}
