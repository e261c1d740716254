import BatonCore
import Testing

@testable import BatonClient

/// The camera web view's decisions (seed 001 "What the in-app browser must support").
@Suite struct JourneyWebPolicyTests {
    let policy = JourneyWebPolicy(
        journeyURL: SensitiveURL("https://verify.privue.example/acme/kyc#ticket=abc")!,
        returnURLs: Fixtures.verificationParser.registeredReturnURLs)

    @Test(arguments: [
        ("https", "verify.privue.example", nil as Int?, true), ("https", "VERIFY.privue.example", 443, true),
        ("https", "digilocker.example", nil, false), ("http", "verify.privue.example", nil, false),
        ("https", "verify.privue.example", 8443, false), ("https", "privue.example", nil, false),
    ])
    func cameraOnlyForTheJourneysOrigin(scheme: String, host: String, port: Int?, granted: Bool) {
        #expect(policy.grantsCamera(scheme: scheme, host: host, port: port) == granted)
    }

    @Test(arguments: [
        (
            "https://partner.example/kyc/done?verification_id=v1&status=approved",
            JourneyWebPolicy.NavigationDecision
                .interceptReturn("https://partner.example/kyc/done?verification_id=v1&status=approved")
        ),
        ("https://consent.digilocker.example/authorize?x=1", .allow),
        ("https://verify.privue.example/acme/kyc/step2", .allow),
        ("about:blank", .allow),
        ("http://verify.privue.example/", .cancel),
        ("intent://scan#Intent;end", .cancel),
        ("https://user@partner.example/kyc/done?verification_id=v1", .cancel),
    ])
    func navigation(url: String, decision: JourneyWebPolicy.NavigationDecision) {
        #expect(policy.decide(navigationTo: url) == decision)
    }

    /// The camera alone, for the journey's origin alone; never the microphone. WebKit reports a
    /// default port as 0.
    @Test(arguments: [
        (
            JourneyWebPolicy.MediaCapture.camera, "https", "verify.privue.example", 0,
            JourneyWebPolicy.MediaCaptureDecision.grant
        ),
        (.camera, "https", "verify.privue.example", 443, .grant),
        (.cameraAndMicrophone, "https", "verify.privue.example", 0, .deny),
        (.microphone, "https", "verify.privue.example", 0, .deny),
        (.camera, "https", "consent.digilocker.example", 0, .deny),
        (.camera, "https", "verify.privue.example", 8443, .deny),
        (.camera, "http", "verify.privue.example", 0, .deny),
    ])
    func mediaCapture(
        capture: JourneyWebPolicy.MediaCapture, scheme: String, host: String, port: Int,
        decision: JourneyWebPolicy.MediaCaptureDecision
    ) {
        #expect(policy.decide(mediaCapture: capture, scheme: scheme, host: host, port: port) == decision)
    }

    /// The sandbox's Privue journey (plain http on 127.0.0.1) loads only under the development
    /// switch, and the switch never opens http to any other host.
    @Test func loopbackHTTPOnlyUnderTheDevelopmentSwitch() {
        let journey = SensitiveURL("http://127.0.0.1:9003/acme/kyc#ticket=abc", allowingSchemes: ["http"])!
        let off = JourneyWebPolicy(journeyURL: journey, returnURLs: [], urls: .production)
        let on = JourneyWebPolicy(journeyURL: journey, returnURLs: [], urls: .development)
        let unsaid = JourneyWebPolicy(journeyURL: journey, returnURLs: [])
        #expect(off.decide(navigationTo: "http://127.0.0.1:9003/acme/kyc/step2") == .cancel)
        #expect(on.decide(navigationTo: "http://127.0.0.1:9003/acme/kyc/step2") == .allow)
        #expect(unsaid == off, "production unless development is passed")
        #expect(on.decide(navigationTo: "http://localhost:9003/x") == .allow)
        #expect(on.decide(navigationTo: "http://verify.privue.example/") == .cancel)
        #expect(on.decide(navigationTo: "http://10.0.0.1/") == .cancel)
        #expect(on.decide(mediaCapture: .camera, scheme: "http", host: "127.0.0.1", port: 9003) == .grant)
        #expect(off.decide(mediaCapture: .camera, scheme: "http", host: "127.0.0.1", port: 9003) == .deny)
        #expect(on.decide(mediaCapture: .camera, scheme: "http", host: "127.0.0.1", port: 9004) == .deny)
    }

    @Test func callbackFollowsTheDevice() {
        let modern = ConnectCallback.supported(
            https: ("app.example.com", "/bb-callback"), customScheme: "acmewallet", deviceSupportsHTTPSCallback: true)
        let older = ConnectCallback.supported(
            https: ("app.example.com", "/bb-callback"), customScheme: "acmewallet", deviceSupportsHTTPSCallback: false)
        #expect(modern == .https(host: "app.example.com", path: "/bb-callback") && modern.kind == .https)
        #expect(older == .customScheme("acmewallet") && older.kind == .customScheme)
    }
}
