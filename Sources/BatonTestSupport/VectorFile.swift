import Foundation

/// Loads the repository's JSON vector files (`Conformance/*.json`, and test-local vector folders) from the
/// repository root, found from this source file's path: no SwiftPM resources needed.
///
/// ```swift
/// for entry in try VectorFile.cases("return-links.v1.json") { … }
/// let vectors = try VectorFile.load("Tests/BatonCryptoTests/Vectors/sha256-nist.json", as: [Vector].self)
/// ```
public enum VectorFile {
    /// The folder holding `Package.swift`.
    public static let repositoryRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The URL of `path`, relative to the repository root.
    public static func url(_ path: String) -> URL { repositoryRoot.appendingPathComponent(path) }

    /// The top-level object of `Conformance/<name>`.
    public static func document(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: url("Conformance").appendingPathComponent(name))
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        guard let document = object as? [String: Any] else { throw VectorError.malformed(name) }
        return document
    }

    /// The `cases` of `Conformance/<name>`, each checked to have an `id` and a `description`.
    public static func cases(_ name: String) throws -> [[String: Any]] {
        guard let cases = try document(name)["cases"] as? [[String: Any]] else { throw VectorError.malformed(name) }
        for entry in cases where !(entry["id"] is String) || !(entry["description"] is String) {
            throw VectorError.malformed(name)
        }
        return cases
    }

    /// The file at `path` (relative to the repository root), decoded as `T`.
    public static func load<T: Decodable>(_ path: String, as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: url(path)))
    }

    /// `value` as JSON with sorted keys (to compare a vector's expectation with what the code produced).
    public static func json(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
    }
}

/// A vector file that is not shaped as the suites expect.
public enum VectorError: Error {
    /// The named file is malformed.
    case malformed(String)
}
