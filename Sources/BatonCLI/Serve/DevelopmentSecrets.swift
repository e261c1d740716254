import BatonCrypto
import BatonHTTP
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The secrets `baton serve --sandbox` and `baton sandbox` generate on first run into `./.baton/secrets.json` (mode
/// 0600, in a 0700 folder) and reuse afterwards, keyed by the environment variable each one stands for.
struct DevelopmentSecrets {
    static let directory = ".baton"
    static var file: String { directory + "/secrets.json" }

    /// The values, by environment variable name (`BATON_CHIA_API_KEY`, …).
    let environment: [String: String]

    /// Reads `secrets.json` in `directory` (default `./.baton`), or creates it (and the folder, mode 0700) with fresh
    /// random values.
    static func loadOrCreate(in directory: String = directory) throws -> DevelopmentSecrets {
        let file = directory + "/secrets.json"
        if let existing = try load(in: directory) { return existing }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIFailure("cannot create the folder \(directory)")
        }
        let fresh = try generate()
        let data = try JSONSerialization.data(withJSONObject: fresh, options: [.prettyPrinted, .sortedKeys])
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            // Another process created it first: use theirs.
            if let existing = try load(in: directory) { return existing }
            throw CLIFailure("cannot create \(file)")
        }
        defer { close(descriptor) }
        guard FileDescriptorIO.writeAll(data, to: descriptor).isComplete else {
            throw CLIFailure("cannot write \(file)")
        }
        return DevelopmentSecrets(environment: fresh)
    }

    /// Reads `secrets.json` in `directory` (default `./.baton`) if it exists.
    static func load(in directory: String = directory) throws -> DevelopmentSecrets? {
        let file = directory + "/secrets.json"
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file),
            let values = try? JSONSerialization.jsonObject(with: data) as? [String: String]
        else { throw CLIFailure("\(file) is not a JSON object of strings; delete it to regenerate") }
        return DevelopmentSecrets(environment: values)
    }

    /// The values as a shell env file (`NAME='value'` lines, sorted), loaded with `set -a; . FILE; set +a`.
    var envFileText: String {
        let lines = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }
        return "# Baton development keys (sandbox only). Load with: set -a; . FILE; set +a\n"
            + lines.joined(separator: "\n") + "\n"
    }

    /// Writes ``envFileText`` to `path` with mode 0600 (replacing the file, and its mode, if it exists).
    func writeEnvFile(to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw CLIFailure("cannot write the env file \(path)") }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw CLIFailure("cannot make \(path) private (mode 0600)") }
        let data = Array(envFileText.utf8)
        guard FileDescriptorIO.writeAll(data, to: descriptor).isComplete else {
            throw CLIFailure("cannot write the env file \(path)")
        }
    }

    private static func generate() throws -> [String: String] {
        func token(_ prefix: String) throws -> String {
            prefix + Hex.encode(try SecureRandom.bytes(count: 16))
        }
        func base64(_ count: Int) throws -> String { Data(try SecureRandom.bytes(count: count)).base64EncodedString() }
        return [
            "BATON_TOKEN_SIGNING_KEY": try base64(32),
            "BATON_SEALING_KEY": try base64(32),
            "BATON_IDEMPOTENCY_SECRET": try base64(32),
            "BATON_CHIA_API_KEY": try token("chia_test_"),
            "BATON_PRIVUE_API_KEY": try token("pv_test_"),
            "BATON_PRIVUE_WEBHOOK_SECRET": "whsec_" + (try base64(32)),
            "BATON_BB_API_KEY": try token("bb_test_"),
            "BATON_BB_CLIENT_ID": try token("cli_"),
            "BATON_BB_WEBHOOK_SECRET": "whsec_" + (try base64(32)),
        ]
    }
}

/// A command failure to print on stderr (exit code 1). Its message never contains a secret.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
