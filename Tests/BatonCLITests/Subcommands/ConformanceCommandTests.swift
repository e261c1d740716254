import Foundation
import Testing

@Suite struct ConformanceCommandTests {
    @Test func everyCheckedInVectorPasses() async throws {
        let result = try await BatonBinary.run(["conformance"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        let last = try #require(lines.last)
        #expect(last.hasSuffix(" passed, 0 failed"))
        #expect(Int(last.split(separator: " ")[0]) ?? 0 >= 300)
        for file in ["return-links", "projection-decoding", "retry-classification", "catalog-decision"] {
            #expect(lines.contains { $0.hasPrefix("\(file).v1.json: ") && $0.hasSuffix(", 0 failed") })
        }
    }

    @Test func aWrongExpectationFailsWithExitOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-conformance-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let vectors = #"""
            {"name":"return-links","version":1,"description":"d","cases":[
              {"id":"right","description":"d","flow":"generic","registeredHost":"h.example","url":"https://h.example/",
               "expect":{"isReturn":true,"route":"marketplace-home"}},
              {"id":"wrong","description":"d","flow":"generic","registeredHost":"h.example","url":"https://h.example/",
               "expect":{"isReturn":false,"reason":"unregistered_host"}}]}
            """#
        try Data(vectors.utf8).write(to: directory.appendingPathComponent("return-links.v1.json"))
        let result = try await BatonBinary.run(["conformance", "--dir", directory.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("FAIL wrong"))
        #expect(result.standardOutput.hasSuffix("\n1 passed, 1 failed\n"))
    }

    @Test func aMissingFolderIsAUsageError() async throws {
        let result = try await BatonBinary.run(["conformance", "--dir", "/nonexistent/baton-vectors"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("cannot read"))
    }
}
