import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder an SQLite database file lives in: created (mode 0700) when missing, so the default
/// `sqlite:.baton/baton.sqlite` opens in a fresh folder.
enum StoreFolder {
    /// The folder holding the database file at `path` (`.` for a bare file name).
    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// Creates the folder of `path` and any missing parents with mode 0700; an existing folder is left as it is.
    ///
    /// - Throws: `StoreError(.unavailable, operation: "createFolder")` when it cannot be created.
    static func prepare(forDatabaseAt path: String) throws(StoreError) {
        let folder = folder(of: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue { return }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(.unavailable, engine: .sqlite, operation: "createFolder")
        }
    }

    /// What `baton doctor` says about the folder of `path`, without creating anything.
    enum Readiness: Sendable, Hashable {
        /// The folder exists and this user may create and write files in it.
        case writable(folder: String)
        /// The folder does not exist yet; `baton serve` creates it under `parent`, which is writable.
        case willBeCreated(folder: String, parent: String)
        /// The folder exists but this user cannot write in it.
        case notWritable(folder: String)
        /// The folder cannot be created: `blocker` is not a folder, or not writable.
        case cannotCreate(folder: String, blocker: String)
    }

    /// Checks whether the database at `path` can be created or opened for writing by this process.
    static func readiness(forDatabaseAt path: String) -> Readiness {
        let folder = folder(of: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return .cannotCreate(folder: folder, blocker: folder) }
            return access(folder, W_OK | X_OK) == 0 ? .writable(folder: folder) : .notWritable(folder: folder)
        }
        // The nearest ancestor that exists decides whether the missing part can be created.
        var ancestor = folder
        while true {
            let parent = (ancestor as NSString).deletingLastPathComponent
            ancestor = parent.isEmpty ? "." : parent
            if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDirectory) { break }
            if ancestor == "/" || ancestor == "." { break }
        }
        guard isDirectory.boolValue, access(ancestor, W_OK | X_OK) == 0 else {
            return .cannotCreate(folder: folder, blocker: ancestor)
        }
        return .willBeCreated(folder: folder, parent: ancestor)
    }
}
