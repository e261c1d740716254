import BatonCore
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

    /// The document describes exactly the routes the backend mounts, with the catalog pipeline and the web shell:
    /// a route added to the router and not to `openapi.json` fails here, and so does a documented route no one mounts.
    /// The web shell's `/web/…` pages are the one exception: a reference app, not API.
    @Test func describesExactlyTheRoutesTheBackendMounts() async throws {
        // The backend as built, with its own catalog pipeline (the fixture's scripted projection taken out again).
        let fixture = try await BackendFixture.make(.sqlite) { overrides in
            overrides.catalog = nil
            overrides.servesWebShell = true
        }
        let router = fixture.backend.router
        await fixture.close()
        let mounted = Set(
            router.routeDescriptions.filter { route in
                let path = route.split(separator: " ").last ?? ""
                return path != "/web" && !path.hasPrefix("/web/")
            })
        let documented = Set(Self.operations.map { "\($0.method.uppercased()) \($0.path)" })
        #expect(router.routeDescriptions.contains("GET /web/shell.js"), "the web shell is mounted, so it is excluded")
        #expect(mounted.subtracting(documented).isEmpty, "mounted but not documented")
        #expect(documented.subtracting(mounted).isEmpty, "documented but not mounted")
    }

    /// Every (status, code) the backend can answer is documented at that status: the codes are read from
    /// ``ProblemCode/answered`` and their statuses from the same table the server's answers take them from, so a new
    /// problem code fails here until `openapi.json` lists it.
    @Test func documentsEveryProblemCodeTheServerCanEmit() throws {
        let emitted = Self.emittedProblems()
        #expect(emitted.count > 20, "the table holds \(emitted.count) codes")
        for problem in emitted.sorted(by: { ($0.status, $0.code) < ($1.status, $1.code) }) {
            #expect(
                Self.documentedProblems.contains {
                    (problem.status == 0 || $0.status == problem.status) && $0.codes.contains(problem.code)
                },
                "\(problem.status) \(problem.code) is not documented")
        }
    }

    /// The table gives each code once, and a status to every code but the one that replays an earlier refusal's.
    @Test func theProblemTableGivesEachCodeOneStatus() {
        #expect(Set(ProblemCode.answered).count == ProblemCode.answered.count)
        #expect(ProblemCode.answered.filter { $0.status == nil } == [.requestRejected])
        #expect(ProblemCode(rawValue: "not_a_code").status == nil)
    }

    /// And nothing else: every (status, code) the document lists is one the server can emit.
    @Test func documentsNoProblemCodeTheServerCannotEmit() throws {
        let emitted = Self.emittedProblems()
        let documented = Set(
            Self.documentedProblems.flatMap { status, codes in codes.map { Problem(status: status, code: $0) } })
        for problem in documented.sorted(by: { ($0.status, $0.code) < ($1.status, $1.code) }) {
            let anyStatus = Problem(status: 0, code: problem.code)
            #expect(
                emitted.contains(problem) || emitted.contains(anyStatus),
                "\(problem.status) \(problem.code) is never emitted")
        }
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

    struct Problem: Hashable {
        let status: Int
        let code: String
    }

    /// Codes of the table that the backend's documented routes never answer, each for a reason: `not_local` is only
    /// for `POST /web/dev-token` (web shell) and the sandbox's control routes.
    static let undocumentedByDesign: Set<String> = ["not_local"]

    /// Every code the server answers with and its status, from the table its problem answers take their status from
    /// (``ProblemCode/status``); a code without a status of its own (`request_rejected`) is recorded with status 0:
    /// any status.
    static func emittedProblems() -> Set<Problem> {
        Set(
            ProblemCode.answered.filter { !undocumentedByDesign.contains($0.rawValue) }.map {
                Problem(status: $0.status ?? 0, code: $0.rawValue)
            })
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

    /// The `code` values a problem response lists in `x-problem-codes`, when its body is the one `Problem` schema.
    static func problemCodes(_ response: [String: Any]) -> Set<String> {
        let content = response["content"] as? [String: Any]
        let schema = (content?["application/problem+json"] as? [String: Any])?["schema"] as? [String: Any]
        guard schema?["$ref"] as? String == "#/components/schemas/Problem" else { return [] }
        return Set(response["x-problem-codes"] as? [String] ?? [])
    }
}
