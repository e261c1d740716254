import BatonCore
import Foundation
import Testing

@testable import BatonClient

/// The file store keeps body and key, owner-only, and nothing else.
@Suite struct FilePendingAttemptStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-\(UUID().uuidString)")

    var attempt: PendingAttempt {
        PendingAttempt(
            key: Fixtures.keyA,
            body: ShareRequestBody(catalogItemId: "item/../1", disclosureVersion: "dv-3", affirmedAt: Fixtures.t0))
    }

    @Test func roundTripsWithOwnerOnlyPermissionsAndRemoves() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FilePendingAttemptStore(directory: directory)
        #expect(try await store.load(catalogItemID: "item/../1") == nil)
        try await store.save(attempt)
        #expect(try await FilePendingAttemptStore(directory: directory).load(catalogItemID: "item/../1") == attempt)

        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1)
        let path = directory.appendingPathComponent(files[0]).path
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let directoryPermissions =
            try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(directoryPermissions == 0o700)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(Fixtures.keyA.rawValue) && text.contains("dv-3") && !text.contains("https"))
        #expect(
            Set((try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]).keys) == ["key", "body"])

        try await store.remove(catalogItemID: "item/../1")
        #expect(try await store.load(catalogItemID: "item/../1") == nil)
    }

    @Test func saveReplacesTheEarlierAttemptForTheSameItem() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FilePendingAttemptStore(directory: directory)
        try await store.save(attempt)
        let newer = PendingAttempt(key: Fixtures.keyB, body: attempt.body)
        try await store.save(newer)
        #expect(try await store.load(catalogItemID: "item/../1") == newer)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }
}

/// The connect session store keeps only the opaque id, owner-only.
@Suite struct FilePendingSessionStoreTests {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("baton-\(UUID().uuidString)/session")

    @Test func roundTripsOwnerOnlyAndRemoves() async throws {
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let store = FilePendingSessionStore(file: file)
        #expect(try await store.load() == nil)
        try await store.save("ses_1")
        try await store.save("ses_2")
        #expect(try await FilePendingSessionStore(file: file).load() == "ses_2")
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        try await store.remove()
        #expect(try await store.load() == nil)
    }
}
