import BatonCore
import Foundation
import Testing

@testable import BatonServer

/// `baton doctor` on what rotations leave behind, and on journey hosts left at their stand-in.
@Suite("Configuration doctor: rotations and journey hosts")
struct ConfigurationDoctorRotationTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func production() throws -> BackendConfiguration {
        var configuration = try TestConfiguration.make()
        configuration.allowsLoopbackHTTP = false
        return configuration
    }

    @Test func anEndedWebhookWindowAndRetiredKeysPastOrWithoutAnEndWarn() throws {
        var configuration = try Self.production()
        configuration.bb.previousWebhookSecret = Secret(bytes: [1, 2, 3])
        configuration.bb.previousWebhookSecretUntil = Self.now.addingTimeInterval(-1)
        configuration.privue.previousWebhookSecret = Secret(bytes: [1, 2, 3])
        configuration.privue.previousWebhookSecretUntil = Self.now.addingTimeInterval(3_600)
        configuration.previousTokenSigningKeys = [
            RetiredTokenKey(key: Secret(String(repeating: "a", count: 32)), notAfter: Self.now),
            RetiredTokenKey(key: Secret(String(repeating: "b", count: 32))),
            RetiredTokenKey(key: Secret(String(repeating: "c", count: 32)), notAfter: Self.now.addingTimeInterval(60)),
        ]
        let findings = ConfigurationDoctor.rotationFindings(configuration, now: Self.now)
        let byField = Dictionary(grouping: findings, by: \.field)
        #expect(byField["bb.previousWebhookSecretUntil"]?.map(\.level) == [.warn])
        #expect(byField["privue.previousWebhookSecretUntil"]?.map(\.level) == [.ok])
        #expect(
            byField["BATON_TOKEN_PREVIOUS_SIGNING_KEYS"]?.map(\.message) == [
                "1 retired key(s) past their end date verify nothing",
                "1 retired key(s) without an end date verify until removed",
            ])
        #expect(!findings.map(\.description).joined().contains(String(repeating: "a", count: 32)))
    }

    @Test func journeyHostsLeftAtTheAPIHostWarnOutsideDevelopment() throws {
        let production = try Self.production()
        #expect(production.chia.journeyHostsConfigured)
        var unset = production
        unset.chia.journeyHostsConfigured = false
        unset.bb.journeyHostsConfigured = false
        let fields = ConfigurationDoctor.rotationFindings(unset, now: Self.now).map(\.field)
        #expect(fields == ["chia.journeyHosts", "bb.journeyHosts"])
        #expect(ConfigurationDoctor.rotationFindings(production, now: Self.now).isEmpty)
        unset.allowsLoopbackHTTP = true
        #expect(ConfigurationDoctor.rotationFindings(unset, now: Self.now).isEmpty)
    }
}
