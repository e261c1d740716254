import BatonCore
import Foundation

// The store and the handlers in this module make these records with Swift's memberwise initialisers (declared
// defaults included); other modules only read them.

/// A BB connect session the backend created for a user. The `hostedUrl` is never stored.
public struct ConnectSessionRecord: Sendable, Hashable {
    /// BB's `sessionId`.
    public var id: String
    /// The user who owns it; other users never see it.
    public var user: String
    /// Baton's status for it as last learned (stored as its raw value: `pending`, `ok`, `error`, `cancelled`,
    /// `expired`).
    public var status: ConnectSessionState.Status
    /// The bank connection id, once BB reports one.
    public var connectionID: String? = nil
    /// BB's error code, if the session failed.
    public var error: String? = nil
    /// When the backend created the session.
    public var createdAt: Date
    /// When the status was last learned (poll or webhook).
    public var updatedAt: Date

}

/// A Privue verification the backend created for a user and workflow.
public struct VerificationRecord: Sendable, Hashable {
    /// Privue's verification id.
    public var id: String
    /// The user who owns it.
    public var user: String
    /// The Privue workflow it runs.
    public var workflow: String
    /// Privue's status as last learned (stored as its raw value, Privue's literal).
    public var status: VerificationStatus
    /// When the backend created it.
    public var createdAt: Date
    /// When the status was last learned.
    public var updatedAt: Date

}

/// A verified webhook delivery, unique by provider and `webhook-id`.
public struct WebhookEventRecord: Sendable, Hashable {
    /// The sending provider (Privue or BB; stored as its raw value).
    public var provider: ProviderName
    /// The Standard Webhooks `webhook-id`.
    public var webhookID: String
    /// The event type (`verification.updated`, `connect_session.updated`).
    public var eventType: String
    /// The verified body.
    public var payload: [UInt8]
    /// When it was received.
    public var receivedAt: Date
    /// When it was folded into the session/verification state; `nil` until then.
    public var processedAt: Date? = nil

}

/// The last catalog publication fetched from Chia, as its JSON body and ETag.
public struct CatalogSnapshot: Sendable, Hashable {
    /// The catalog as the sync keeps it: the fetched publication and its mirrored images (format owned by
    /// `CatalogSync`; the store treats it as opaque bytes).
    public var body: [UInt8]
    /// The `ETag` to send as `If-None-Match` next time.
    public var etag: String?
    /// When it was fetched.
    public var fetchedAt: Date

}

/// Metadata of a catalog image mirrored to `/assets/<sha256>.<ext>`; the bytes are ``Store/assetBytes(sha256:)``.
public struct MirroredAsset: Sendable, Hashable {
    /// Chia's asset id.
    public var assetID: String
    /// The catalog item that shows it.
    public var itemID: String
    /// SHA-256 hex of the bytes (the public file name).
    public var sha256: String
    /// File extension without the dot (`png`, `jpg`, `webp`).
    public var fileExtension: String
    /// The checked content type.
    public var contentType: String
    /// Size in bytes.
    public var byteCount: Int
    /// When it was mirrored.
    public var mirroredAt: Date

}
