import Foundation
import Testing

@testable import BatonServer

/// What `baton doctor` says about the landing pages without `--live`.
@Suite struct LandingDoctorTests {
    @Test func anOpenHostIsNamedWithWhatTheAppMustList() throws {
        let findings = ConfigurationDoctor.landingFindings(try ReturnLandingTests.configuration())
        #expect(findings.allSatisfy { $0.level == .ok }, "\(findings)")
        #expect(findings[0].message.hasPrefix("landing pages at /bb-callback, /kyc/done, /home"))
        #expect(findings[1].message.contains("applinks:open.app.example.com"))
        #expect(findings[1].message.contains("webcredentials:open.app.example.com"))
    }

    @Test func withoutAnOpenHostOrStoreTextTheDoctorWarns() throws {
        let configuration = try ReturnLandingTests.configuration(ReturnLandingTests.configurationFile(landing: ""))
        let warnings = ConfigurationDoctor.landingFindings(configuration).filter { $0.level == .warn }.map(\.field)
        #expect(warnings == ["returnLanding.openHost", "returnLanding.storeFallbackText"])
    }
}
