import BatonTestSupport
import Foundation

/// Runs the built `baton` executable, found next to the test bundle in the build products directory.
enum BatonBinary {
    struct Result: Sendable {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static let repositoryRoot = VectorFile.repositoryRoot

    /// The products directory holding the test bundle (`.build/<triple>/debug`), where SwiftPM also puts `baton`.
    static let executable: URL = {
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        candidates.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        candidates.append(repositoryRoot.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let binary = directory.appendingPathComponent("baton")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        fatalError("baton not built next to the tests; run swift build first")
    }()

    /// Runs `baton` with `arguments` to completion, off the cooperative pool.
    static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
    ) async throws -> Result {
        try await offCooperativePool { try runBlocking(arguments, in: directory, environment: environment) }
    }

    private static func runBlocking(
        _ arguments: [String], in directory: URL?, environment: [String: String]?
    ) throws -> Result {
        let child = try ChildProcess(executable, arguments, in: directory ?? repositoryRoot, environment: environment)
        let status = child.waitForExit()
        return Result(status: status, standardOutput: child.standardOutput, standardError: child.standardError)
    }
}
