import BatonTestSupport
import Foundation

/// `Conformance/renderer-conformance.v1.json`, read as plain JSON objects: the web shell's browser suite and these
/// Swift tests consume the same file.
enum RendererConformanceFile {
    static let url = VectorFile.url("Conformance/renderer-conformance.v1.json")

    /// Read afresh on each use: `[String: Any]` is not `Sendable`, so it is not kept in a static.
    static var document: [String: Any] {
        let data = try! Data(contentsOf: url)
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    /// `headers.all` merged with `headers.assets[path]`, for every asset path.
    static var expectedHeaders: [(path: String, headers: [String: String])] {
        let headers = document["headers"] as! [String: Any]
        let all = headers["all"] as! [String: String]
        let assets = headers["assets"] as! [String: [String: String]]
        return assets.keys.sorted().map { path in (path, all.merging(assets[path]!) { $1 }) }
    }

    /// A decision case: the fixture card with the case's patch applied, encoded as JSON.
    struct DecisionCase: CustomStringConvertible, Sendable {
        let id: String
        let cardJSON: Data
        let rendered: Bool
        let actions: [String]
        var description: String { id }
    }

    static var decisionCases: [DecisionCase] {
        let fixtures = document["fixtures"] as! [String: Any]
        let cards = fixtures["cards"] as! [String: Any]
        return (document["decision"] as! [[String: Any]]).map { entry in
            var card = cards[entry["card"] as! String]!
            for operation in entry["patch"] as! [[String: Any]] {
                card = JSONPatch.apply(operation, to: card)
            }
            let expect = entry["expect"] as! [String: Any]
            return DecisionCase(
                id: entry["id"] as! String, cardJSON: try! JSONSerialization.data(withJSONObject: card),
                rendered: expect["rendered"] as! Bool, actions: expect["actions"] as! [String])
        }
    }
}

/// The RFC 6902 subset the conformance file uses: `add`, `replace` and `remove` on object members.
enum JSONPatch {
    static func apply(_ operation: [String: Any], to document: Any) -> Any {
        let path = (operation["path"] as! String).split(separator: "/").map(String.init)
        return apply(operation["op"] as! String, path: path[...], value: operation["value"], to: document)
    }

    private static func apply(_ op: String, path: ArraySlice<String>, value: Any?, to node: Any) -> Any {
        guard let key = path.first else { return value as Any }
        var object = node as! [String: Any]
        if path.count == 1 {
            if op == "remove" { object[key] = nil } else { object[key] = value }
        } else {
            object[key] = apply(op, path: path.dropFirst(), value: value, to: object[key]!)
        }
        return object
    }
}
