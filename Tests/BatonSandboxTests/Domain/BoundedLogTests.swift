import Testing

@testable import BatonSandbox

@Suite struct BoundedLogTests {
    @Test(arguments: [0, 1, 2, 3, 4, 5, 9, 10, 11, 23])
    func keepsTheNewestValuesOldestFirst(appended: Int) {
        var log = BoundedLog<Int>(capacity: 4)
        for value in 0..<appended { log.append(value) }
        let expected = Array(max(0, appended - 4)..<appended)
        #expect(log.count == expected.count)
        #expect(log.elements == expected)
        #expect((0..<log.count).map { log[$0] } == expected)
    }

    @Test func writesThroughPositionsCountedFromTheOldest() {
        var log = BoundedLog<Int>(capacity: 3)
        for value in 1...5 { log.append(value) }  // keeps 3, 4, 5; the ring has wrapped
        log[0] *= 10
        log[2] *= 10
        #expect(log.elements == [30, 4, 50])
    }

    @Test func removeAllStartsOver() {
        var log = BoundedLog<Int>(capacity: 2)
        for value in 1...3 { log.append(value) }
        log.removeAll()
        #expect(log.isEmpty)
        #expect(log.elements.isEmpty)
        log.append(7)
        log.append(8)
        log.append(9)
        #expect(log.elements == [8, 9])
    }
}
