import Foundation

/// Durable storage for the BB connect session a flow is waiting on: the backend's opaque `sessionId`, never the hosted
/// URL (seed 002: "keep the one your backend returned").
///
/// ``ConnectCoordinator`` writes it when a session opens and deletes it when the backend settles it; at a cold launch
/// the app reads it back and passes it to the coordinator, so the return link that launched the app confirms it.
public protocol PendingSessionStore: Sendable {
    /// The kept session id, if any.
    func load() async throws -> String?
    /// Keeps `sessionID`, replacing any other.
    func save(_ sessionID: String) async throws
    /// Forgets the kept session id, if any.
    func remove() async throws
}

/// A ``PendingSessionStore`` in memory (tests, previews): it survives a coordinator, not the process.
public actor InMemoryPendingSessionStore: PendingSessionStore {
    private var sessionID: String?

    /// Creates a store holding `sessionID`.
    public init(_ sessionID: String? = nil) { self.sessionID = sessionID }

    public func load() -> String? { sessionID }

    public func save(_ sessionID: String) { self.sessionID = sessionID }

    public func remove() { sessionID = nil }
}

/// A ``PendingSessionStore`` keeping the id in one owner-only file (`0600`, written atomically).
public struct FilePendingSessionStore: PendingSessionStore {
    /// The file holding the id.
    public let file: URL

    /// A store in `file` (for example Application Support/Baton/connect-session).
    public init(file: URL) { self.file = file }

    public func load() async throws -> String? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    public func save(_ sessionID: String) async throws {
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: Data(sessionID.utf8), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
        // rename(2) replaces the old file atomically.
        guard rename(temporary.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    public func remove() async throws {
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        try FileManager.default.removeItem(at: file)
    }
}
