import Foundation

/// Loads a JSON vector file from `Vectors/` next to this source file (no SwiftPM resources needed).
enum VectorFile {
    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Vectors").appendingPathComponent(name)
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}

/// `[UInt8]` from a hex string in a vector file; a malformed file is a test bug, so it traps.
func hexBytes(_ string: String) -> [UInt8] {
    var output = [UInt8]()
    var index = string.startIndex
    while index < string.endIndex {
        let next = string.index(index, offsetBy: 2)
        output.append(UInt8(string[index..<next], radix: 16)!)
        index = next
    }
    return output
}
