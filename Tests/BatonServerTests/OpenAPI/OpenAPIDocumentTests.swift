import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// The checked-in OpenAPI document: well-formed 3.1, served as is, and in step with the routes and problem codes.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    static var document: [String: Any] {
        let parsed = try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8))
        return parsed as? [String: Any] ?? [:]
    }

    static var paths: [String: [String: Any]] { document["paths"] as? [String: [String: Any]] ?? [:] }

    /// Every (method, path template) the document describes.
    static var operations: [(method: String, path: String)] {
        paths.flatMap { path, item in
            item.keys.filter { ["get", "post", "put", "patch", "delete"].contains($0) }.map { ($0, path) }
        }.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
    }

    @Test func isAnOpenAPI31DocumentWhoseReferencesAllResolve() throws {
        #expect(Self.document["openapi"] as? String == "3.1.0")
        #expect(!Self.operations.isEmpty)
        var references: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(Self.document)
        #expect(!references.isEmpty)
        for reference in Set(references) {
            #expect(reference.hasPrefix("#/"), "\(reference) is not local")
            var node: Any? = Self.document
            for part in reference.dropFirst(2).split(separator: "/") {
                node = (node as? [String: Any])?[String(part)]
            }
            #expect(node != nil, "\(reference) does not resolve")
        }
    }

    @Test func describesEveryRouteOfContracts2() {
        let documented = Set(Self.operations.map { "\($0.method.uppercased()) \($0.path)" })
        let expected: Set<String> = [
            "GET /v2/catalog", "POST /v2/handoff-sessions", "POST /v2/verification-handoffs",
            "GET /v2/verifications/{workflow}", "POST /v2/connect-sessions", "GET /v2/connect-sessions/{sessionId}",
            "POST /webhooks/privue", "POST /webhooks/bb", "GET /.well-known/apple-app-site-association",
            "GET /.well-known/assetlinks.json", "GET /assets/{file}", "GET /healthz", "GET /readyz", "GET /metrics",
            "GET /openapi.json", "GET /bb-callback", "GET /kyc/done",
        ]
        #expect(documented == expected)
    }

    @Test(
        arguments: [
            BackendProblem.idempotencyKeyInvalid, BackendProblem.invalidRequest(""), BackendProblem.projectionChanged,
            BackendProblem.idempotencyKeyReused, BackendProblem.handoffExpired, BackendProblem.handoffRejected,
            BackendProblem.stillInProgress(retryAfter: 1), BackendProblem.storeUnavailable(retryAfter: 1),
            BackendProblem.providerUnavailable(ProviderUnavailable(.rateLimited)),
            BackendProblem.providerUnavailable(ProviderUnavailable(.timedOut)),
            BackendProblem.providerUnavailable(ProviderUnavailable(.unreachable)),
            BackendProblem.notFound, BackendProblem.unknownWorkflow, BackendProblem.callbackUnavailable,
            BackendProblem.providerRejected, HTTPError.unauthorized(), HTTPError.payloadTooLarge,
            BackendProblem.rateLimited(retryAfter: 1),
        ])
    func documentsEveryProblemCodeWithItsStatus(_ problem: HTTPError) {
        #expect(
            Self.documentedProblems.contains { $0.status == problem.status && $0.codes.contains(problem.code) },
            "\(problem.status) \(problem.code) is not documented")
    }

    @Test func servesTheDocumentAsIsAtOpenAPIJSON() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run(.live) { api in
            let response = try await api.send(.get, "/openapi.json", user: nil)
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.body == Array(OpenAPIDocument.json.utf8))
        }
    }

    /// An empty request to each operation (path parameters filled with a placeholder) answers a status the document
    /// lists for that operation. `GET /v2/catalog` is mounted by the catalog pipeline, which the fixture replaces.
    @Test func anEmptyRequestToEachOperationAnswersADocumentedStatus() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run { api in
            for (method, path) in Self.operations where path != "/v2/catalog" {
                let target = path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "x", options: .regularExpression)
                let response = try await api.send(HTTPMethod(method.uppercased()), target)
                let responses = Self.paths[path]?[method].flatMap { ($0 as? [String: Any])?["responses"] }
                let documented = (responses as? [String: Any])?.keys.compactMap { Int($0) } ?? []
                #expect(documented.contains(response.status), "\(method) \(path) answered \(response.status)")
            }
        }
    }

    /// Every (status, codes) pair the document lists in a problem+json response.
    static var documentedProblems: [(status: Int, codes: Set<String>)] {
        let components = Self.document["components"] as? [String: Any]
        let shared = components?["responses"] as? [String: [String: Any]] ?? [:]
        var found: [(Int, Set<String>)] = []
        for item in paths.values {
            for case let operation as [String: Any] in item.values {
                for (status, value) in operation["responses"] as? [String: [String: Any]] ?? [:] {
                    var response = value
                    if let reference = value["$ref"] as? String {
                        response = shared[String(reference.split(separator: "/").last ?? "")] ?? [:]
                    }
                    if let status = Int(status) { found.append((status, problemCodes(response))) }
                }
            }
        }
        return found
    }

    /// The `code` values (enum or const) a response's problem+json schema allows.
    static func problemCodes(_ response: [String: Any]) -> Set<String> {
        let content = response["content"] as? [String: Any]
        let schema = (content?["application/problem+json"] as? [String: Any])?["schema"] as? [String: Any]
        var codes: Set<String> = []
        for case let part as [String: Any] in schema?["allOf"] as? [Any] ?? [] {
            let code = (part["properties"] as? [String: Any])?["code"] as? [String: Any]
            codes.formUnion(code?["enum"] as? [String] ?? [])
            if let constant = code?["const"] as? String { codes.insert(constant) }
        }
        return codes
    }
}
