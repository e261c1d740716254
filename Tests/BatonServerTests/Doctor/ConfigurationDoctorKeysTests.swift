import Foundation
import Testing

@testable import BatonServer

/// `baton doctor` on the key and rate-limit settings: the provider idempotency secret, retired sealing keys, the rate limit.
@Suite("Configuration doctor — derivation secret, sealing keys, rate limit")
struct ConfigurationDoctorKeysTests {
    typealias Doctor = ConfigurationDoctorTests

    @Test func saysWhereTheIdempotencySecretComesFrom() async {
        let derived = await Doctor.check(environment: Doctor.randomEnvironment)
        #expect(Doctor.finding(derived, "BATON_IDEMPOTENCY_SECRET")?.level == .warn)
        var environment = Doctor.randomEnvironment
        environment["BATON_IDEMPOTENCY_SECRET"] = Data((0..<32).map { UInt8($0 * 5 + 1) }).base64EncodedString()
        let configured = await Doctor.check(environment: environment)
        #expect(Doctor.finding(configured, "BATON_IDEMPOTENCY_SECRET")?.level == .ok)
        environment["BATON_IDEMPOTENCY_SECRET"] = environment["BATON_SEALING_KEY"]
        let reused = await Doctor.check(environment: environment)
        #expect(Doctor.finding(reused, "BATON_IDEMPOTENCY_SECRET")?.level == .fail)
    }

    @Test func reportsRetiredSealingKeys() async {
        var environment = Doctor.randomEnvironment
        #expect(Doctor.finding(await Doctor.check(environment: environment), "BATON_SEALING_KEYS_PREVIOUS") == nil)
        environment["BATON_SEALING_KEYS_PREVIOUS"] = Data(repeating: 0xA1, count: 32).base64EncodedString()
        #expect(
            Doctor.finding(await Doctor.check(environment: environment), "BATON_SEALING_KEYS_PREVIOUS")?.level == .ok)
        environment["BATON_SEALING_KEYS_PREVIOUS"] = environment["BATON_SEALING_KEY"]
        #expect(
            Doctor.finding(await Doctor.check(environment: environment), "BATON_SEALING_KEYS_PREVIOUS")?.level == .warn)
        environment["BATON_SEALING_KEYS_PREVIOUS"] = "not-a-key"
        #expect(
            Doctor.finding(await Doctor.check(environment: environment), "BATON_SEALING_KEYS_PREVIOUS")?.level == .fail)
    }

    @Test func warnsWhenTheRateLimitIsOff() async throws {
        let on = await Doctor.check(environment: Doctor.randomEnvironment)
        #expect(Doctor.finding(on, "rateLimit")?.level == .ok)
        var object = try #require(try JSONSerialization.jsonObject(with: Doctor.file()) as? [String: Any])
        object["rateLimit"] = ["enabled": false]
        let off = await Doctor.check(
            try JSONSerialization.data(withJSONObject: object), environment: Doctor.randomEnvironment)
        #expect(Doctor.finding(off, "rateLimit.enabled")?.level == .warn)
    }
}
