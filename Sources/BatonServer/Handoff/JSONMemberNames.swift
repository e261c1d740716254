import Foundation

/// Checks the member names of every object in a JSON text, which a decoder into a dictionary cannot see.
enum JSONMemberNames {
    /// Whether any object in `body` (at any depth) names a member twice; names are compared after unescaping, so
    /// `"affirmed"` and `"affirm\u0065d"` are the same member. `body` is expected to be valid JSON (decode it too).
    static func containDuplicates(_ body: [UInt8]) -> Bool {
        var frames: [Frame] = []
        var index = 0
        while index < body.count {
            switch body[index] {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < body.count, body[index] != UInt8(ascii: "\"") {
                    index += body[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < body.count else { return false }
                if case .object(var names, expectingName: true)? = frames.last {
                    guard let name = decodeName(body[start...index]), names.insert(name).inserted else { return true }
                    frames[frames.count - 1] = .object(names, expectingName: false)
                }
            case UInt8(ascii: "{"):
                frames.append(.object([], expectingName: true))
            case UInt8(ascii: "["):
                frames.append(.array)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = frames.popLast()
            case UInt8(ascii: ","):
                if case .object(let names, _)? = frames.last {
                    frames[frames.count - 1] = .object(names, expectingName: true)
                }
            default:
                break
            }
            index += 1
        }
        return false
    }

    private enum Frame {
        case object(Set<String>, expectingName: Bool)
        case array
    }

    /// The value of a quoted JSON string (quotes included in `quoted`).
    private static func decodeName(_ quoted: ArraySlice<UInt8>) -> String? {
        let inner = quoted.dropFirst().dropLast()
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        return try? JSONDecoder().decode(String.self, from: Data(quoted))
    }
}
