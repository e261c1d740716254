import BatonCore
import Testing

@testable import BatonCrypto

@Suite("AES-256-GCM sealing")
struct AESGCMTests {
    let key = Secret(bytes: [UInt8](repeating: 7, count: 32))
    let message = Array("https://chia.example/h/phs_secret".utf8)
    let context = Array("user-1|key-1".utf8)

    @Test func roundTripsWithFreshNonces() throws {
        let first = try AESGCM.seal(message, key: key, associatedData: context)
        let second = try AESGCM.seal(message, key: key, associatedData: context)
        #expect(first.count == 12 + message.count + 16)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(try AESGCM.open(first, key: key, associatedData: context) == message)
        #expect(try AESGCM.open(second, key: key, associatedData: context) == message)
    }

    @Test func everyFlippedBitFailsToOpen() throws {
        let sealed = try AESGCM.seal(message, key: key, associatedData: context)
        for index in sealed.indices {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: CryptoError(.authenticationFailed)) {
                try AESGCM.open(tampered, key: key, associatedData: context)
            }
        }
    }

    @Test func wrongAssociatedDataOrKeyOrTruncationFails() throws {
        let sealed = try AESGCM.seal(message, key: key, associatedData: context)
        #expect(throws: CryptoError(.authenticationFailed)) {
            try AESGCM.open(sealed, key: key, associatedData: Array("user-2|key-1".utf8))
        }
        #expect(throws: CryptoError(.authenticationFailed)) {
            try AESGCM.open(sealed, key: Secret(bytes: [UInt8](repeating: 8, count: 32)), associatedData: context)
        }
        #expect(throws: CryptoError(.authenticationFailed)) {
            try AESGCM.open(Array(sealed.dropLast()), key: key, associatedData: context)
        }
        #expect(throws: CryptoError(.authenticationFailed)) {
            try AESGCM.open(Array(sealed.prefix(27)), key: key, associatedData: context)
        }
    }

    @Test func rejectsKeysThatAreNot256Bits() {
        #expect(throws: CryptoError(.invalidKeySize)) {
            try AESGCM.seal(message, key: Secret(bytes: [1, 2, 3]))
        }
    }

    @Test func emptyPlaintextSealsToNonceAndTag() throws {
        let sealed = try AESGCM.seal([UInt8](), key: key)
        #expect(sealed.count == 28)
        #expect(try AESGCM.open(sealed, key: key) == [])
    }

    @Test func errorDescriptionsAreGeneric() {
        #expect(!"\(CryptoError(.authenticationFailed))".contains("phs_"))
    }
}
