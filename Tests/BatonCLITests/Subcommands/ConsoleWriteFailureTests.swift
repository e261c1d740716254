import BatonHTTP
import Foundation
import Testing

@testable import BatonCLI

/// `baton serve` prints catalog sync progress while it serves: output that cannot be written (a full disk under a
/// redirect) must be dropped, never stop the process.
@Suite struct ConsoleWriteFailureTests {
    @Test func aFullDeviceDropsTheLineInsteadOfTrapping() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let console = Console.fileDescriptors(output: full.fileDescriptor, error: full.fileDescriptor)
        console.print("baton serve: catalog sync: not modified")
        console.printError("baton serve: warning")
        #expect(FileDescriptorIO.writeAll("x".utf8, to: full.fileDescriptor).errno == ENOSPC)
    }

    @Test func linesArriveWhole() throws {
        let pipe = Pipe()
        let console = Console.fileDescriptors(
            output: pipe.fileHandleForWriting.fileDescriptor, error: pipe.fileHandleForWriting.fileDescriptor)
        console.print("one")
        console.printError("two")
        try pipe.fileHandleForWriting.close()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "one\ntwo\n")
    }
}
