import BatonCore
import BatonHTTP
import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// `baton doctor --live` judging what a deployment serves, with the answers scripted; the same
/// checks against a real https server with a throwaway certificate run in `scripts/suites/doctor-live`.
@Suite struct LiveWellKnownCheckTests {
    /// Answers every https URL from a table; records the URLs and where each was sent.
    final class Deployment: HTTPTransport {
        let answers: Mutex<[String: Result<OutboundResponse, TransportError>]>
        let seen = Mutex<[(url: String, connectTo: String?)]>([])

        init(_ answers: [String: Result<OutboundResponse, TransportError>]) { self.answers = Mutex(answers) }

        func send(_ request: OutboundRequest) async throws -> OutboundResponse {
            seen.withLock { $0.append((request.url, request.connectTo)) }
            guard let answer = answers.withLock({ $0[request.url] }) else {
                return OutboundResponse(status: 404)
            }
            return try answer.get()
        }
    }

    static let configuration = try! ReturnLandingTests.configuration()
    static let apple = "/.well-known/apple-app-site-association"
    static let android = "/.well-known/assetlinks.json"

    static func json(_ text: String, type: String = "application/json") -> Result<OutboundResponse, TransportError> {
        .success(OutboundResponse(status: 200, headers: ["content-type": type], body: Array(text.utf8)))
    }

    /// What baton serve generates for the configuration, on both hosts: the deployment as it should be.
    static func goodAnswers() throws -> [String: Result<OutboundResponse, TransportError>] {
        let documents = WellKnownDocuments(configuration: configuration)
        let aasa = try documents.appleAppSiteAssociation()
        let links = try documents.assetLinks()
        var answers: [String: Result<OutboundResponse, TransportError>] = [:]
        for host in ["app.example.com", "open.app.example.com"] {
            answers["https://\(host)\(apple)"] = .success(
                OutboundResponse(status: 200, headers: aasa.headers, body: aasa.body))
            answers["https://\(host)\(android)"] = .success(
                OutboundResponse(status: 200, headers: links.headers, body: links.body))
        }
        return answers
    }

    static func run(
        _ answers: [String: Result<OutboundResponse, TransportError>]
    ) async -> (
        [DoctorFinding], Deployment
    ) {
        let deployment = Deployment(answers)
        let check = LiveWellKnownCheck(connectTo: "127.0.0.1:8443", transport: deployment, timeout: .seconds(1))
        return (await check.findings(configuration), deployment)
    }

    static func failures(_ findings: [DoctorFinding]) -> [String] {
        findings.filter { $0.level == .fail }.map { "\($0.field): \($0.message)" }
    }

    @Test func theGeneratedFilesServedOnEveryHostPass() async throws {
        let (findings, deployment) = await Self.run(try Self.goodAnswers())
        #expect(findings.count == 4)
        #expect(findings.allSatisfy { $0.level == .ok }, "\(findings)")
        let seen = deployment.seen.withLock { $0 }
        let expected = try Self.goodAnswers().keys.sorted()
        #expect(seen.map(\.url).sorted() == expected)
        #expect(seen.allSatisfy { $0.connectTo == "127.0.0.1:8443" })
    }

    @Test func aMissingWebcredentialsEntryFails() async throws {
        var answers = try Self.goodAnswers()
        answers["https://open.app.example.com\(Self.apple)"] = Self.json(
            #"{"applinks":{"apps":[],"details":[{"appIDs":["ABCDE12345.com.example.wallet"],"#
                + #""components":[{"/":"/bb-callback"},{"/":"/kyc/done"},{"/":"/home"}]}]}}"#)
        let (findings, _) = await Self.run(answers)
        #expect(
            Self.failures(findings) == [
                "live https://open.app.example.com\(Self.apple): has no webcredentials entry beside applinks"
            ])
        #expect(findings.first { $0.level == .fail }?.fix?.contains("webcredentials") == true)
    }

