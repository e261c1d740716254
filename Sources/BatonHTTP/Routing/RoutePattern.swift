import Foundation

/// A path pattern such as `/v2/connect-sessions/{sessionId}`: literal segments and `{name}` captures.
struct RoutePattern: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let text: String
    let segments: [Segment]

    init(_ text: String) {
        precondition(text.hasPrefix("/"), "route patterns start with /: \(text)")
        self.text = text
        self.segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
    }

    /// Whether the pattern has no parameters, so it matches exactly one path: its text.
    var isExact: Bool { segments.allSatisfy(\.isLiteral) }

    /// Number of literal segments, so `/a/b` wins over `/a/{x}` for `/a/b`.
    var specificity: Int { segments.reduce(0) { $1.isLiteral ? $0 + 1 : $0 } }

    /// The captured parameters when `pathSegments` match, else `nil`.
    func match(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(part).removingPercentEncoding ?? String(part)
            }
        }
        return parameters
    }
}

extension RoutePattern.Segment {
    fileprivate var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }
}
