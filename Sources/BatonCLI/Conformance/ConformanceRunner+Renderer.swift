import BatonCore
import Foundation

extension ConformanceRunner {
    /// `renderer-conformance.v1.json`: its `decision` cases run against BatonCore's strict `CatalogCard` decoder (a
    /// card a renderer must leave out is one that does not decode; the actions follow the decoded mode). The
    /// interaction, accessibility and forbidden cases are run by the shells themselves (the web shell's browser
    /// suite, the app-side runners); here each is only checked to be well formed.
    static func rendererConformance(_ document: JSONValue, name: String) -> [CaseResult] {
        guard case .array(let decisions)? = document["decision"],
            case .object(let cards)? = document["fixtures"]?["cards"]
        else { return [CaseResult(id: name, passed: false, detail: "no decision cases or fixture cards")] }
        var results = decisions.enumerated().map { offset, entry in
            let id = entry["id"]?.stringValue ?? "\(name)#decision\(offset)"
            return CaseResult(id: id, passed: false, detail: nil).with(rendererDecision(entry, cards: cards))
        }
        for section in ["interaction", "accessibility", "forbidden"] {
            guard case .array(let entries)? = document[section] else {
                results.append(CaseResult(id: "\(name)#\(section)", passed: false, detail: "section missing"))
                continue
            }
            for (offset, entry) in entries.enumerated() {
                let id = entry["id"]?.stringValue ?? "\(name)#\(section)\(offset)"
                let wellFormed = entry["id"]?.stringValue != nil && entry["description"]?.stringValue != nil
                results.append(
                    CaseResult(id: id, passed: wellFormed, detail: wellFormed ? nil : "case lacks id or description"))
            }
        }
        return results
    }

    private static func rendererDecision(_ entry: JSONValue, cards: [JSONValue.Member]) -> String? {
        guard entry["description"]?.stringValue != nil else { return "case has no description" }
        guard let cardName = entry["card"]?.stringValue, var card = cards.first(where: { $0.key == cardName })?.value,
            case .array(let patch)? = entry["patch"], let expected = entry["expect"],
            case .bool(let rendered)? = expected["rendered"], case .array(let actions)? = expected["actions"]
        else { return "case lacks card, patch or expect" }
        for operation in patch {
            guard let op = operation["op"]?.stringValue, let path = operation["path"]?.stringValue else {
                return "bad patch operation"
            }
            let keys = path.split(separator: "/").map(String.init)
            card = patched(card, keys: keys[...], op: op, value: operation["value"] ?? .null)
        }
        let decoded = try? JSONDecoder().decode(CatalogCard.self, from: Data(card.rendered.utf8))
        guard (decoded != nil) == rendered else { return rendered ? "did not decode" : "decoded" }
        let labels: [String] =
            switch decoded?.handoff {
            case .neutralOnly?: [MobileHandoff.continueLabel]
            case .shareOrNeutral?: [MobileHandoff.shareLabel, MobileHandoff.continueWithoutSharingLabel]
            case nil: []
            }
        return labels.map(JSONValue.string) == actions ? nil : "actions \(labels)"
    }

    /// RFC 6902 `add`/`replace`/`remove` on object members, which is all the file uses.
    private static func patched(_ node: JSONValue, keys: ArraySlice<String>, op: String, value: JSONValue) -> JSONValue
    {
        guard let key = keys.first else { return value }
        guard case .object(var members) = node else { return node }
        let index = members.firstIndex { $0.key == key }
        if keys.count == 1 {
            if let index { members.remove(at: index) }
            if op != "remove" { members.append(.init(key, value)) }
        } else if let index {
            members[index] = .init(key, patched(members[index].value, keys: keys.dropFirst(), op: op, value: value))
        }
        return .object(members)
    }
}

extension ConformanceRunner.CaseResult {
    fileprivate func with(_ failure: String?) -> Self { Self(id: id, passed: failure == nil, detail: failure) }
}
