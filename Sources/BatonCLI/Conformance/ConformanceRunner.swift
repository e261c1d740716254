import BatonCore
import Foundation

/// Runs one `Conformance/*.json` vector file against BatonCore and BatonClient's machines. The file's `name` says
/// what it tests; every case comes back passed, failed or not run (nothing here executed a check for it).
enum ConformanceRunner {
    /// The outcome of one case.
    struct CaseResult {
        /// Passed and failed mean a check ran; not run means this shell has no executable check for the case.
        enum Outcome: String {
            case passed
            case failed
            case notRun = "not_run"
        }

        /// The vector file's name, e.g. `renderer-conformance.v1.json`.
        let file: String
        /// The section: `decision`, `interaction`, `accessibility`, `forbidden`, or the name of another vector file.
        let section: String
        let id: String
        let outcome: Outcome
        let detail: String?

        /// The result of a check that ran: passed when `failure` is `nil`.
        static func checked(_ file: String, _ section: String, _ id: String, failure: String?) -> Self {
            Self(file: file, section: section, id: id, outcome: failure == nil ? .passed : .failed, detail: failure)
        }

        /// A case no check here executes, and why.
        static func notRun(_ file: String, _ section: String, _ id: String, reason: String) -> Self {
            Self(file: file, section: section, id: id, outcome: .notRun, detail: reason)
        }
    }

    static func run(file: URL) -> [CaseResult] {
        let name = file.lastPathComponent
        let unreadable = [CaseResult.checked(name, "file", name, failure: "not a vector file (no cases)")]
        guard let data = try? Data(contentsOf: file),
            let document = try? JSONValue.parse(Array(data))
        else { return unreadable }
        if document["name"]?.stringValue == "renderer-conformance" {
            return rendererConformance(document, file: name)
        }
        guard case .array(let cases)? = document["cases"] else { return unreadable }
        let section = document["name"]?.stringValue ?? "file"
        let check: (JSONValue) -> String?
        switch document["name"]?.stringValue {
        case "return-links": check = returnLink
        case "projection-decoding": check = projectionDecoding
        case "retry-classification":
            let now = document["now"]?.stringValue.flatMap(RFC3339.date(from:)) ?? Date(timeIntervalSince1970: 0)
            check = { retryClassification($0, now: now) }
        case "catalog-decision": check = catalogDecision
        case "link-routing": check = linkRouting(document)
        // App-side vectors (event sequences → effects of all three flows) run against BatonClient's machines in
        // `swift test` (BatonClientTests.InteractionVectorTests); nothing in this command executes them.
        case "interaction":
            return cases.enumerated().map { offset, entry in
                CaseResult.notRun(
                    name, section, entry["id"]?.stringValue ?? "\(name)#\(offset)",
                    reason: "run by swift test (BatonClientTests.InteractionVectorTests), not by this command")
            }
        default: return [CaseResult.checked(name, section, name, failure: "unknown vector file name")]
        }
        return cases.enumerated().map { offset, entry in
            let id = entry["id"]?.stringValue ?? "\(name)#\(offset)"
            guard entry["description"]?.stringValue != nil else {
                return CaseResult.checked(name, section, id, failure: "case has no description")
            }
            return CaseResult.checked(name, section, id, failure: check(entry))
        }
    }

    /// `nil` when the case passes, otherwise why not.
    private static func returnLink(_ entry: JSONValue) -> String? {
        var registered: [String] = []
        if case .array(let values)? = entry["registered"] { registered = values.compactMap(\.stringValue) }
        guard let url = entry["url"]?.stringValue, let flow = entry["flow"]?.stringValue, let expected = entry["expect"]
        else { return "case lacks flow, url or expect" }
        do {
            let actual = try ReturnLinkReport.parse(
                url: url, flow: flow, registered: registered, registeredHost: entry["registeredHost"]?.stringValue)
            return actual == expected ? nil : "got \(actual.rendered)"
        } catch {
            return "registration rejected: \(error.message)"
        }
    }

    private static func projectionDecoding(_ entry: JSONValue) -> String? {
        guard let input = entry["input"], let expected = entry["expect"] else { return "case lacks input or expect" }
        let data = Data(input.rendered.utf8)
        switch entry["target"]?.stringValue {
        case "mobileHandoff": return decodingOutcome(MobileHandoff.self, data, expected)
        case "catalogCard": return decodingOutcome(CatalogCard.self, data, expected)
        default: return "unknown target"
        }
    }

