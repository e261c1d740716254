/// Runs `body` for each index in `0..<count`, handing the cooperative pool back every `interval` iterations.
///
/// Swift Testing runs every test as a task on Swift's cooperative pool, which has one thread per core (two on the
/// project's machines), and a job is never preempted: a synchronous property test of 20,000 iterations holds its
/// thread until it ends — on a loaded machine for tens of seconds — while the live HTTP tests' handlers, whose
/// continuations wait in the same queue, cannot answer, and curl gives up (`TransportError.timedOut`). `Task.yield()`
/// puts this task behind the jobs already waiting, so a long loop costs the others a slice, not its whole run.
/// Used by the CPU-heavy loops in the tests; see docs/reliability.md, "Tests under CPU load".
public func cooperativeLoop(
    _ count: Int, yieldingEvery interval: Int = 50, _ body: (Int) throws -> Void
) async rethrows {
    precondition(interval > 0, "interval must be positive")
    for index in 0..<count {
        if index > 0 && index % interval == 0 { await Task.yield() }
        try body(index)
    }
}
