import Foundation

/// The calling thread's name as the kernel knows it (`/proc/thread-self/comm`, at most 15 bytes: what
/// `startNamedThread` and libmicrohttpd set, unlike Foundation's `Thread.name` on Linux), or "".
public func currentThreadName() -> String {
    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    return name.trimmingCharacters(in: .whitespacesAndNewlines)
}
