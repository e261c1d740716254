import Foundation

/// Small helpers for reading request bodies strictly.
enum StrictJSON {
    /// The member names of `body` when it is a JSON object, else `nil`.
    static func objectKeys(_ body: [UInt8]) -> Set<String>? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return Set(object.keys)
    }

    /// Decodes `body` as `T` when it is a JSON object whose members are all in `allowed`; `nil` otherwise.
    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], allowed: Set<String>) -> T? {
        guard let keys = objectKeys(body), keys.isSubset(of: allowed) else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(body))
    }
}
