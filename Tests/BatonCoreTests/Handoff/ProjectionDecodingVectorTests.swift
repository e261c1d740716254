import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

/// One case of `Conformance/projection-decoding.v1.json`.
struct ProjectionDecodingVector: Sendable, CustomTestStringConvertible {
    let id: String
    let target: String
    let input: Data
    let valid: Bool
    let canonical: Bool
    let errorField: String?

    var testDescription: String { id }

    static func all() throws -> [ProjectionDecodingVector] {
        try VectorFile.cases("projection-decoding.v1.json").map { entry in
            let expect = entry["expect"] as? [String: Any] ?? [:]
            return ProjectionDecodingVector(
                id: entry["id"] as! String, target: entry["target"] as! String,
                input: try VectorFile.json(entry["input"] as Any), valid: expect["valid"] as? Bool ?? false,
                canonical: expect["canonical"] as? Bool ?? false, errorField: expect["errorField"] as? String)
        }
    }
}

@Suite struct ProjectionDecodingVectorTests {
    @Test(arguments: try ProjectionDecodingVector.all())
    func vector(_ vector: ProjectionDecodingVector) throws {
        switch vector.target {
        case "mobileHandoff": try check(MobileHandoff.self, vector)
        case "catalogCard": try check(CatalogCard.self, vector)
        default: Issue.record("unknown target \(vector.target)")
        }
    }

    private func check<Value: Codable & Equatable>(_ type: Value.Type, _ vector: ProjectionDecodingVector) throws {
        do {
            let value = try JSONDecoder().decode(Value.self, from: vector.input)
            #expect(vector.valid, "decoded, but expected an error at \(vector.errorField ?? "?")")
            let encoded = try JSONEncoder().encode(value)
            #expect(try JSONDecoder().decode(Value.self, from: encoded) == value)
            if vector.canonical {
                let reencoded = try VectorFile.json(try JSONSerialization.jsonObject(with: encoded))
                #expect(reencoded == vector.input, "encoding differs from the input")
            }
        } catch let error as DecodingError {
            #expect(!vector.valid, "expected to decode, got an error at \(error.fieldPath)")
            #expect(error.fieldPath == vector.errorField)
        }
    }
}

@Suite struct MobileHandoffTests {
    let neutral = MobileHandoff.neutralOnly(
        .init(heading: "Continue on Chia", body: "No sharing.", url: HTTPSURL("https://chia.example/c/x")!))

    @Test func neutralOnlyEncodesTheSeedLiteralsAndNoSessionAction() throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(neutral)) as! [String: Any]
        #expect(object["mode"] as? String == "neutral_only")
        #expect(object["actionLabel"] as? String == "Continue to Chia")
        #expect(Set(object.keys) == ["mode", "heading", "body", "actionLabel", "url"])
    }

    @Test func shareOrNeutralEncodesBothActionsWithTheirLiterals() throws {
        let share = MobileHandoff.shareOrNeutral(
            .init(
                heading: "h", body: "b", recipient: .init(legalName: "Chia", privacyContact: "p@chia.example"),
                dataShared: ["item"], purpose: "p", compensationDisclosure: "c",
                policyURLs: ["privacy": HTTPSURL("https://chia.example/p")!], disclosureVersion: "v1",
                neutralURL: HTTPSURL("https://chia.example/c/x")!))
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(share)) as! [String: Any]
        let primary = object["primary"] as! [String: String]
        let secondary = object["secondary"] as! [String: String]
        #expect(
            primary == [
                "actionLabel": "Share selection and continue", "sessionCreationPath": "/v2/handoff-sessions",
                "disclosureVersion": "v1",
            ])
        #expect(secondary == ["actionLabel": "Continue without sharing", "url": "https://chia.example/c/x"])
        #expect((object["recipient"] as! [String: String])["legal_name"] == "Chia")
    }

    @Test func decodingErrorNamesTheFieldButNotTheValue() throws {
        let json = Data(
            #"{"mode":"neutral_only","heading":"h","body":"b","actionLabel":"x","url":"https://secret.example/"}"#.utf8)
        do {
            _ = try JSONDecoder().decode(MobileHandoff.self, from: json)
            Issue.record("decoded a changed literal")
        } catch let error as DecodingError {
            #expect(error.fieldPath == "actionLabel")
            #expect(!"\(error)".contains("secret.example"))
        }
    }
}
