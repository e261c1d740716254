import Testing

@testable import BatonCLI

@Suite struct ParsedArgumentsTests {
    let options: [OptionSpec] = [
        .value("--flow", "FLOW", help: ""), .value("--registered", "URL", repeatable: true, help: ""),
        .flag("--verbose", help: ""),
    ]

    @Test func readsValuesFlagsAndPositionals() throws {
        let parsed = try ParsedArguments.parse(
            ["--flow", "connect", "--registered=a", "--registered", "b", "--verbose", "url", "--", "--flow"],
            options: options)
        #expect(parsed.value("--flow") == "connect")
        #expect(parsed.allValues("--registered") == ["a", "b"])
        #expect(parsed.flags == ["--verbose"])
        #expect(parsed.positionals == ["url", "--flow"])
    }

    @Test(arguments: [
        (["--nope"], "unknown option '--nope'"),
        (["--flow"], "option '--flow' needs a value"),
        (["--flow", "a", "--flow", "b"], "option '--flow' given twice"),
        (["--verbose=yes"], "option '--verbose' takes no value"),
        (["-x"], "unknown option '-x'"),
    ])
    func rejectsMalformedArguments(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ParsedArguments.parse(arguments, options: options) }
    }
}
