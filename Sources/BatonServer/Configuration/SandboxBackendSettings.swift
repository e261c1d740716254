import BatonCore
import Foundation

/// The settings of a backend in front of a local provider sandbox (`baton serve --sandbox`, `baton demo`, the
/// end-to-end tests), as a value: development mode (loopback `http` allowed), the sandbox's three origins, its
/// registered return URLs and the app's identity.
///
/// ``BackendConfiguration/sandbox(_:environment:)`` checks these exactly as it checks a configuration file (same
/// rules, same messages by field path), without writing or reading any JSON text; secrets still come only from the
/// environment.
public struct SandboxBackendSettings: Sendable, Hashable {
    /// `server.host`: the address to bind.
    public var host: String
    /// `server.port`.
    public var port: Int
    /// `server.publicOrigin`.
    public var publicOrigin: String
    /// `database`: `sqlite:PATH` or `postgres://…`.
    public var database: String
    /// `tokens.audience`; `nil` uses ``publicOrigin``.
    public var tokenAudience: String?
    /// `chia.apiOrigin`.
    public var chiaOrigin: String
    /// `chia.assetOrigin`; `nil` uses ``chiaOrigin`` (the sandbox serves Chia's images itself).
    public var chiaAssetOrigin: String?
    /// `privue.apiOrigin`.
    public var privueOrigin: String
    /// `privue.returnURL`.
    public var privueReturnURL: String
    /// `privue.workflows`.
    public var privueWorkflows: [String]
    /// `bb.apiOrigin`.
    public var bbOrigin: String
    /// `bb.returnURLs.https`.
    public var bbHTTPSReturnURL: String
    /// `bb.returnURLs.customScheme`, if any.
    public var bbCustomSchemeReturnURL: String?
    /// `apps.apple.appIDs`.
    public var appleAppIDs: [String]
    /// `returnLanding`.
    public var returnLanding: BackendConfiguration.ReturnLanding

    /// Creates the settings; the defaults are the sandbox's examples (`baton sandbox` registers the same return
    /// URLs).
    public init(
        host: String = "127.0.0.1", port: Int, publicOrigin: String, database: String, tokenAudience: String? = nil,
        chiaOrigin: String, chiaAssetOrigin: String? = nil, privueOrigin: String,
        privueReturnURL: String = "https://app.example.com/kyc/done",
        privueWorkflows: [String] = ["merchant-onboarding"], bbOrigin: String,
        bbHTTPSReturnURL: String = "https://app.example.com/bb-callback",
        bbCustomSchemeReturnURL: String? = "acmewallet://bb-callback",
        appleAppIDs: [String] = ["ABCDE12345.com.example.wallet"],
        returnLanding: BackendConfiguration.ReturnLanding = BackendConfiguration.ReturnLanding()
    ) {
        self.host = host
        self.port = port
        self.publicOrigin = publicOrigin
        self.database = database
        self.tokenAudience = tokenAudience
        self.chiaOrigin = chiaOrigin
        self.chiaAssetOrigin = chiaAssetOrigin
        self.privueOrigin = privueOrigin
        self.privueReturnURL = privueReturnURL
        self.privueWorkflows = privueWorkflows
        self.bbOrigin = bbOrigin
        self.bbHTTPSReturnURL = bbHTTPSReturnURL
        self.bbCustomSchemeReturnURL = bbCustomSchemeReturnURL
        self.appleAppIDs = appleAppIDs
        self.returnLanding = returnLanding
    }

    /// The settings as the loader's tree, members named as in a configuration file (docs/configuration.md).
    var document: [String: JSONValue] {
        var tokens: [JSONValue.Member] = []
        if let tokenAudience { tokens.append(.init("audience", .string(tokenAudience))) }
        var bbReturns: [JSONValue.Member] = [.init("https", .string(bbHTTPSReturnURL))]
        if let bbCustomSchemeReturnURL { bbReturns.append(.init("customScheme", .string(bbCustomSchemeReturnURL))) }
        var landing: [JSONValue.Member] = []
        if let openHost = returnLanding.openHost { landing.append(.init("openHost", .string(openHost))) }
        if let text = returnLanding.storeFallbackText { landing.append(.init("storeFallbackText", .string(text))) }
        // The simulators make journey URLs on their own origins: the sandbox pins exactly those.
        func pins(_ origin: String) -> JSONValue {
            .array(JourneyHostPins.pin(forOrigin: origin).map { [JSONValue.string($0)] } ?? [])
        }
        return [
            "development": ["allowLoopbackHTTP": true],
            // The admin listener (metrics, detailed readiness) on any free loopback port: several sandboxes coexist.
            "server": [
                "host": .string(host), "port": .integer(port), "publicOrigin": .string(publicOrigin),
                "adminPort": .integer(0),
            ],
            "database": .string(database),
            "tokens": .object(tokens),
            "chia": [
                "apiOrigin": .string(chiaOrigin), "assetOrigin": .string(chiaAssetOrigin ?? chiaOrigin),
                "journeyHosts": pins(chiaOrigin),
            ],
            "privue": [
                "apiOrigin": .string(privueOrigin), "returnURL": .string(privueReturnURL),
                "workflows": .array(privueWorkflows.map(JSONValue.string)), "journeyHosts": pins(privueOrigin),
            ],
            "bb": ["apiOrigin": .string(bbOrigin), "returnURLs": .object(bbReturns), "journeyHosts": pins(bbOrigin)],
            "apps": ["apple": ["appIDs": .array(appleAppIDs.map(JSONValue.string))]],
            "returnLanding": .object(landing),
        ]
    }
}

extension BackendConfiguration {
    /// The configuration of a backend in front of a local provider sandbox, checked as a configuration file is.
    ///
    /// - Throws: ``ConfigurationErrors`` naming each invalid setting by its file path (`privue.returnURL`) or each
    ///   missing or malformed secret by its environment variable.
    public static func sandbox(
        _ settings: SandboxBackendSettings, environment: [String: String]
    ) throws(ConfigurationErrors) -> Self {
        try load(settings.document, environment: environment)
    }
}
