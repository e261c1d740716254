import BatonCore
import BatonCrypto
import BatonTestSupport
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct ConfigurationTests {
    @Test func privueRejectsCustomSchemeReturnURLs() throws {
        var configuration = try Harness.configuration(clock: ManualClock(), sleeps: SleepRecorder())
        #expect(throws: SandboxConfigurationError(.privueReturnURLNotHTTPS, "acme://kyc/done")) {
            try configuration.setPrivueReturnURLs(["acme://kyc/done"])
        }
        #expect(throws: SandboxConfigurationError.self) { try configuration.setPrivueReturnURLs(["not a url"]) }
        #expect(throws: SandboxConfigurationError.self) {
            try configuration.setBBReturnURLs(["https://app.example.com/cb#fragment"])
        }
        try configuration.setBBReturnURLs(["acmewallet://bb-callback", "https://app.example.com/bb-callback"])
        #expect(configuration.bbReturnURLs.count == 2)
        let error = SandboxConfigurationError(.privueReturnURLNotHTTPS, "acme://kyc/done")
        #expect(error.description.contains("https"))
    }

    @Test func generatedConfigurationHasDistinctRandomKeysAndValidSecrets() throws {
        let one = try SandboxConfiguration.generated()
        let two = try SandboxConfiguration.generated()
        #expect(one.privueReturnURLs.map(\.string) == ["https://app.example.com/kyc/done"])
        #expect(one.bbReturnURLs.map(\.string) == ["https://app.example.com/bb-callback", "acmewallet://bb-callback"])
        #expect(one.chiaAPIKey != two.chiaAPIKey)
        #expect(one.chiaAPIKey.revealForUse().hasPrefix("chia_test_"))
        #expect(one.privueAPIKey.revealForUse().hasPrefix("pv_test_"))
        #expect(one.bbAPIKey.revealForUse().hasPrefix("bb_test_"))
        #expect(one.bbClientID.revealForUse().hasPrefix("cli_"))
        #expect(one.privueWebhookSecret.value.revealForUse().hasPrefix("whsec_"))
        #expect(one.privueWebhookSecret.key.count == 32)
        #expect(one.privueWebhookSecret != one.bbWebhookSecret)
        #expect(!"\(one.chiaAPIKey) \(one.privueWebhookSecret)".contains("chia_test_"))
    }

    @Test func backoffDoublesUpToTheCap() {
        var policy = WebhookRetryPolicy()
        policy.initialDelay = .seconds(1)
        policy.maximumDelay = .seconds(5)
        #expect((1...5).map(policy.delay(afterAttempt:)) == [1, 2, 4, 5, 5].map { .seconds($0) })
    }

    @Test func manualClockMovesOnlyWhenTold() {
        let clock = ManualClock(Date(timeIntervalSince1970: 100))
        let sandboxClock = SandboxClock { clock.now }
        #expect(sandboxClock.now() == Date(timeIntervalSince1970: 100))
        clock.advance(by: 60)
        #expect(sandboxClock.now() == Date(timeIntervalSince1970: 160))
    }

    @Test(arguments: [
        ("https://a.example/cb", "https://a.example/cb?sessionId=s&resultCode=Ok"),
        ("https://a.example/cb?app=1", "https://a.example/cb?app=1&sessionId=s&resultCode=Ok"),
        ("https://a.example/cb?", "https://a.example/cb?sessionId=s&resultCode=Ok"),
        ("https://a.example/cb?app=1&", "https://a.example/cb?app=1&sessionId=s&resultCode=Ok"),
        ("acmewallet://bb-callback", "acmewallet://bb-callback?sessionId=s&resultCode=Ok"),
        ("https://a.example/cb#top", "https://a.example/cb?sessionId=s&resultCode=Ok#top"),
    ])
    func redirectParametersAppendAfterTheAppsOwn(_ base: String, _ expected: String) {
        #expect(
            URLQueryAppending.append([("sessionId", "s"), ("resultCode", "Ok"), ("error", nil)], to: base) == expected)
    }

    @Test func redirectValuesAreFormEncoded() {
        #expect(URLQueryAppending.append([("error", "a b&c=d/é")], to: "x://y") == "x://y?error=a%20b%26c%3Dd%2F%C3%A9")
    }
}
