import BatonCrypto
import Foundation
import Testing

@Suite("Base64URL (RFC 4648 §5, no padding)")
struct Base64URLTests {
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(Substring(encoded)) == Array(plain.utf8))
    }

    @Test func usesTheURLSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test(arguments: ["Zg==", "Zg=", "Z", "Zm9vY", "Zm+v", "Zm/v", "Zm9 v", "Zh", "Zm9", "Zm\u{e9}v"])
    func refusesPaddingForeignCharactersImpossibleLengthsAndStrayBits(text: String) {
        // "Zh" and "Zm9" leave non-zero bits after the last byte: accepting them would give one byte string two
        // encodings (a MAC could be altered without changing what it decodes to).
        #expect(Base64URL.decode(Substring(text)) == nil)
    }

    @Test func roundTripsAndAgreesWithFoundationOnRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(encoded == foundation)
            #expect(Base64URL.decode(Substring(encoded)) == bytes)
        }
    }

    @Test func whateverItDecodesFoundationDecodesAlike() {
        // Random strings over the alphabet and a few strangers: every one it accepts, Foundation's decoder (after the
        // alphabet is mapped back and padding added) reads as the same bytes.
        var generator = SystemRandomNumberGenerator()
        let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= .")
        var accepted = 0
        for _ in 0..<5000 {
            let text = String(
                (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                    characters.randomElement(using: &generator)!
                })
            guard let bytes = Base64URL.decode(Substring(text)) else { continue }
            accepted += 1
            let standard =
                text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                + String(repeating: "=", count: (4 - text.count % 4) % 4)
            #expect(Data(base64Encoded: standard).map(Array.init) == bytes, "\(text)")
        }
        #expect(accepted > 100)
    }
}
