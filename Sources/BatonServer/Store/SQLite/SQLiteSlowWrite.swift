import BatonHTTP
import Foundation

/// A batch that held SQLite's one writer for at least ``SQLiteWriteQueue/slowBatchMilliseconds``, with what the
/// writer's thread did meanwhile, so that a stall is told apart from work: CPU close to the batch's time is work;
/// voluntary switches with blocks read is a wait on the disk (a page the OS no longer caches); involuntary switches
/// with little CPU is a wait for a core.
///
/// Every write queued behind the batch waited that long too. `baton serve` logs each as one `sqlite_slow_write` line
/// (docs/backend.md, "Logs"); a purge batch and the claims it held up are then found side by side in the log.
public struct SQLiteSlowWrite: Sendable, Hashable {
    /// Writes in the batch.
    public var writes: Int
    /// Whether it was a housekeeping write (a purge's batch), which always runs alone.
    public var housekeeping: Bool
    /// From taking the batch to its last `COMMIT` (or failure).
    public var milliseconds: Double
    /// `BEGIN IMMEDIATE`, the writes' statements and `COMMIT` (summed over the batch's transactions).
    public var beginMilliseconds: Double
    public var statementsMilliseconds: Double
    public var commitMilliseconds: Double
    /// CPU time of the writer's thread, user and system.
    public var cpuMilliseconds: Double
    /// 512-byte blocks the writer's thread read from the disk (not from the page cache).
    public var blocksRead: Int
    /// Voluntary context switches: the thread slept (a disk read, a lock).
    public var waits: Int
    /// Involuntary context switches: the thread was preempted while runnable.
    public var preemptions: Int
}

extension SQLiteSlowWrite {
    /// The fields of its `sqlite_slow_write` log line (times in milliseconds, to the hundredth).
    var logFields: [String: LogValue] {
        func rounded(_ value: Double) -> LogValue { .double((value * 100).rounded() / 100) }
        return [
            "writes": .int(writes), "housekeeping": .bool(housekeeping), "duration_ms": rounded(milliseconds),
            "begin_ms": rounded(beginMilliseconds), "statements_ms": rounded(statementsMilliseconds),
            "commit_ms": rounded(commitMilliseconds), "cpu_ms": rounded(cpuMilliseconds),
            "blocks_read": .int(blocksRead), "waits": .int(waits), "preemptions": .int(preemptions),
        ]
    }
}

/// What the kernel counts for the calling thread, read at a batch's start and, for a slow batch only, at its end.
struct WriterThreadSample {
    let nanoseconds: Int64
    let usage: rusage

    /// One `clock_gettime` (vDSO) and one `getrusage(RUSAGE_THREAD)` syscall.
    static func now() -> WriterThreadSample {
        var usage = rusage()
        _ = getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD, not imported by name
        return WriterThreadSample(nanoseconds: MonotonicTime.nanoseconds(), usage: usage)
    }

    /// The report of a batch that started at `self`, ended at `end`, and spent `phases` nanoseconds in each step.
    func report(
        until end: WriterThreadSample, writes: Int, housekeeping: Bool,
        phases: (begin: Int64, statements: Int64, commit: Int64)
    ) -> SQLiteSlowWrite {
        func milliseconds(_ value: timeval) -> Double { Double(value.tv_sec) * 1e3 + Double(value.tv_usec) / 1e3 }
        let cpu =
            milliseconds(end.usage.ru_utime) + milliseconds(end.usage.ru_stime) - milliseconds(usage.ru_utime)
            - milliseconds(usage.ru_stime)
        return SQLiteSlowWrite(
            writes: writes, housekeeping: housekeeping,
            milliseconds: Double(end.nanoseconds - nanoseconds) / 1e6,
            beginMilliseconds: Double(phases.begin) / 1e6, statementsMilliseconds: Double(phases.statements) / 1e6,
            commitMilliseconds: Double(phases.commit) / 1e6, cpuMilliseconds: max(0, cpu),
            blocksRead: end.usage.ru_inblock - usage.ru_inblock, waits: end.usage.ru_nvcsw - usage.ru_nvcsw,
            preemptions: end.usage.ru_nivcsw - usage.ru_nivcsw)
    }
}
