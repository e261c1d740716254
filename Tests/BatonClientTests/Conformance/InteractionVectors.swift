import BatonCore
import BatonTestSupport
import Foundation
import Testing

/// `Conformance/interaction.v1.json`: event sequences and the effects each event must cause.
struct InteractionVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let id: String
        let description: String
        let matrix: String
        let flow: String
        let config: JSONValue
        let steps: [Step]

        var testDescription: String { id }
    }

    struct Step: Decodable {
        let event: JSONValue
        let expect: [JSONValue]
    }

    let name: String
    let version: Int
    let cards: [String: JSONValue]
    let cases: [Case]

    /// The file, from the repository's `Conformance/` folder.
    static let file = try! VectorFile.load("Conformance/interaction.v1.json", as: InteractionVectors.self)

    /// The cards the vectors name, decoded strictly.
    var decodedCards: [String: CatalogCard] {
        cards.mapValues { try! JSONDecoder().decode(CatalogCard.self, from: $0.data) }
    }
}

/// Runs one flow's machine over vector events and describes its effects as JSON.
protocol InteractionVectorRunner {
    /// Handles one vector event; returns the effects (telemetry aside) and the telemetry recorded.
    mutating func apply(_ event: JSONValue) -> (effects: [JSONValue], telemetry: [TelemetryEventDescription])
}

/// The reflected text of a telemetry event, checked for anything URL-like.
typealias TelemetryEventDescription = String

extension JSONValue {
    /// The RFC 3339 date at `key`.
    func date(_ key: String) -> Date { RFC3339.date(from: self[key]!.string!)! }
}
