import BatonCrypto

/// Opaque random identifiers and tokens (`phs_…`, tickets, session ids) from the secure generator.
enum RandomToken {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// `length` characters of `[0-9A-Za-z]`, uniformly drawn (rejection sampling keeps the bias out).
    static func base62(_ length: Int) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(length)
        while output.count < length {
            // RAND_bytes only fails when the system has no entropy at all; the sandbox cannot run without it.
            let bytes = try! SecureRandom.bytes(count: length * 2)
            for byte in bytes where byte < 248 && output.count < length {
                output.append(alphabet[Int(byte % 62)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `prefix` followed by `length` base62 characters.
    static func make(_ prefix: String, length: Int = 24) -> String { prefix + base62(length) }
}
