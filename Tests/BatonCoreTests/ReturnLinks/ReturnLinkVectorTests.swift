import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

/// One case of `Conformance/return-links.v1.json`.
struct ReturnLinkVector: Sendable, CustomTestStringConvertible {
    let id: String
    let flow: String
    let registered: [String]
    let registeredHost: String
    let url: String
    /// The expected `parse-return` object, values as strings (`nil` for JSON null); `isReturn` as "true"/"false".
    let expect: [String: String?]

    var testDescription: String { id }

    static func all() throws -> [ReturnLinkVector] {
        try VectorFile.cases("return-links.v1.json").map { entry in
            let expect = (entry["expect"] as? [String: Any] ?? [:]).mapValues { value -> String? in
                switch value {
                case is NSNull: nil
                case let flag as Bool: flag ? "true" : "false"
                default: "\(value)"
                }
            }
            return ReturnLinkVector(
                id: entry["id"] as! String, flow: entry["flow"] as! String,
                registered: entry["registered"] as? [String] ?? [],
                registeredHost: entry["registeredHost"] as? String ?? "",
                url: entry["url"] as! String, expect: expect)
        }
    }
}

@Suite struct ReturnLinkVectorTests {
    @Test func fileHasEnoughCasesOverEveryFlow() throws {
        let cases = try ReturnLinkVector.all()
        #expect(cases.count >= 150)
        #expect(Set(cases.map(\.flow)) == ["connect", "verification", "generic"])
        #expect(Set(cases.map(\.id)).count == cases.count)
    }

    @Test(arguments: try ReturnLinkVector.all())
    func vector(_ vector: ReturnLinkVector) throws {
        let actual: [String: String?]
        switch vector.flow {
        case "connect":
            let parser = try ConnectReturnParser(registered: vector.registered)
            actual = Self.fields(parser.parse(vector.url)) { connect in
                [
                    "sessionId": connect.sessionID, "resultCode": connect.resultCode.rawValue,
                    "connectionId": connect.connectionID, "error": connect.error,
                ]
            }
        case "verification":
            let parser = try VerificationReturnParser(registered: vector.registered)
            actual = Self.fields(parser.parse(vector.url)) { verification in
                ["verificationId": verification.verificationID, "status": verification.statusHint]
            }
        case "generic":
            let parser = try GenericReturnParser(registeredHost: vector.registeredHost)
            actual = Self.fields(parser.parse(vector.url)) { generic in ["route": generic.route.rawValue] }
        default:
            Issue.record("unknown flow \(vector.flow)")
            return
        }
        #expect(actual == vector.expect)
    }

    private static func fields<Return>(
        _ result: ReturnLinkResult<Return>, _ accepted: (Return) -> [String: String?]
    ) -> [String: String?] {
        switch result {
        case .accepted(let value): accepted(value).merging(["isReturn": "true"]) { first, _ in first }
        case .rejected(let reason): ["isReturn": "false", "reason": reason.rawValue]
        }
    }
}
