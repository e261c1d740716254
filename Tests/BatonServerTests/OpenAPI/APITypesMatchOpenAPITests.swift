import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// The types of `BatonCore/API` and the served `/openapi.json` describe the same bodies: each sample conforms to
/// its component schema, and the samples of a type together use every member its schema names. A member added to a
/// type but not to the document, or to the document but not to the type, fails here.
@Suite("API types agree with the OpenAPI document")
struct APITypesMatchOpenAPITests {
    static let journey = SensitiveURL("https://journey.example/s/phs_1#ticket=t")!

    /// Schema name in `components/schemas`, and bodies written by the type, every optional member used at least once.
    static let samples: [(schema: String, bodies: [[UInt8]])] = [
        (
            "HandoffSessionRequest",
            [
                ShareRequestBody(catalogItemId: "item-1", disclosureVersion: "v1", affirmedAt: "2026-03-01T12:00:00Z")
                    .jsonBody
            ]
        ),
        (
            "HandoffSession",
            [HandoffSession(url: journey, expiresAt: Date(timeIntervalSince1970: 1_780_000_000)).jsonBody]
        ),
        ("VerificationHandoffRequest", [VerificationHandoffRequest(workflow: "kyc").jsonBody]),
        ("VerificationHandoff", [VerificationHandoff(url: journey, expiresInSeconds: 300).jsonBody]),
        (
            "VerificationStatus",
            [VerificationState(verificationID: "ver_1", status: VerificationStatus(rawValue: "approved")).jsonBody]
        ),
        ("ConnectSessionRequest", ConnectCallback.Kind.allCases.map { ConnectSessionRequest(callback: $0).jsonBody }),
        (
            "ConnectSession",
            [
                ConnectSession(
                    sessionID: "cs_1", hostedURL: journey, callback: .https(host: "app.example.com", path: "/bb")
                ).jsonBody,
                ConnectSession(sessionID: "cs_1", hostedURL: journey, callback: .customScheme("acme")).jsonBody,
            ]
        ),
        (
            "ConnectSessionStatus",
            ConnectSessionState.Status.allCases.map { ConnectSessionState(sessionID: "cs_1", status: $0).jsonBody }
                + [ConnectSessionState(sessionID: "cs_1", status: .ok, connectionID: "conn_1", error: "e").jsonBody]
        ),
        (
            "Problem",
            [
                BackendProblem.projectionChanged.response().body,
                HTTPError.internalError.response(requestID: "req-1").body,
            ]
        ),
    ]

    /// The component schemas of the document as served.
    static func schemas() throws -> SchemaSubset.Value {
        let document = try SchemaSubset.Value.parse(OpenAPIDocument.response().body)
        return try #require(document["components"]?["schemas"])
    }

    @Test(arguments: samples.map(\.schema))
    func everyBodyConformsAndEveryDocumentedMemberIsWritten(schemaName: String) throws {
        let schemas = try Self.schemas()
        let schema = SchemaSubset(
            schema: try #require(schemas[schemaName], "\(schemaName) is missing"), definitions: schemas)
        let bodies = try #require(Self.samples.first { $0.schema == schemaName }).bodies
        var written: Set<String> = []
        for body in bodies {
            let value = try SchemaSubset.Value.parse(body)
            #expect(schema.violations(of: value).isEmpty, "\(schemaName): \(schema.violations(of: value))")
            written.formUnion(SchemaSubset.memberNames(of: value))
        }
        #expect(schema.memberNames == written, "\(schemaName): the document and the type name different members")
    }

    @Test func theSubsetValidatorCatchesAnUndocumentedMember() throws {
        let schema = SchemaSubset(schema: try #require(try Self.schemas()["VerificationStatus"]))
        let extra = try SchemaSubset.Value.parse(Array(#"{"status":"ok","verificationId":"v","extra":1}"#.utf8))
        #expect(schema.violations(of: extra) == ["$.extra: not in the schema"])
        let missing = try SchemaSubset.Value.parse(Array(#"{"status":"ok"}"#.utf8))
        #expect(schema.violations(of: missing) == ["$.verificationId: required but absent"])
    }
}
