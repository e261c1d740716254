/// Opaque random identifiers and tokens (`phs_…`, tickets, session ids) of the simulated providers.
///
/// Drawn from `SystemRandomNumberGenerator` (the operating system's secure generator: `getrandom` on Linux,
/// `arc4random` on Apple platforms), which cannot fail, so no caller handles an error that never comes.
enum RandomToken {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// `length` characters of `[0-9A-Za-z]`, uniformly drawn.
    static func base62(_ length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let output = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return String(decoding: output, as: UTF8.self)
    }

    /// `prefix` followed by `length` base62 characters.
    static func make(_ prefix: String, length: Int = 24) -> String { prefix + base62(length) }
}
