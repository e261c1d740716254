import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// A journey URL on a host its provider's `journeyHosts` does not pin never reaches an app: a typed 502, one log line
/// naming the host (never the URL), and an `unpinned_host` outcome in the metrics.
@Suite("Journey host pinning")
struct JourneyHostPinningTests {
    @Test(arguments: [
        ("https://verify.privue.ai/acme/flow#ticket=abc", true),
        ("https://VERIFY.privue.ai:443/x", true),
        ("https://verify.privue.ai.evil.example/x#ticket=abc", false),
        ("https://evil.example/verify.privue.ai", false),
        ("https://verify.privue.ai:8443/x", false),
        ("https://verify.privue.ai@evil.example/x", false),
        ("https://evil.example@verify.privue.ai/x", false),
        ("http://verify.privue.ai/x", false),
        ("https://sub.verify.privue.ai/x", false),
    ])
    func aHostPinAdmitsExactlyThatHostOnTheDefaultPort(url: String, admitted: Bool) throws {
        let pins = try #require(JourneyHostPins(["verify.privue.ai"]))
        #expect(pins.admits(url) == admitted)
    }

    @Test func theDefaultsWrittenInTheCodeAreWhatTheCheckedInitializerKeeps() {
        let written = [
            BackendConfiguration.Chia.placeholderJourneyHosts, BackendConfiguration.Privue.documentedJourneyHosts,
            BackendConfiguration.BB.placeholderJourneyHosts, JourneyHostPins(knownHost: "127.0.0.1:9"),
            JourneyHostPins(knownHost: "invalid.invalid"),
        ]
        for pins in written {
            #expect(JourneyHostPins(pins.pins) == pins, "\(pins) is not a checked pin")
        }
    }

    @Test func aHostAndPortPinAdmitsOnlyThatPort() throws {
        let pins = try #require(JourneyHostPins(["127.0.0.1:8082"]))
        #expect(pins.admits("http://127.0.0.1:8082/journey#ticket=t"))
        #expect(!pins.admits("http://127.0.0.1:8083/journey#ticket=t"))
        #expect(!pins.admits("http://127.0.0.1/journey"))
        #expect(JourneyHostPins(["https://verify.privue.ai"]) == nil)
        #expect(JourneyHostPins(["verify.privue.ai/path"]) == nil)
        #expect(JourneyHostPins([]) == nil)
    }

    static let file = """
        {"server": {"publicOrigin": "https://p.example"},
         "chia": {"apiOrigin": "https://api.chia.example:8443", "assetOrigin": "https://assets.chia.example"},
         "privue": {"apiOrigin": "https://api.verify.privue.ai", "returnURL": "https://app.example/kyc",
                    "workflows": ["w"]},
         "bb": {"apiOrigin": "https://aisp-partner.bbapi.io", "returnURLs": {"https": "https://app.example/cb"}}}
        """

    @Test func defaultsComeFromTheProviderDocumentsElseTheAPIHost() throws {
        let configuration = try BackendConfiguration.load(
            json: Data(Self.file.utf8), environment: TestConfiguration.environment)
        #expect(configuration.privue.journeyHosts.pins == ["verify.privue.ai"])
        #expect(configuration.chia.journeyHosts.pins == ["api.chia.example:8443"])
        #expect(configuration.bb.journeyHosts.pins == ["aisp-partner.bbapi.io"])
    }

    @Test func theConfigurationOverridesAndRefusesWhatIsNotAHost() throws {
        let overridden = Self.file.replacingOccurrences(
            of: #""workflows": ["w"]"#, with: #""workflows": ["w"], "journeyHosts": ["eu.verify.privue.ai"]"#)
        let configuration = try BackendConfiguration.load(
            json: Data(overridden.utf8), environment: TestConfiguration.environment)
        #expect(configuration.privue.journeyHosts.pins == ["eu.verify.privue.ai"])
        let bad = Self.file.replacingOccurrences(
            of: #""workflows": ["w"]"#, with: #""workflows": ["w"], "journeyHosts": ["https://x.example/"]"#)
        #expect {
            try BackendConfiguration.load(json: Data(bad.utf8), environment: TestConfiguration.environment)
        } throws: { error in
            (error as? ConfigurationErrors)?.errors.contains { $0.field == "privue.journeyHosts" } == true
        }
    }

    @Test func aBBHostedURLOnAnotherHostIsA502AndIsNeverShownOrLogged() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        fixture.transport.on(.post, "/v2/connect-sessions") { _ in
            ScriptedTransport.json(201, ["sessionId": "cs_1", "hostedUrl": "https://evil.example/connect/SECRETPATH"])
        }
        try await fixture.run { api in
            let response = try await api.send(.post, "/v2/connect-sessions", body: #"{"callback":"https"}"#)
            #expect(response.status == 502)
            #expect(jsonObject(response)["code"] as? String == "provider_unavailable")
            #expect(!response.bodyText.contains("evil.example"))
            let metrics = try await api.admin("/metrics").bodyText
            #expect(
                metrics.contains(
                    #"baton_provider_calls_total{provider="bb",operation="create_connect_session",outcome="unpinned_host"} 1"#
                ))
        }
        let refused = fixture.logs.captured.filter { $0.contains(#""event":"journey_host_refused""#) }
        #expect(refused.count == 1)
        #expect(refused.first?.contains(#""host":"evil.example""#) == true)
        #expect(!fixture.logs.captured.joined().contains("SECRETPATH"))
    }

    @Test func aPrivueHandoffOnAnotherHostIsA502() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        fixture.transport.on(.post, "/verifications") { _ in
            ScriptedTransport.json(201, ["id": "ver_1", "status": "pending"])
        }
        fixture.transport.on(.post, "/verifications/ver_1/handoff") { _ in
            ScriptedTransport.json(
                200,
                ["url": "https://verify.privue.ai.evil.example/acme#ticket=SECRETTICKET", "expires_in_seconds": 60])
        }
        try await fixture.run { api in
            let response = try await api.send(
                .post, "/v2/verification-handoffs", body: #"{"workflow":"merchant-onboarding"}"#)
            #expect(response.status == 502)
            #expect(jsonObject(response)["code"] as? String == "provider_unavailable")
        }
        #expect(fixture.logs.captured.contains { $0.contains(#""event":"journey_host_refused""#) })
        #expect(!fixture.logs.captured.joined().contains("SECRETTICKET"))
    }

    @Test func aChiaHandoffOnAPinnedHostStillWorks() async throws {
        // The fixture pins chia.example, where FakeChia makes its URLs; any other host is refused.
        let fixture = try await BackendFixture.make(.sqlite)
        #expect(fixture.configuration.chia.journeyHosts.admits("https://chia.example/h/phs_1"))
        #expect(!fixture.configuration.chia.journeyHosts.admits("https://chia.example.evil/h/phs_1"))
        await fixture.close()
    }
}
