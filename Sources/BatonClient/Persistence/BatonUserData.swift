import Foundation

/// Erases what a journey's web view keeps between visits (cookies, local storage, caches), so the next user of a
/// shared device does not open a provider's journey signed in as the last one (seed 001: create another handoff
/// "when you open ... the journey for a different user"). BatonApple's `WebKitJourneyDataEraser` erases the
/// Privue camera web view's data store.
public protocol JourneyWebDataEraser: Sendable {
    /// Removes every website data record of the journeys' web views.
    func eraseJourneyWebData() async
}

/// What Baton keeps on the device for one signed-in user, and the one call that clears it when they sign out.
///
/// Each user's Chia share attempts and BB pending session live under a folder of their own
/// (`directory/users/<user id in hex>/…`, owner-only), so a restore for one user can never read another's body,
/// consent time or key, and a cold start never confirms another user's bank session. Build one value per signed-in
/// user and hand its stores to the coordinators:
///
/// ```swift
/// let applicationSupport = try FileManager.default.url(
///     for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
/// let data = BatonUserData(directory: applicationSupport.appendingPathComponent("Baton"), userID: user.id,
///                          journeyWebData: WebKitJourneyDataEraser())
/// let chia = ChiaHandoffCoordinator(catalogItemID: card.id, genericReturn: nil, backend: backend,
///                                   store: data.pendingAttempts, presenter: ExternalBrowserPresenter())
/// // at sign-out, after stopping the coordinators:
/// try await data.signOut()
/// ```
public struct BatonUserData: Sendable {
    /// The user's Chia share attempts (body and key, never a URL).
    public let pendingAttempts: FilePendingAttemptStore
    /// The user's pending BB session id (never the hosted URL).
    public let pendingSession: FilePendingSessionStore
    /// The user's own folder.
    public let userDirectory: URL
    private let journeyWebData: (any JourneyWebDataEraser)?

    /// The data of `userID` under `directory` (for example Application Support/Baton); `journeyWebData` erases the
    /// journeys' web data at sign-out (`nil`: the app has no camera web view, or erases it itself).
    public init(directory: URL, userID: String, journeyWebData: (any JourneyWebDataEraser)? = nil) {
        userDirectory = Self.folder(for: userID, under: directory.appendingPathComponent("users"))
        pendingAttempts = FilePendingAttemptStore(directory: userDirectory.appendingPathComponent("pending-attempts"))
        pendingSession = FilePendingSessionStore(file: userDirectory.appendingPathComponent("connect-session"))
        self.journeyWebData = journeyWebData
    }

    /// Forgets everything Baton kept for this user: the pending share attempts, the pending BB session and the
    /// journeys' web data (cookies and storage). Stop the user's coordinators first. The web data is erased even
    /// when removing the folder fails; the error is thrown after.
    public func signOut() async throws {
        var failure: (any Error)?
        do {
            if FileManager.default.fileExists(atPath: userDirectory.path) {
                try FileManager.default.removeItem(at: userDirectory)
            }
        } catch {
            failure = error
        }
        await journeyWebData?.eraseJourneyWebData()
        if let failure { throw failure }
    }

    /// The user id's UTF-8 bytes in hex, in path components of at most 128 hex digits (a file name may be 255 bytes):
    /// every id gets its own folder, no id can name a path (`..`, `/`), and no user's folder holds another's — the
    /// last component starts with `u`, the ones before it with `p`.
    static func folder(for userID: String, under base: URL) -> URL {
        let hex = Array(userID.utf8.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined())
        var folder = base
        var start = 0
        repeat {
            let end = min(start + 128, hex.count)
            folder.appendPathComponent((end == hex.count ? "u" : "p") + String(hex[start..<end]), isDirectory: true)
            start = end
        } while start < hex.count
        return folder
    }
}
