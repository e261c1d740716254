import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

@testable import BatonServer

/// The web reference shell is off outside the sandbox and the demo, unless a configuration turns it on for QA.
@Suite struct WebShellMountingTests {
    @Test func aProductionBackendDoesNotServeTheShell() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.backend.router.test(.inProcess) { client in
            let page = try await client.execute(.get, "/web/")
            let script = try await client.execute(.get, "/web/shell.js")
            #expect(page.status == 404)
            #expect(script.status == 404)
        }
        await fixture.close()
    }

    @Test func theConfigurationSwitchServesItForQA() async throws {
        var configuration = try TestConfiguration.make()
        configuration.servesWebShell = true
        let fixture = try await BackendFixture.make(.sqlite, configuration: configuration)
        try await fixture.backend.router.test(.inProcess) { client in
            let page = try await client.execute(.get, "/web/")
            #expect(page.status == 200)
        }
        await fixture.close()
    }

    @Test func theSandboxOptionServesIt() async throws {
        let fixture = try await BackendFixture.make(.sqlite) { $0.servesWebShell = true }
        try await fixture.backend.router.test(.inProcess) { client in
            let page = try await client.execute(.get, "/web/")
            #expect(page.status == 200)
        }
        await fixture.close()
    }

    @Test(arguments: [
        ("", false), (#", "webShell": {"enabled": true}"#, true), (#", "webShell": {"enabled": false}"#, false),
    ])
    func webShellEnabledIsReadFromTheFile(member: String, enabled: Bool) throws {
        let file = BackendConfigurationTests.validFile.replacingOccurrences(
            of: #""database": "sqlite:/tmp/baton-test.sqlite""#,
            with: #""database": "sqlite:/tmp/baton-test.sqlite""# + member)
        let configuration = try BackendConfiguration.load(
            json: Data(file.utf8), environment: TestConfiguration.environment)
        #expect(configuration.servesWebShell == enabled)
    }
}
