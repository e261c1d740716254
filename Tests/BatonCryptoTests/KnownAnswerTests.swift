import BatonCore
import BatonTestSupport
import Testing

@testable import BatonCrypto

private struct HMACVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let name, key, data, mac: String
        let truncatedBytes: Int?
        var testDescription: String { name }
    }
    let cases: [Case]
}

private struct SHA256Vectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let name, digest: String
        let message, repeatByte: String?
        let repeatCount: Int?
        var testDescription: String { name }
        var bytes: [UInt8] {
            if let repeatByte, let repeatCount {
                return [UInt8](repeating: hexBytes(repeatByte)[0], count: repeatCount)
            }
            return hexBytes(message ?? "")
        }
    }
    let cases: [Case]
}

private struct GCMVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let name, key, iv, aad, plaintext, ciphertext, tag: String
        var testDescription: String { name }
    }
    let cases: [Case]
}

@Suite("Known-answer vectors")
struct KnownAnswerTests {
    @Test(
        "HMAC-SHA256, RFC 4231",
        arguments: try VectorFile.load("Tests/BatonCryptoTests/Vectors/hmac-sha256-rfc4231.json", as: HMACVectors.self)
            .cases)
    fileprivate func hmac(_ vector: HMACVectors.Case) {
        let key = Secret(bytes: hexBytes(vector.key))
        let mac = HMACSHA256.authenticationCode(for: hexBytes(vector.data), key: key)
        let expected = hexBytes(vector.mac)
        #expect(Array(mac.prefix(vector.truncatedBytes ?? 32)) == expected)
        if vector.truncatedBytes == nil {
            #expect(HMACSHA256.isValidAuthenticationCode(expected, for: hexBytes(vector.data), key: key))
        }
        // The same codes from a key set up once, used twice (a copy of the keyed state per code).
        let prepared = HMACSHA256.PreparedKey(key)
        for _ in 0..<2 {
            #expect(
                Array(prepared.authenticationCode(for: hexBytes(vector.data)).prefix(vector.truncatedBytes ?? 32))
                    == expected)
        }
        if vector.truncatedBytes == nil {
            #expect(prepared.isValidAuthenticationCode(expected, for: hexBytes(vector.data)))
            #expect(!prepared.isValidAuthenticationCode(expected, for: hexBytes(vector.data) + [0]))
        }
    }

    @Test(
        "SHA-256, NIST",
        arguments: try VectorFile.load("Tests/BatonCryptoTests/Vectors/sha256-nist.json", as: SHA256Vectors.self).cases)
    fileprivate func sha256(_ vector: SHA256Vectors.Case) {
        #expect(SHA256.hexDigest(vector.bytes) == vector.digest)
    }

    @Test(
        "AES-256-GCM, NIST",
        arguments: try VectorFile.load("Tests/BatonCryptoTests/Vectors/aes-256-gcm-nist.json", as: GCMVectors.self)
            .cases)
    fileprivate func gcm(_ vector: GCMVectors.Case) throws {
        let key = Secret(bytes: hexBytes(vector.key))
        let sealed = try AESGCM.seal(
            hexBytes(vector.plaintext), key: key, nonce: hexBytes(vector.iv), associatedData: hexBytes(vector.aad))
        #expect(sealed == hexBytes(vector.iv + vector.ciphertext + vector.tag))
        let opened = try AESGCM.open(sealed, key: key, associatedData: hexBytes(vector.aad))
        #expect(opened == hexBytes(vector.plaintext))
        // The same boxes from a key set up once, used twice (a copy of the expanded key per seal).
        let prepared = try AESGCM.PreparedKey(key)
        for _ in 0..<2 {
            let again = try prepared.seal(
                hexBytes(vector.plaintext), nonce: hexBytes(vector.iv), associatedData: hexBytes(vector.aad))
            #expect(again == sealed)
        }
        let random = try prepared.seal(hexBytes(vector.plaintext), associatedData: hexBytes(vector.aad))
        #expect(try AESGCM.open(random, key: key, associatedData: hexBytes(vector.aad)) == hexBytes(vector.plaintext))
    }

    @Test func aPreparedKeyOfTheWrongSizeIsRefused() {
        #expect(throws: CryptoError(.invalidKeySize)) { try AESGCM.PreparedKey(Secret(bytes: [1, 2, 3])) }
    }
}
