import BatonTestSupport
import Foundation
import Testing

/// docs/troubleshooting.md says what to do about every problem code docs/CONTRACTS.md lists, and no other.
@Suite struct ProblemCodeDocsTests {
    static let root = VectorFile.repositoryRoot

    /// The backticked codes in the `| status | code | …` table that follows `heading` in `file`.
    static func codes(in file: String, after heading: String) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix(heading) }, "\(heading) in \(file)")
        let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        var codes: Set<String> = []
        for row in table.dropFirst(2) {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 2 else { continue }
            let cell = String(cells[2])
            let regex = /`([a-z_]+)`/
            for match in cell.matches(of: regex) { codes.insert(String(match.1)) }
        }
        return codes
    }

    @Test func theTroubleshootingTableListsExactlyTheContractsCodes() throws {
        let contract = try Self.codes(in: "docs/CONTRACTS.md", after: "### Problem codes")
        let troubleshooting = try Self.codes(in: "docs/troubleshooting.md", after: "## Problem codes")
        #expect(contract.contains("catalog_unavailable"))
        #expect(contract.count > 15)
        #expect(contract.subtracting(troubleshooting) == [], "codes with no advice in docs/troubleshooting.md")
        #expect(troubleshooting.subtracting(contract) == [], "codes the contract does not list")
    }
}
