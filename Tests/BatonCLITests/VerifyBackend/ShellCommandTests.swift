import Testing

@testable import BatonCLI

/// The token command's runner (posix_spawn, not Foundation's `Process`).
@Suite struct ShellCommandTests {
    @Test func theExitStatusAndTheWholeOutputComeBack() {
        let result = ShellCommand.run("head -c 200000 /dev/zero | tr '\\0' x; exit 3")
        #expect(result.status == 3)
        #expect(result.output.count == 200_000)
        #expect(result.output.allSatisfy { $0 == UInt8(ascii: "x") })
    }

    @Test func aChildEndedByASignalIs128PlusTheSignal() {
        #expect(ShellCommand.run("kill -9 $$").status == 137)
    }

    @Test func standardInputIsEmptyAndNoDescriptorBeyondTheThreeIsOpen() {
        let result = ShellCommand.run("cat; ls /proc/self/fd | wc -l")
        #expect(result.status == 0)
        // 0, 1, 2 and the descriptor `ls` opens to read the folder.
        #expect(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "4")
    }
}
