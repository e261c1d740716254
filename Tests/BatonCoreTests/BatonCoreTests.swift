import Testing

@testable import BatonCore

@Test func versionIsSemantic() {
    let parts = Baton.version.split(separator: ".")
    #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
}
