import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// The generated association files list every return path the configuration names (seed 000 generic return too).
@Suite struct WellKnownDocumentsTests {
    static func paths(chia: String) throws -> [String] {
        let file = BackendConfigurationTests.validFile.replacingOccurrences(
            of: #""genericReturnHost": "partner.example"}"#, with: chia)
        let documents = WellKnownDocuments(configuration: try BackendConfigurationTests.load(file))
        let body = try JSONSerialization.jsonObject(with: Data(documents.appleAppSiteAssociation().body))
        let applinks = (body as? [String: Any])?["applinks"] as? [String: Any]
        let details = applinks?["details"] as? [[String: Any]]
        return (details?.first?["components"] as? [[String: String]])?.compactMap { $0["/"] } ?? []
    }

    @Test(arguments: [
        (#""genericReturnHost": "partner.example"}"#, ["/bb-callback", "/kyc/done", "/"]),
        (
            #""genericReturnHost": "partner.example", "genericReturnPath": "/marketplace"}"#,
            ["/bb-callback", "/kyc/done", "/marketplace"]
        ),
        (#""genericReturnHost": "partner.example", "genericReturnPath": "/kyc/done"}"#, ["/bb-callback", "/kyc/done"]),
        (#""syncIntervalSeconds": 300}"#, ["/bb-callback", "/kyc/done"]),
    ])
    func theGenericReturnPathIsListedWhenAGenericReturnIsConfigured(chia: String, expected: [String]) throws {
        #expect(try Self.paths(chia: chia) == expected)
    }

    @Test(arguments: ["marketplace", "/m?x=1", "/m#top", "/*"])
    func aGenericReturnPathMustBeAPlainPath(path: String) {
        let file = BackendConfigurationTests.validFile.replacingOccurrences(
            of: #""genericReturnHost": "partner.example"}"#,
            with: #""genericReturnHost": "partner.example", "genericReturnPath": "\#(path)"}"#)
        #expect(throws: ConfigurationErrors.self) { try BackendConfigurationTests.load(file) }
    }
}
