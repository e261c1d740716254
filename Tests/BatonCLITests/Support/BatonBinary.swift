import Foundation

/// Runs the built `baton` executable, found next to the test bundle in the build products directory.
enum BatonBinary {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

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

    static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = directory ?? repositoryRoot
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
