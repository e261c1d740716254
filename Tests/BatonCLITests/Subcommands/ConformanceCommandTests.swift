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
        // The renderer cases a Swift check executes count; the rest are listed as not run, never as passed.
        #expect(lines.contains("renderer-conformance.v1.json decision: 23 passed, 0 failed"))
        #expect(lines.contains("renderer-conformance.v1.json interaction: 18 passed, 0 failed"))
        #expect(lines.contains("renderer-conformance.v1.json accessibility: 3 passed, 0 failed, 4 not run"))
        #expect(
            lines.contains(
                "  not run [swift] keyboard-only: no Swift-side check: the views it concerns are "
                    + "BatonApple's (Apple platforms)"))
        #expect(
            lines.dropLast().last?.hasSuffix(
                " not run (no check for them in this shell; other shells or swift "
                    + "test run them)") == true)
    }

    @Test func aWrongExpectationFailsWithExitOne() async throws {
        let directory = try Self.temporaryDirectory()
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
        #expect(result.standardOutput.contains("FAIL    [swift] wrong"))
        #expect(
            result.standardOutput.hasSuffix(
                "\n0 not run (no check for them in this shell; other shells or swift "
                    + "test run them)\n1 passed, 1 failed\n"))
    }

    /// A broken decision is failed, a case no Swift check executes is `not_run` (and counts neither way), in the
    /// text report and in the adapter JSON.
    @Test func aBrokenDecisionFailsAndAnUnexecutedCaseIsNotRun() async throws {
        let directory = try Self.rendererVariant { document in
            var decisions = document["decision"] as! [[String: Any]]
            var broken = decisions[0]  // share-two-equal-actions
            broken["id"] = "broken-decision"
            broken["expect"] = ["rendered": true, "actions": ["Continue to Chia"]]
            decisions = [decisions[0], broken]
            document["decision"] = decisions
            document["interaction"] = [[String: Any]]()
            document["accessibility"] = (document["accessibility"] as! [[String: Any]]).filter {
                $0["id"] as? String == "keyboard-only"
            }
            document["forbidden"] = (document["forbidden"] as! [[String: Any]]).filter {
                $0["id"] as? String == "no-inline-script"
            }
        }
        defer { try? FileManager.default.removeItem(at: directory) }

        let text = try await BatonBinary.run(["conformance", "--dir", directory.path])
        #expect(text.status == 1)
        #expect(text.standardOutput.contains("  FAIL    [swift] broken-decision: actions "))
        #expect(text.standardOutput.contains("  not run [swift] keyboard-only: "))
        #expect(text.standardOutput.contains("\n2 not run "))
        #expect(text.standardOutput.hasSuffix("\n1 passed, 1 failed\n"))

        let json = try await BatonBinary.run(["conformance", "--json", "--dir", directory.path])
        #expect(json.status == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(report["shell"] as? String == "swift")
        let cases = try #require(report["cases"] as? [[String: String]])
        let results = Dictionary(uniqueKeysWithValues: cases.map { ($0["id"]!, $0["result"]!) })
        #expect(
            results == [
                "share-two-equal-actions": "passed", "broken-decision": "failed", "keyboard-only": "not_run",
                "no-inline-script": "not_run",
            ])
        #expect(cases.allSatisfy { $0["file"] == "renderer-conformance.v1.json" })
        #expect(cases.first { $0["id"] == "keyboard-only" }?["section"] == "accessibility")
    }

    /// The accessibility cases a ``CatalogRenderPlan`` decides run on the Swift shell: a reading order the plan does
    /// not follow (the two actions swapped) fails, while image-alt and equal-access pass and the rest are not run.
    @Test func aBrokenReadingOrderFails() async throws {
        let directory = try Self.rendererVariant { document in
            var accessibility = document["accessibility"] as! [[String: Any]]
            let index = try #require(accessibility.firstIndex { $0["id"] as? String == "reading-order" })
            var order = accessibility[index]["order"] as! [String]
            let primary = try #require(order.firstIndex(of: "action.primary"))
            order.swapAt(primary, try #require(order.firstIndex(of: "action.secondary")))
            accessibility[index]["order"] = order
            document["accessibility"] = accessibility
            document["decision"] = [[String: Any]]()
            document["interaction"] = [[String: Any]]()
            document["forbidden"] = [[String: Any]]()
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await BatonBinary.run(["conformance", "--json", "--dir", directory.path])
        #expect(result.status == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let cases = try #require(report["cases"] as? [[String: String]])
        let results = Dictionary(uniqueKeysWithValues: cases.map { ($0["id"]!, $0["result"]!) })
        #expect(
            results == [
                "reading-order": "failed", "image-alt": "passed", "equal-access": "passed",
                "text-200-at-320": "not_run", "keyboard-only": "not_run", "reduced-motion": "not_run",
                "axe-no-violations": "not_run",
            ])
        let detail = cases.first { $0["id"] == "reading-order" }?["detail"]
        #expect(detail?.hasPrefix("share: order block:") == true)
        #expect(detail?.hasSuffix(", action.primary, action.secondary") == true)
    }

    /// Interaction cases run through BatonClient's Chia machine: an expectation the machine does not meet fails.
    @Test(arguments: [
        (
            "without-sharing-opens-neutral", 1, "navigations", #"["journey"]"#,
            "step 2 (tap_without_sharing): navigations"
        ),
        (
            "share-503-retry-reuses-body-and-key", 2, "shareRequest", #"{"key":"new","body":"new"}"#,
            "step 3 (tap_share): Idempotency-Key kept: true"
        ),
        ("share-409-discards-and-refetches", 1, "pending", #""kept""#, "step 2 (tap_share): body and key not kept"),
        ("cta-item-gone", 0, "actions", #"["Continue to Chia"]"#, "step 1 (tap_cta): actions []"),
    ])
    func anUnmetInteractionExpectationFails(
        id: String, step: Int, key: String, value: String, detail: String
    ) async throws {
        let directory = try Self.rendererVariant { document in
            var interaction = (document["interaction"] as! [[String: Any]]).filter { $0["id"] as? String == id }
            var steps = interaction[0]["steps"] as! [[String: Any]]
            var expect = steps[step]["expect"] as! [String: Any]
            expect[key] = try! JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
            steps[step]["expect"] = expect
            interaction[0]["steps"] = steps
            document["interaction"] = interaction
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await BatonBinary.run(["conformance", "--dir", directory.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("  FAIL    [swift] \(id): \(detail)"))
        #expect(result.standardOutput.contains("renderer-conformance.v1.json interaction: 0 passed, 1 failed"))
    }

    @Test func aMissingFolderIsAUsageError() async throws {
        let result = try await BatonBinary.run(["conformance", "--dir", "/nonexistent/baton-vectors"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("cannot read"))
    }

    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-conformance-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A folder holding only the checked-in renderer-conformance.v1.json, changed by `edit`.
    private static func rendererVariant(_ edit: (inout [String: Any]) throws -> Void) throws -> URL {
        let source = BatonBinary.repositoryRoot.appendingPathComponent("Conformance/renderer-conformance.v1.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        try edit(&document)
        let directory = try temporaryDirectory()
        try JSONSerialization.data(withJSONObject: document)
            .write(to: directory.appendingPathComponent("renderer-conformance.v1.json"))
        return directory
    }
}