    @Test func aWrongAppIDFails() async throws {
        var answers = try Self.goodAnswers()
        answers["https://app.example.com\(Self.apple)"] = Self.json(
            #"{"applinks":{"apps":[],"details":[{"appIDs":["ZZZZZ99999.com.example.wallet"],"#
                + #""components":[{"/":"*"}]}]},"webcredentials":{"apps":["ZZZZZ99999.com.example.wallet"]}}"#)
        let (findings, _) = await Self.run(answers)
        let field = "live https://app.example.com\(Self.apple)"
        #expect(
            Self.failures(findings) == [
                "\(field): applinks does not list the app id ABCDE12345.com.example.wallet",
                "\(field): webcredentials does not list ABCDE12345.com.example.wallet",
            ])
        #expect(findings.contains { $0.level == .warn && $0.message.contains("ZZZZZ99999.com.example.wallet") })
    }

    @Test func aRedirectingWellKnownURLFails() async throws {
        var answers = try Self.goodAnswers()
        answers["https://open.app.example.com\(Self.android)"] = .success(
            OutboundResponse(status: 301, headers: ["location": "https://www.example.com/assetlinks.json"]))
        let (findings, _) = await Self.run(answers)
        #expect(
            Self.failures(findings) == [
                "live https://open.app.example.com\(Self.android): redirects (HTTP 301 to "
                    + "https://www.example.com/assetlinks.json)"
            ])
    }

    @Test func theTypeStatusSizeCertificateAndPathsAreChecked() async throws {
        var answers = try Self.goodAnswers()
        let good = answers["https://app.example.com\(Self.apple)"]!
        let body = try good.get().body
        answers["https://app.example.com\(Self.apple)"] = .success(
            OutboundResponse(status: 200, headers: ["content-type": "text/plain"], body: body))
        answers["https://app.example.com\(Self.android)"] = .success(OutboundResponse(status: 404))
        answers["https://open.app.example.com\(Self.apple)"] = .failure(
            TransportError(.tls, detail: "curl: SSL peer certificate or SSH remote key was not OK"))
        answers["https://open.app.example.com\(Self.android)"] = Self.json(
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"#
                + #""target":{"namespace":"android_app","package_name":"com.example.wallet","#
                + #""sha256_cert_fingerprints":["00:11"]}}]"#)
        let (findings, _) = await Self.run(answers)
        let failures = Self.failures(findings)
        #expect(failures.count == 4, "\(failures)")
        #expect(failures[0].hasSuffix("is served as text/plain, not application/json"))
        #expect(failures[1].hasSuffix("answers HTTP 404"))
        #expect(failures[2].hasSuffix("the TLS handshake or certificate check failed"))
        #expect(failures[3].contains("does not list the certificate fingerprint AB:AB"))
    }

    @Test func aBodyOverTheLimitFails() async throws {
        var answers = try Self.goodAnswers()
        answers["https://app.example.com\(Self.apple)"] = .failure(
            TransportError(.responseTooLarge))
        let (findings, _) = await Self.run(answers)
        #expect(Self.failures(findings) == ["live https://app.example.com\(Self.apple): is larger than 128 KiB"])
    }

    @Test func aPathTheAppLinksDoNotCoverFails() async throws {
        var answers = try Self.goodAnswers()
        answers["https://app.example.com\(Self.apple)"] = Self.json(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.wallet"],"components":"#
                + #"[{"/":"/kyc/*"},{"/":"/bb-callback","exclude":true},{"/":"/bb-*"}]}]},"#
                + #""webcredentials":{"apps":["ABCDE12345.com.example.wallet"]}}"#)
        let (findings, _) = await Self.run(answers)
        #expect(
            Self.failures(findings) == [
                "live https://app.example.com\(Self.apple): applinks for ABCDE12345.com.example.wallet does not "
                    + "cover /bb-callback, /home"
            ])
    }

    @Test(arguments: ["http://partner.example", "https://partner.example/path", "https://u@partner.example", "x"])
    func theOriginMustBeAnHTTPSOrigin(origin: String) {
        #expect(throws: DoctorUsageError.self) { try LiveWellKnownCheck(origin: origin) }
    }
}
