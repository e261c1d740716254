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
    }
}
