import BatonCore
import Testing

@testable import BatonCrypto

@Suite("Random, constant-time compare, hex, Secret")
struct PrimitivesTests {
    @Test func randomBytesHaveTheRequestedLengthAndDiffer() throws {
        #expect(try SecureRandom.bytes(count: 0) == [])
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        #expect(first.count == 32)
        #expect(first != second)
        #expect(try SecureRandom.key().count == 32)
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
    }

    @Test func wipeZerosInPlace() {
        var bytes: [UInt8] = [9, 9, 9]
        ConstantTime.wipe(&bytes)
        #expect(bytes == [0, 0, 0])
    }

    @Test func hexRoundTrips() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("0") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test func secretKeepsValueSemanticsAcrossCopiesAndWithBytes() {
        var source: [UInt8] = [1, 2, 3]
        let secret = Secret(bytes: source)
        source[0] = 42
        var escaped: [UInt8] = []
        secret.withBytes { escaped = $0 }
        let copy = secret
        #expect(escaped == [1, 2, 3])
        #expect(copy == Secret(bytes: [1, 2, 3]))
        #expect(copy.withBytes { $0 } == [1, 2, 3])
        #expect("\(secret)" == "Secret(…)")
    }
}
