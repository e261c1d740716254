import Foundation
import Testing

/// What a client or server generator needs from the document (issue 33 item 4): one RFC 9457 `Problem` schema that
/// every problem response refers to through `components/responses`, `oneOf` variants that are named schemas with a
/// `title` and a `discriminator`, and valid schemas (every array says what its items are).
@Suite("OpenAPI document for generators")
struct OpenAPIGeneratorReadinessTests {
    typealias Document = OpenAPIDocumentTests
    static let problem = "#/components/schemas/Problem"

    static var components: [String: Any] { Document.document["components"] as? [String: Any] ?? [:] }

    @Test func everyProblemResponseIsASharedResponseWhoseBodyIsTheOneProblemSchema() {
        let shared = Self.components["responses"] as? [String: [String: Any]] ?? [:]
        for (path, item) in Document.paths {
            for case let (method, operation as [String: Any]) in item {
                for (status, response) in operation["responses"] as? [String: [String: Any]] ?? [:] {
                    let content = response["content"] as? [String: Any]
                    #expect(
                        content?["application/problem+json"] == nil,
                        "\(method) \(path) \(status): an inline problem response (refer to components/responses)")
                }
            }
        }
        var problemResponses = 0
        for (name, response) in shared {
            let content = response["content"] as? [String: Any]
            guard let problem = content?["application/problem+json"] as? [String: Any] else { continue }
            problemResponses += 1
            let schema = problem["schema"] as? [String: Any]
            #expect(schema?.count == 1 && schema?["$ref"] as? String == Self.problem, "\(name): not exactly Problem")
            #expect(!(response["x-problem-codes"] as? [String] ?? []).isEmpty, "\(name): lists no x-problem-codes")
        }
        #expect(problemResponses > 10)
    }

    @Test func everyOneOfIsOfTitledSchemasWithADiscriminator() {
        let schemas = Self.components["schemas"] as? [String: [String: Any]] ?? [:]
        var found = 0
        func visit(_ value: Any, at path: String) {
            if let object = value as? [String: Any] {
                if let variants = object["oneOf"] as? [[String: Any]] {
                    found += 1
                    let discriminator = object["discriminator"] as? [String: Any]
                    #expect(discriminator?["propertyName"] is String, "\(path): oneOf without a discriminator")
                    for variant in variants {
                        let name = (variant["$ref"] as? String)?.split(separator: "/").last.map(String.init) ?? ""
                        #expect(schemas[name]?["title"] is String, "\(path): a variant that is not a titled schema")
                    }
                }
                for (key, child) in object { visit(child, at: "\(path)/\(key)") }
            } else if let array = value as? [Any] {
                for child in array { visit(child, at: path) }
            }
        }
        visit(Document.document, at: "#")
        #expect(found >= 2)
    }

    @Test func everyArraySchemaSaysWhatItsItemsAre() {
        var arrays = 0
        func visit(_ value: Any, at path: String) {
            if let object = value as? [String: Any] {
                if object["type"] as? String == "array" {
                    arrays += 1
                    #expect(object["items"] != nil || object["prefixItems"] != nil, "\(path): an array without items")
                }
                for (key, child) in object { visit(child, at: "\(path)/\(key)") }
            } else if let array = value as? [Any] {
                for child in array { visit(child, at: path) }
            }
        }
        visit(Document.document, at: "#")
        #expect(arrays > 5)
    }
}
