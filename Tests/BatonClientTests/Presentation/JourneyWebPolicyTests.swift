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

    @Test func callbackFollowsTheDevice() {
        let modern = ConnectCallback.supported(
            https: ("app.example.com", "/bb-callback"), customScheme: "acmewallet", deviceSupportsHTTPSCallback: true)
        let older = ConnectCallback.supported(
            https: ("app.example.com", "/bb-callback"), customScheme: "acmewallet", deviceSupportsHTTPSCallback: false)
        #expect(modern == .https(host: "app.example.com", path: "/bb-callback") && modern.kind == .https)
        #expect(older == .customScheme("acmewallet") && older.kind == .customScheme)
    }
}
