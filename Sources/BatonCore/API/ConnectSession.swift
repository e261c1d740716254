/// `201` of `POST /v2/connect-sessions`: `{"callback":{…},"hostedUrl","sessionId"}`, the BB session the backend
/// created for this device's callback.
public struct ConnectSession: Sendable, Hashable, Decodable {
    /// BB's session id (opaque).
    public let sessionID: String
    /// The hosted connect URL, opened once in an authentication session.
    public let hostedURL: SensitiveURL
    /// The callback kind the backend registered the session's `returnUrl` for.
    public let callbackKind: ConnectCallback.Kind
    /// The callback itself (`{"host","kind","path"}` or `{"kind","scheme"}`), when the backend named it.
    public let callback: ConnectCallback?

    /// Creates a session whose callback is known only by its kind.
    public init(sessionID: String, hostedURL: SensitiveURL, callbackKind: ConnectCallback.Kind) {
        self.sessionID = sessionID
        self.hostedURL = hostedURL
        self.callbackKind = callbackKind
        self.callback = nil
    }

    /// Creates a session registered for `callback`.
    public init(sessionID: String, hostedURL: SensitiveURL, callback: ConnectCallback) {
        self.sessionID = sessionID
        self.hostedURL = hostedURL
        self.callbackKind = callback.kind
        self.callback = callback
    }

    enum CodingKeys: String, CodingKey {
        case sessionID = "sessionId"
        case hostedURL = "hostedUrl"
        case callback
    }

    private enum CallbackKeys: String, CodingKey {
        case kind, host, path, scheme
    }

    /// Reads the body; a bare kind string in place of the callback object is accepted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sessionID = try container.decode(String.self, forKey: .sessionID)
        guard !sessionID.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .sessionID, in: container, debugDescription: "empty")
        }
        hostedURL = try container.decode(SensitiveURL.self, forKey: .hostedURL)
        if let kind = try? container.decode(ConnectCallback.Kind.self, forKey: .callback) {
            callbackKind = kind
            callback = nil
            return
        }
        let object = try container.nestedContainer(keyedBy: CallbackKeys.self, forKey: .callback)
        callbackKind = try object.decode(ConnectCallback.Kind.self, forKey: .kind)
        switch callbackKind {
        case .https:
            let host = try object.decodeIfPresent(String.self, forKey: .host)
            let path = try object.decodeIfPresent(String.self, forKey: .path)
            callback = host.flatMap { host in path.map { .https(host: host, path: $0) } }
        case .customScheme:
            callback = try object.decodeIfPresent(String.self, forKey: .scheme).map { .customScheme($0) }
        }
    }

    /// The response body, keys sorted; the hosted URL is revealed here and nowhere else on the server.
    package var jsonBody: [UInt8] {
        var json = JSONText()
        json.field("callback") { object in
            switch callback {
            case .https(let host, let path)?:
                object.field("host", host)
                object.field("kind", callbackKind.rawValue)
                object.field("path", path)
            case .customScheme(let scheme)?:
                object.field("kind", callbackKind.rawValue)
                object.field("scheme", scheme)
            case nil:
                object.field("kind", callbackKind.rawValue)
            }
        }
        json.journeyURL("hostedUrl", hostedURL)
        json.field("sessionId", sessionID)
        return json.finishBytes()
    }
}

/// The body of `POST /v2/connect-sessions`: exactly `{"callback":"https"|"custom-scheme"}`.
public struct ConnectSessionRequest: Sendable, Hashable {
    /// The callback kind this device can catch.
    public let callback: ConnectCallback.Kind

    /// Creates a request.
    public init(callback: ConnectCallback.Kind) { self.callback = callback }

    /// What reading a body found.
    package enum Reading: Sendable, Equatable {
        /// A valid request.
        case request(ConnectSessionRequest)
        /// Exactly `{"callback": "<string>"}`, but not a kind Baton knows.
        case unknownKind
        /// Anything else.
        case malformed
    }

    /// Reads `body` strictly.
    package static func read(json body: [UInt8]) -> Reading {
        guard let object = StrictJSONObject(body, keys: ["callback"]), let kind = object.string("callback") else {
            return .malformed
        }
        guard let known = ConnectCallback.Kind(rawValue: kind) else { return .unknownKind }
        return .request(ConnectSessionRequest(callback: known))
    }

    /// The request body.
    package var jsonBody: [UInt8] {
        var json = JSONText()
        json.field("callback", callback.rawValue)
        return json.finishBytes()
    }
}
