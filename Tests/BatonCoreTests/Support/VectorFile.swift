import Foundation

/// Loads a `Conformance/*.json` vector file from the repository root (found from this file's path, no resources).
enum VectorFile {
    static let repositoryRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The file's top-level object.
    static func document(_ name: String) throws -> [String: Any] {
        let url = repositoryRoot.appendingPathComponent("Conformance").appendingPathComponent(name)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url), options: [.fragmentsAllowed])
        guard let document = object as? [String: Any] else { throw VectorError.malformed(name) }
        return document
    }

    /// The file's `cases`, each checked to have an `id` and a `description`.
    static func cases(_ name: String) throws -> [[String: Any]] {
        guard let cases = try document(name)["cases"] as? [[String: Any]] else { throw VectorError.malformed(name) }
        for entry in cases where !(entry["id"] is String) || !(entry["description"] is String) {
            throw VectorError.malformed(name)
        }
        return cases
    }

    static func json(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
    }
}

enum VectorError: Error {
    case malformed(String)
}

extension Date {
    /// Parses an RFC 3339 vector timestamp or stops the test run: vector files are trusted input.
    init(vector text: String) {
        guard let date = RFC3339Parse.date(text) else { fatalError("bad date in vector: \(text)") }
        self = date
    }
}

enum RFC3339Parse {
    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
