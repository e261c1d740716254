import BatonCore
import BatonTestSupport
import Foundation
import Synchronization
import Testing

@testable import BatonClient

/// One device, two users: what one user's flows kept never reaches the next user's, and sign-out clears it.
@Suite(.timeLimit(.minutes(1))) struct BatonUserDataTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-\(UUID().uuidString)")
    let backend = ScriptedBackend()
    let presenter = RecordingPresenter()
    let clock = ManualClock(Fixtures.t0)

    func chia(_ data: BatonUserData, key: IdempotencyKey) -> ChiaHandoffCoordinator {
        ChiaHandoffCoordinator(
            catalogItemID: Fixtures.itemID, genericReturn: nil, backend: backend, store: data.pendingAttempts,
            presenter: presenter, clock: clock, makeKey: { key })
    }

    @Test func anotherUsersRestoreNeverResendsTheFirstUsersAttempt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        await backend.script {
            $0.catalogAnswers = [.success([Fixtures.shareCard]), .success([Fixtures.shareCard])]
            $0.shareAnswers = [
                .failure(BackendError(.http(status: 503, code: nil, retryAfter: nil))),
                .success(HandoffSession(url: SensitiveURL(Fixtures.journeyURL)!, expiresAt: nil)),
            ]
        }
        let alice = BatonUserData(directory: directory, userID: "alice")
        let first = chia(alice, key: Fixtures.keyA)
        await first.callToActionTapped()
        await first.whenIdle()
        await first.shareTapped()
        await first.whenIdle()
        #expect(await first.screen.notice == .shareUncertain)
        await first.stop()
        #expect(try await alice.pendingAttempts.load(catalogItemID: Fixtures.itemID) != nil)

        // Bob signs in on the same device, same directory: his restore finds nothing, and his share is his own.
        let bob = BatonUserData(directory: directory, userID: "bob")
        let second = chia(bob, key: Fixtures.keyB)
        await second.restore()
        await second.whenIdle()
        #expect(await second.screen.notice == nil)
        await second.shareTapped()
        await second.whenIdle()
        let keys = await backend.calls.compactMap { call -> IdempotencyKey? in
            if case .createHandoffSession(let attempt) = call { attempt.key } else { nil }
        }
        #expect(keys == [Fixtures.keyA, Fixtures.keyB], "Bob's share carries his own key, never Alice's")
        await second.stop()
    }

    @Test func signOutForgetsTheAttemptsTheSessionAndTheWebDataOfThatUserOnly() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let eraser = RecordingEraser()
        let alice = BatonUserData(directory: directory, userID: "alice", journeyWebData: eraser)
        let bob = BatonUserData(directory: directory, userID: "bob")
        let attempt = PendingAttempt(
            key: Fixtures.keyA,
            body: ShareRequestBody(catalogItemId: Fixtures.itemID, disclosureVersion: "dv-3", affirmedAt: Fixtures.t0))
        for data in [alice, bob] {
            try await data.pendingAttempts.save(attempt)
            try await data.pendingSession.save("ses_1")
        }
        try await alice.signOut()
        #expect(try await alice.pendingAttempts.load(catalogItemID: Fixtures.itemID) == nil)
        #expect(try await alice.pendingSession.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: alice.userDirectory.path))
        #expect(eraser.count == 1)
        #expect(try await bob.pendingAttempts.load(catalogItemID: Fixtures.itemID) == attempt)
        #expect(try await bob.pendingSession.load() == "ses_1")
        // Signing out twice, or with nothing kept, is fine.
        try await alice.signOut()
        #expect(eraser.count == 2)
    }

    @Test(arguments: ["", "..", "a/b", "../../etc", "ü", String(repeating: "x", count: 300)])
    func everyUserIDGetsItsOwnFolderInsideTheDirectory(userID: String) {
        let base = directory.appendingPathComponent("users")
        let folder = BatonUserData.folder(for: userID, under: base)
        #expect(folder.standardized.path.hasPrefix(base.standardized.path + "/"))
        #expect(folder.pathComponents.allSatisfy { $0.utf8.count <= 255 })
        let others = [
            "", "..", "a/b", "a", "b", "ü", String(repeating: "x", count: 64), String(repeating: "x", count: 299),
        ]
        for other in others where other != userID {
            let path = BatonUserData.folder(for: other, under: base).path
            #expect(path != folder.path, "\(other)")
            // Signing one user out removes their folder: it must never hold another user's.
            #expect(!path.hasPrefix(folder.path + "/") && !folder.path.hasPrefix(path + "/"), "\(other)")
        }
    }
}

/// Counts erasures.
private final class RecordingEraser: JourneyWebDataEraser {
    private let erased = Mutex(0)
    func eraseJourneyWebData() async { erased.withLock { $0 += 1 } }
    var count: Int { erased.withLock { $0 } }
}
