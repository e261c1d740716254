import Foundation
import Testing

@Suite struct ParseReturnCommandTests {
    static let connect = ["parse-return", "--flow", "connect", "--registered", "https://app.example.com/bb-callback"]

    @Test(arguments: [
        (
            connect + [
                "--registered", "acmewallet://bb-callback", "acmewallet://bb-callback?sessionId=cs%2B1&resultCode=Ok",
            ],
            #"{"isReturn":true,"sessionId":"cs+1","resultCode":"Ok","connectionId":null,"error":null}"#
        ),
        (
            connect + [
                "https://app.example.com/bb-callback?sessionId=s&resultCode=Error&error=bank_down&connectionId=c"
            ],
            #"{"isReturn":true,"sessionId":"s","resultCode":"Error","connectionId":"c","error":"bank_down"}"#
        ),
        (
            connect + ["https://app.example.com/bb-callback?sessionId=s&resultCode=ok"],
            #"{"isReturn":false,"reason":"invalid_result_code"}"#
        ),
        (
            connect + ["https://user@app.example.com/bb-callback?sessionId=s&resultCode=Ok"],
            #"{"isReturn":false,"reason":"userinfo_present"}"#
        ),
        (
            connect + ["--", "-not-a-url"],
            #"{"isReturn":false,"reason":"unparseable_url"}"#
        ),
        (
            [
                "parse-return", "--flow", "verification", "--registered", "https://partner.example/kyc/done",
                "https://partner.example/kyc/done?verification_id=v%22 1&status=completed#ticket=x",
            ],
            #"{"isReturn":false,"reason":"unparseable_url"}"#
        ),
        (
            [
                "parse-return", "--flow", "verification", "--registered=https://partner.example/kyc/done",
                "https://partner.example/kyc/done?verification_id=v%22%5C1",
            ],
            #"{"isReturn":true,"verificationId":"v\"\\1","status":null}"#
        ),
        (
            [
                "parse-return", "--flow", "generic", "--registered-host", "partner.example",
                "https://partner.example/x?done=1",
            ],
            #"{"isReturn":true,"route":"marketplace-home"}"#
        ),
        (
            ["parse-return", "--flow", "generic", "--registered-host", "partner.example", "http://partner.example/"],
            #"{"isReturn":false,"reason":"not_https"}"#
        ),
    ])
    func printsOneJSONObjectAndExitsZero(arguments: [String], expected: String) async throws {
        let result = try await BatonBinary.run(arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput == expected + "\n")
        #expect(result.standardError.isEmpty)
    }

    @Test(arguments: [
        (["parse-return", "--flow", "connect", "--bogus", "x", "https://a/"], "unknown option '--bogus'"),
        (["parse-return", "--flow"], "option '--flow' needs a value"),
        (["parse-return", "https://a/"], "missing --flow"),
        (["parse-return", "--flow", "connect", "https://a/"], "needs at least one --registered"),
        (["parse-return", "--flow", "sideways", "--registered", "https://a/", "https://a/"], "--flow must be"),
        (["parse-return", "--flow", "verification", "--registered", "acme://kyc/done", "https://a/"], "only https"),
        (
            ["parse-return", "--flow", "generic", "--registered-host", "h", "--registered-host", "i", "https://h/"],
            "twice"
        ),
        (["parse-return", "--flow", "generic", "--registered-host", "h"], "missing the URL"),
        (
            ["parse-return", "--flow", "generic", "--registered-host", "h", "https://h/", "https://h/"],
            "exactly one URL"
        ),
        (["parse-retur"], "unknown command 'parse-retur'"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
    ])
    func usageErrorsGoToStandardErrorWithExitTwo(arguments: [String], message: String) async throws {
        let result = try await BatonBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains(message))
    }

    @Test func registrationErrorsNeverEchoTheURL() async throws {
        let result = try await BatonBinary.run([
            "parse-return", "--flow", "connect", "--registered", "https://u:hunter2@app.example.com/cb", "https://x/",
        ])
        #expect(result.status == 2)
        #expect(!result.standardError.contains("hunter2"))
    }
}

@Suite struct TopLevelCommandTests {
    @Test(arguments: [["--help"], ["parse-return", "--help"], ["conformance", "--help"], ["parse-return", "-h"]])
    func helpPrintsUsageAndExitsZero(arguments: [String]) async throws {
        let result = try await BatonBinary.run(arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("usage: baton"))
        #expect(result.standardError.isEmpty)
    }

    @Test func topLevelHelpListsEverySubcommand() async throws {
        let output = try await BatonBinary.run(["--help"]).standardOutput
        #expect(output.contains("parse-return"))
        #expect(output.contains("conformance"))
    }

    @Test func versionPrintsTheReleaseVersion() async throws {
        let result = try await BatonBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput.range(of: #"^baton \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }
}
