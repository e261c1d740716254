import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Command-line conventions: a bare `baton` is a usage error, and a taken port is named.
@Suite struct CommandConventionsTests {
    @Test func aBareBatonPrintsUsageOnStandardErrorAndExitsTwo() async throws {
        let result = try await BatonBinary.run([])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("usage: baton <command> [options]"))
        #expect(result.standardOutput.isEmpty)
        let help = try await BatonBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("usage: baton <command> [options]"))
    }

    /// A listening socket on 127.0.0.1 at a random port; its descriptor, or nil when the port was taken.
    static func occupy(_ port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 1) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    @Test func aTakenPortIsNamed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-port-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var named = false
        for _ in 0..<5 where !named {
            let port = Int.random(in: 20_000...50_000)
            guard let held = Self.occupy(port + 1) else { continue }
            defer { close(held) }
            let result = try await BatonBinary.run(["serve", "--sandbox", "--port", String(port)], in: directory)
            #expect(result.status == 1)
            named = result.standardError.contains("127.0.0.1:\(port + 1)")
            if named { #expect(result.standardError.contains("is another process using that port?")) }
        }
        #expect(named)
    }
}
