import Synchronization

/// A bounded in-memory cache of mirrored image bytes by SHA-256, so hot images are not read from the store on
/// every request. Content-addressed, so an entry never goes stale; when full, it is emptied and refilled.
final class AssetByteCache: Sendable {
    private struct Entries {
        var bytesBySHA256: [String: [UInt8]] = [:]
        var total = 0
    }

    private let capacity: Int
    private let entries = Mutex(Entries())

    init(capacity: Int) { self.capacity = max(0, capacity) }

    func bytes(sha256: String) -> [UInt8]? { entries.withLock { $0.bytesBySHA256[sha256] } }

    func insert(_ bytes: [UInt8], sha256: String) {
        guard bytes.count <= capacity / 8 else { return }
        entries.withLock { entries in
            guard entries.bytesBySHA256[sha256] == nil else { return }
            if entries.total + bytes.count > capacity { entries = Entries() }
            entries.bytesBySHA256[sha256] = bytes
            entries.total += bytes.count
        }
    }
}
