import Foundation

/// Starts a thread that carries `name` where the tools look: `top -H`, `perf`, gdb, `/proc/PID/task/*/comm`.
///
/// On Linux, Foundation's `Thread.name` set before `start()` never reaches the kernel (the thread shows as its
/// parent's name, or as the pool's `…oot.default-qos`), and set inside the thread it races the start. The thread
/// names itself first thing instead. The kernel keeps the first 15 bytes.
package func startNamedThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
        nameCurrentThread(name)
        body()
    }
    thread.name = name
    thread.start()
}

/// Names the calling thread for the kernel (its first 15 bytes), through its own `comm` file.
private func nameCurrentThread(_ name: String) {
    let file = open("/proc/thread-self/comm", O_WRONLY)
    guard file >= 0 else { return }
    _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    close(file)
}