    private static func decodingOutcome<Value: Codable & Equatable>(
        _ type: Value.Type, _ data: Data, _ expected: JSONValue
    ) -> String? {
        let valid = expected["valid"] == .bool(true)
        do {
            // Baton's one encoder and decoder set-up (the projection types hold no dates, so only key order differs).
            let decoder = RFC3339.jsonDecoder()
            let value = try decoder.decode(Value.self, from: data)
            guard valid else { return "decoded, expected an error at \(expected["errorField"]?.stringValue ?? "?")" }
            let encoded = try RFC3339.jsonEncoder().encode(value)
            guard try decoder.decode(Value.self, from: encoded) == value else { return "does not round-trip" }
            if expected["canonical"] == .bool(true) {
                guard let original = try? JSONValue.parse(Array(data)),
                    let reencoded = try? JSONValue.parse(Array(encoded)), reencoded == original
                else { return "encoding differs from the input" }
            }
            return nil
        } catch let error as DecodingError {
            guard !valid else { return "failed to decode at '\(error.fieldPath)'" }
            let field = expected["errorField"]?.stringValue
            return error.fieldPath == field ? nil : "error at '\(error.fieldPath)', expected '\(field ?? "?")'"
        } catch {
            return "unexpected error"
        }
    }

    private static func retryClassification(_ entry: JSONValue, now: Date) -> String? {
        guard let outcomeObject = entry["outcome"], let expected = entry["expect"] else { return "case lacks outcome" }
        let outcome: ShareRequestOutcome
        if let transport = outcomeObject["transport"]?.stringValue {
            guard let failure = ShareRequestOutcome.TransportFailure(rawValue: transport) else {
                return "unknown transport failure"
            }
            outcome = .transportFailure(failure)
        } else if case .number(let status)? = outcomeObject["status"] {
            outcome = .response(status: Int(status), retryAfter: outcomeObject["retryAfter"]?.stringValue)
        } else {
            return "outcome lacks status or transport"
        }
        let actual: JSONValue =
            switch RetryDecision.classify(outcome, now: now) {
            case .done: .object([.init("decision", .string("done"))])
            case .discardAndRefetchProjection: .object([.init("decision", .string("refetch_projection"))])
            case .signInAndRetryKeepingRequest: .object([.init("decision", .string("sign_in_and_retry"))])
            case .retryKeepingRequest(let after):
                .object([
                    .init("decision", .string("retry")),
                    .init("retryAfterSeconds", after.map { .number(Double($0)) } ?? .null),
                ])
            }
        return actual == expected ? nil : "got \(actual.rendered)"
    }

    private static func catalogDecision(_ entry: JSONValue) -> String? {
        let decoder = RFC3339.jsonDecoder()
        guard case .object(let publicationMembers)? = entry["publication"], let itemJSON = entry["item"],
            let now = entry["now"]?.stringValue.flatMap(RFC3339.date(from:)), let expected = entry["expect"]
        else { return "case lacks now, publication, item or expect" }
        do {
            let item = try decoder.decode(CatalogItem.self, from: Data(itemJSON.rendered.utf8))
            let publicationJSON = JSONValue.object(publicationMembers + [.init("items", .array([itemJSON]))])
            let publication = try decoder.decode(CatalogPublication.self, from: Data(publicationJSON.rendered.utf8))
            var evidence: ServiceStateEvidence?
            if let evidenceJSON = entry["evidence"], evidenceJSON != .null {
                evidence = try decoder.decode(ServiceStateEvidence.self, from: Data(evidenceJSON.rendered.utf8))
            }
            var policy = CatalogDecisionPolicy()
            if case .number(let ttl)? = entry["policy"]?["evidenceTTL"] { policy.evidenceTTL = ttl }
            if case .number(let skew)? = entry["policy"]?["clockSkewTolerance"] { policy.clockSkewTolerance = skew }
            if case .array(let versions)? = entry["policy"]?["supportedSchemaVersions"] {
                policy.supportedSchemaVersions = Set(
                    versions.compactMap { if case .number(let n) = $0 { Int(n) } else { nil } })
            }
            let decision = resolveCatalogHandoff(
                item: item, publication: publication, evidence: evidence, now: now, policy: policy)
            let actual: JSONValue
            switch decision {
            case .hidden(let reason):
                actual = .object([.init("decision", .string("hidden")), .init("reason", .string(reason.rawValue))])
            case .neutralOnly(let reason):
                guard case .neutralOnly? = CatalogCard(item: item, decision: decision)?.handoff else {
                    return "neutral_only did not project to a neutral_only card"
                }
                actual = .object([
                    .init("decision", .string("neutral_only")), .init("reason", .string(reason.rawValue)),
                ])
            case .shareOrNeutral:
                guard case .shareOrNeutral(let share)? = CatalogCard(item: item, decision: decision)?.handoff else {
                    return "share_or_neutral did not project to a share_or_neutral card"
                }
                actual = .object([
                    .init("decision", .string("share_or_neutral")),
                    .init("disclosureVersion", .string(share.disclosureVersion)),
                ])
            }
            return actual == expected ? nil : "got \(actual.rendered)"
        } catch let error as DecodingError {
            return "case does not decode at '\(error.fieldPath)'"
        } catch {
            return "unexpected error"
        }
    }
}
