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

    /// Every (status, code) the backend can answer is documented at that status: the codes are read from the sources
    /// of BatonHTTP and BatonServer (each `status: N, code: "…"`), so a new problem code fails here until
    /// `openapi.json` lists it.
    @Test func documentsEveryProblemCodeTheServerCanEmit() throws {
        let emitted = try Self.emittedProblems()
        #expect(emitted.count > 20, "the source scan found \(emitted.count) codes")
        for problem in emitted.sorted(by: { ($0.status, $0.code) < ($1.status, $1.code) }) {
            #expect(
                Self.documentedProblems.contains {
                    (problem.status == 0 || $0.status == problem.status) && $0.codes.contains(problem.code)
                },
                "\(problem.status) \(problem.code) is not documented")
        }
    }

    /// And nothing else: every (status, code) the document lists is one the server can emit.
    @Test func documentsNoProblemCodeTheServerCannotEmit() throws {
        let emitted = try Self.emittedProblems()
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

    /// Codes the scanned sources hold that the backend's documented routes never answer, each for a reason:
    /// `not_local` is only for `POST /web/dev-token` (web shell) and the sandbox's control routes.
    static let undocumentedByDesign: Set<String> = ["not_local"]

    /// Every `status: N, code: "…"` or `status: N, code: ProblemCode.member.rawValue` (or the same with a status
    /// computed at run time) in Sources/BatonHTTP and Sources/BatonServer outside the web shell (`Web/`); members of
    /// ``ProblemCode`` are read from its declarations in Sources/BatonCore/API/ProblemCode.swift.
    static func emittedProblems() throws -> Set<Problem> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Sources")
        // `status: status, code: "…"` (a status computed at run time) is recorded with status 0: any status.
        let pattern =
            #/status:\s*([0-9]{3}|[a-z][A-Za-z]*),\s*code:\s*(?:"([a-z_]+)"|ProblemCode\.([A-Za-z]+)\.rawValue)/#
        let declaration = #/static let ([A-Za-z]+) = ProblemCode\(rawValue: "([a-z_]+)"\)/#
        let codeSource = try String(
            contentsOf: root.appending(path: "BatonCore/API/ProblemCode.swift"), encoding: .utf8)
        let members = Dictionary(
            uniqueKeysWithValues: codeSource.matches(of: declaration).map { (String($0.output.1), String($0.output.2)) }
        )
        var found: Set<Problem> = []
        for module in ["BatonHTTP", "BatonServer"] {
            let files = FileManager.default.enumerator(
                at: root.appending(path: module), includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift", !file.path.contains("/BatonServer/Web/") else { continue }
                for match in try String(contentsOf: file, encoding: .utf8).matches(of: pattern) {
                    let literal = match.output.2.map(String.init)
                    let member = match.output.3.map(String.init)
                    let resolved = literal ?? member.flatMap { members[$0] }
                    #expect(resolved != nil, "ProblemCode.\(member ?? "?") has no declaration in ProblemCode.swift")
                    guard let code = resolved else { continue }
                    guard !undocumentedByDesign.contains(code) else { continue }
                    found.insert(Problem(status: Int(match.output.1) ?? 0, code: code))
                }
            }
        }
        return found
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
