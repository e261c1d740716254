/// `200` of `POST /v2/verification-handoffs`: `{"expiresInSeconds","url"}`, a single-use Privue journey URL,
/// fragment included.
public struct VerificationHandoff: Sendable, Hashable, Decodable {
    /// The journey URL exactly as received (its `#ticket=…` signs the user in).
    public let url: SensitiveURL
    /// How long the handoff stays valid.
    public let expiresInSeconds: Int?

    /// Creates a verification handoff.
    public init(url: SensitiveURL, expiresInSeconds: Int?) {
        self.url = url
        self.expiresInSeconds = expiresInSeconds
    }

    /// The response body, keys sorted; the URL is revealed here and nowhere else on the server.
    package var jsonBody: [UInt8] {
        var json = JSONText()
        if let expiresInSeconds {
            json.field("expiresInSeconds", expiresInSeconds)
        } else {
            json.null("expiresInSeconds")
        }
        json.journeyURL("url", url)
        return json.finishBytes()
    }
}

/// The body of `POST /v2/verification-handoffs`: exactly `{"workflow":"…"}`.
public struct VerificationHandoffRequest: Sendable, Hashable {
    /// The Privue workflow to verify for.
    public let workflow: String

    /// Creates a request.
    public init(workflow: String) { self.workflow = workflow }

    /// Reads `body` strictly; `nil` unless it is exactly `{"workflow": "<non-empty string>"}`.
    package init?(json body: [UInt8]) {
        guard let object = StrictJSONObject(body, keys: ["workflow"]), let workflow = object.string("workflow") else {
            return nil
        }
        self.init(workflow: workflow)
    }

    /// The request body.
    package var jsonBody: [UInt8] {
        var json = JSONText()
        json.field("workflow", workflow)
        return json.finishBytes()
    }
}
