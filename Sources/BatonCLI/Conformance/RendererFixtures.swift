import BatonCore
import Foundation

/// The fixtures of `renderer-conformance.v1.json`: the `GET /v2/catalog` cards (`fixtures.cards`), the cards derived
/// from them by a patch (`fixtures.derived`) and the catalogs a step can name (`fixtures.projections`).
struct RendererFixtures {
    private let cards: [JSONValue.Member]
    private let derived: [JSONValue.Member]
    private let projections: [JSONValue.Member]
    /// The first of `fixtures.providerOrigins` (Chia's), where a simulated share response's journey URL points.
    let chiaOrigin: String

    /// The fixtures of `document`, or `nil` when it has no `fixtures.cards`.
    init?(_ document: JSONValue) {
        guard case .object(let cards)? = document["fixtures"]?["cards"] else { return nil }
        self.cards = cards
        if case .object(let derived)? = document["fixtures"]?["derived"] {
            self.derived = derived
        } else {
            derived = []
        }
        if case .object(let projections)? = document["fixtures"]?["projections"] {
            self.projections = projections
        } else {
            projections = []
        }
        if case .array(let origins)? = document["fixtures"]?["providerOrigins"], let first = origins.first?.stringValue
        {
            chiaOrigin = first
        } else {
            chiaOrigin = "https://chia.test"
        }
    }

    /// The JSON of the fixture card `name` (a card or a derived card), or `nil` when there is none.
    func card(named name: String) -> JSONValue? {
        if let card = cards.first(where: { $0.key == name })?.value { return card }
        guard let recipe = derived.first(where: { $0.key == name })?.value,
            let base = recipe["card"]?.stringValue.flatMap({ card(named: $0) }),
            case .array(let patch)? = recipe["patch"]
        else { return nil }
        return Self.patched(base, with: patch)
    }

    /// The id of the fixture card `name`.
    func itemID(ofCard name: String) -> String? { card(named: name)?["id"]?.stringValue }

    /// What the catalog `projection` serves for `itemID`: the card as BatonCore's strict decoder reads it, or `nil`
    /// when the catalog does not list the item (or lists a card that does not decode, which a renderer leaves out).
    /// Throws when the catalog is not in the file.
    func served(itemID: String, projection: String) throws(MissingFixture) -> CatalogCard? {
        guard case .array(let names)? = projections.first(where: { $0.key == projection })?.value else {
            throw MissingFixture(name: projection)
        }
        for name in names.compactMap(\.stringValue) {
            guard let card = card(named: name) else { throw MissingFixture(name: name) }
            if card["id"]?.stringValue == itemID { return Self.decoded(card) }
        }
        return nil
    }

    /// `card` read by BatonCore's strict `CatalogCard` decoder; `nil` when it does not decode.
    static func decoded(_ card: JSONValue) -> CatalogCard? {
        try? JSONDecoder().decode(CatalogCard.self, from: Data(card.rendered.utf8))
    }

    /// `node` with an RFC 6902 patch applied (`add`/`replace`/`remove` on object members, all the file uses);
    /// `nil` when an operation is malformed.
    static func patched(_ node: JSONValue, with patch: [JSONValue]) -> JSONValue? {
        var result = node
        for operation in patch {
            guard let op = operation["op"]?.stringValue, ["add", "replace", "remove"].contains(op),
                let path = operation["path"]?.stringValue
            else { return nil }
            let keys = path.split(separator: "/").map(String.init)
            result = patched(result, keys: keys[...], op: op, value: operation["value"] ?? .null)
        }
        return result
    }

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

/// A fixture or catalog a case names that the file does not define.
struct MissingFixture: Error {
    /// The name looked up.
    let name: String
}
