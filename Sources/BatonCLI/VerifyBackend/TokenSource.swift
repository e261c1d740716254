import BatonCore
import Foundation

/// Where the kit gets an app token for a test user: a command run with the user id (`--token-command 'cmd {user}'`),
/// or fixed tokens given per user (`--token USER=TOKEN`, repeated).
enum TokenSource: Sendable {
    /// A shell command; `{user}` is replaced by the user id, shell-quoted. Its standard output, trimmed, is the token;
    /// a JSON object with a `token` member (what `POST /web/dev-token` answers) is read for that member.
    case command(String)
    /// Fixed tokens by user id; only these users can be used.
    case fixed([(user: String, token: String)])
    /// Tokens made in the process (a caller that links the kit, such as a test holding the signing key).
    case mint(@Sendable (String) async throws -> String)

    /// Reads `--token USER=TOKEN` values.
    static func fixed(from values: [String]) throws(UsageError) -> TokenSource {
        var pairs: [(user: String, token: String)] = []
        for value in values {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex,
                value.index(after: equals) != value.endIndex
            else { throw UsageError("--token must be USER=TOKEN") }
            pairs.append((String(value[..<equals]), String(value[value.index(after: equals)...])))
        }
        return .fixed(pairs)
    }

    /// The token for `user`.
    func token(for user: String) async throws -> String {
        switch self {
        case .mint(let make):
            return try await make(user)
        case .fixed(let pairs):
            guard let token = pairs.first(where: { $0.user == user })?.token else {
                throw CheckNotRun("no --token given for user \(user)")
            }
            return token
        case .command(let template):
            let command = template.replacingOccurrences(of: "{user}", with: Self.shellQuoted(user))
            let (status, output) = await Self.run(command)
            guard status == 0 else { throw CheckFailure("the token command exited \(status) for user \(user)") }
            let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("{") {
                guard let token = (try? JSONValue.parse(Array(text.utf8)))?["token"]?.stringValue else {
                    throw CheckFailure("the token command printed JSON without a \"token\" string")
                }
                return token
            }
            guard !text.isEmpty, !text.contains(where: \.isWhitespace) else {
                throw CheckFailure("the token command printed no single token for user \(user)")
            }
            return text
        }
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `/bin/sh -c command` on a thread of its own (it blocks), and returns its exit status and output.
    private static func run(_ command: String) async -> (Int32, String) {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let (status, output) = ShellCommand.run(command)
                continuation.resume(returning: (status, String(decoding: output, as: UTF8.self)))
            }
            thread.start()
        }
    }
}
