import BatonHTTP
import Foundation
import Testing

@Suite("The background log writer loses nothing")
struct StandardErrorLogSinkTests {
    /// What arrives in `pipe` until `done` holds for it (or 10 s have passed), polling: it never waits for the end of
    /// the pipe, which a child process spawned meanwhile by another test may hold a copy of, and a missing line
    /// fails the test instead of hanging it.
    private func read(_ pipe: Pipe, until done: (String) -> Bool) -> String {
        var text = ""
        var descriptor = pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .seconds(10)
        while !done(text) && ContinuousClock.now < deadline {
            if poll(&descriptor, 1, 100) > 0 {
                text += String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
            }
        }
        return text
    }

    private func read(_ pipe: Pipe, until marker: String) -> String { read(pipe) { $0.contains(marker) } }

    /// The first `count` lines that arrive in `pipe` (fewer if 10 s pass first).
    private func lines(from pipe: Pipe, count: Int) -> [String] {
        read(pipe) { $0.utf8.lazy.filter { $0 == 0x0A }.count >= count }.split(separator: "\n").map(String.init)
    }

    @Test func flushWaitsUntilEveryLineIsWrittenInOrder() async {
        let pipe = Pipe()
        let sink = StandardErrorLogSink(destination: pipe.fileHandleForWriting)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in 0..<500 { sink.write("w\(writer)-\(index)") }
                }
            }
        }
        sink.flush()
        let written = lines(from: pipe, count: 2000)
        #expect(written.count == 2000)
        for writer in 0..<4 {
            // Each writer's lines keep their order among themselves.
            #expect(written.filter { $0.hasPrefix("w\(writer)-") } == (0..<500).map { "w\(writer)-\($0)" })
        }
    }

    @Test func linesGivenAsBytesAndAsStringsKeepTheirOrder() {
        let pipe = Pipe()
        let sink = StandardErrorLogSink(destination: pipe.fileHandleForWriting)
        for index in 0..<300 {
            if index % 2 == 0 { sink.write("s\(index)") } else { sink.write(bytes: Array("b\(index) é".utf8)) }
        }
        sink.flush()
        let expected = (0..<300).map { $0 % 2 == 0 ? "s\($0)" : "b\($0) é" }
        #expect(lines(from: pipe, count: 300) == expected)
    }

    @Test func aLoneLineIsWrittenWithoutAFlush() {
        let pipe = Pipe()
        // No batching pause: once the first line is out, the writer goes straight back to waiting for a wake-up.
        let sink = StandardErrorLogSink(batchInterval: .zero, destination: pipe.fileHandleForWriting)
        sink.write("first")
        // The first line lands in an empty buffer and wakes the writer; the next one, written once the first is out,
        // must wake it again.
        var text = read(pipe, until: "first\n")
        sink.write("second")
        text += read(pipe, until: "second\n")
        #expect(text == "first\nsecond\n")
    }

    @Test func linesPastTheCapacityAreCountedNotLost() {
        let pipe = Pipe()
        // A long batch interval keeps the writer away while the buffer overflows.
        let sink = StandardErrorLogSink(
            capacity: 10, batchInterval: .seconds(1), destination: pipe.fileHandleForWriting)
        sink.write("wake")
        #expect(read(pipe, until: "wake\n") == "wake\n")
        for index in 0..<25 { sink.write("l\(index)") }
        sink.flush(timeout: .seconds(10))
        let written = lines(from: pipe, count: 11)
        #expect(written.filter { $0.hasPrefix("l") }.count == 10)
        #expect(written.last == #"{"level":"warning","event":"log_lines_dropped","count":15}"#)
    }
}
