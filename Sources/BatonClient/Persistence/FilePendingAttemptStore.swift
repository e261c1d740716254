import BatonCore
import Foundation

/// A ``PendingAttemptStore`` writing one JSON file per catalog item in a directory, with owner-only permissions.
///
/// The directory is created `0700`, each file is written atomically and set to `0600`. File names hex-encode the
/// catalog item id, so an id never becomes a path component. Only ``PendingAttempt`` (body and
/// key) is ever written: it has no URL field.
public struct FilePendingAttemptStore: PendingAttemptStore {
    /// The directory holding the files.
    public let directory: URL

    /// A store in `directory` (for example Application Support/Baton/pending-attempts).
    public init(directory: URL) {
        self.directory = directory
    }

    public func load(catalogItemID: String) async throws -> PendingAttempt? {
        let file = fileURL(for: catalogItemID)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let attempt = try JSONDecoder().decode(PendingAttempt.self, from: Data(contentsOf: file))
        return attempt.body.catalogItemId == catalogItemID ? attempt : nil
    }

    public func save(_ attempt: PendingAttempt) async throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = RFC3339.jsonEncoder()
        let file = fileURL(for: attempt.body.catalogItemId)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        // Create the temporary file 0600 before any byte is written, then move it into place.
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: temporary)
        do {
            try handle.write(contentsOf: encoder.encode(attempt))
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        // rename(2) replaces the old file atomically: a reader sees the old attempt or the new one, never half.
        guard rename(temporary.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    }

    public func remove(catalogItemID: String) async throws {
        let file = fileURL(for: catalogItemID)
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        try FileManager.default.removeItem(at: file)
    }

    private func fileURL(for catalogItemID: String) -> URL {
        let name = catalogItemID.utf8.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        return directory.appendingPathComponent("attempt-\(name).json")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
