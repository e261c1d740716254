/// When the WAL is checkpointed, in which mode, and when a housekeeping write (a purge's batch) may go: the decisions
/// of ``SQLiteCheckpointer``, as a pure machine that its events drive.
///
/// A commit reports the frames in the WAL; from ``threshold`` frames on, a `PASSIVE` checkpoint runs beside the
/// writer, never holding it up. SQLite starts the WAL over at the first write after a checkpoint has copied every
/// frame (unless a reader still holds an older snapshot). Under shares alone that happens several times a second; a
/// purge writing batch after batch kept the checkpoints behind, and the WAL grew to tens of thousands of frames.
/// So housekeeping writes wait while a checkpoint runs and while the WAL holds ``housekeepingLimit`` frames or more,
/// until a checkpoint has caught up with every commit: the purge pauses, the WAL starts over, and no checkpoint ever
/// has to hold the writer to start it over (one that did — `RESTART`, `TRUNCATE` — held every write for up to ~400 ms under load,
/// however little it copied: it syncs the files with the writer's lock held; docs/notes/i-purge.md). Only a WAL that
/// could not start over for ``truncateAbove`` frames is emptied that way.
struct SQLiteCheckpointSchedule: Sendable, Equatable {
    /// How a checkpoint runs.
    enum Mode: Sendable, Equatable {
        /// Copies what it can; never holds up the writer.
        case passive
        /// `PASSIVE` first, then waits for the writer and the readers, copies the rest and empties the WAL's file.
        case truncate
    }

    /// WAL frames that start a checkpoint.
    let threshold: Int
    /// WAL frames from which housekeeping writes wait for a checkpoint to catch up.
    let housekeepingLimit: Int
    /// WAL frames from which a checkpoint also empties the WAL's file, holding the writer.
    let truncateAbove: Int
    /// Frames in the WAL as last reported (0 once a checkpoint has copied them all: the WAL starts over at the next
    /// write).
    private(set) var walFrames = 0
    /// A checkpoint is running.
    private(set) var running = false

    init(threshold: Int, housekeepingLimit: Int, truncateAbove: Int) {
        self.threshold = threshold
        self.housekeepingLimit = housekeepingLimit
        self.truncateAbove = truncateAbove
    }

    /// Whether a housekeeping write may run now: no checkpoint runs and the WAL is below ``housekeepingLimit``.
    var housekeepingMayWrite: Bool { !running && walFrames < housekeepingLimit }

    /// A commit left `walFrames` frames in the WAL. Returns the checkpoint to start, if any.
    mutating func committed(walFrames frames: Int) -> Mode? {
        walFrames = frames
        guard walFrames >= threshold, !running else { return nil }
        running = true
        return walFrames >= truncateAbove ? .truncate : .passive
    }

    /// The checkpoint started in `mode` ended: it copied `copied` of the `log` frames the WAL held when it began
    /// (`nil`: it could not finish, e.g. another checkpoint ran). Returns the checkpoint to start next, if any.
    ///
    /// Caught up only if it copied everything and no commit came meanwhile (SQLite reports the frames of the WAL as
    /// the checkpoint found it, not those committed while it ran): then the WAL starts over at the next write. If
    /// commits came meanwhile and the WAL is at ``housekeepingLimit``, the next checkpoint starts at once, so that a
    /// waiting purge does not depend on another commit to start it.
    mutating func finished(_ mode: Mode, copied: Int?, of log: Int?) -> Mode? {
        running = false
        guard let copied, let log else { return nil }
        // A TRUNCATE that finished held the writer until the WAL was empty.
        if mode == .truncate || (copied >= log && walFrames <= log) {
            walFrames = 0
            return nil
        }
        guard walFrames > log, walFrames >= housekeepingLimit else { return nil }
        running = true
        return walFrames >= truncateAbove ? .truncate : .passive
    }
}
