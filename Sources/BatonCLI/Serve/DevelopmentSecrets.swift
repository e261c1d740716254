import BatonCrypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The secrets `baton serve --sandbox` generates on first run into `./.baton/secrets.json` (mode 0600, in a 0700
/// folder) and reuses afterwards, keyed by the environment variable each one stands for.
struct DevelopmentSecrets {
    static let directory = ".baton"
    static var file: String { directory + "/secrets.json" }

    /// The values, by environment variable name (`BATON_CHIA_API_KEY`, …).
    let environment: [String: String]

    /// Reads `./.baton/secrets.json`, or creates it with fresh random values.
    static func loadOrCreate() throws -> DevelopmentSecrets {
        if let existing = try load() { return existing }
        mkdir(directory, 0o700)
        let fresh = try generate()
        let data = try JSONSerialization.data(withJSONObject: fresh, options: [.prettyPrinted, .sortedKeys])
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            // Another process created it first: use theirs.
            if let existing = try load() { return existing }
            throw CLIFailure("cannot create \(file)")
        }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { throw CLIFailure("cannot write \(file)") }
        return DevelopmentSecrets(environment: fresh)
    }

    /// Reads `./.baton/secrets.json` if it exists.
    static func load() throws -> DevelopmentSecrets? {
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file),
            let values = try? JSONSerialization.jsonObject(with: data) as? [String: String]
        else { throw CLIFailure("\(file) is not a JSON object of strings; delete it to regenerate") }
        return DevelopmentSecrets(environment: values)
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
