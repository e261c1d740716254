/// The unstructured tasks a coordinator started for its machine's actions, so it can await or cancel them.
///
/// Work tasks (requests, presentations) are awaited by `whenIdle()`; timer tasks (scheduled ticks) are not, since a
/// tick may be minutes away.
struct FlowTasks {
    private var work: [Int: Task<Void, Never>] = [:]
    private var timers: [Int: Task<Void, Never>] = [:]
    private var nextID = 0

    /// A fresh id for a task about to be inserted.
    mutating func reserveID() -> Int {
        nextID += 1
        return nextID
    }

    /// Tracks `task` as work under `id`.
    mutating func insertWork(_ task: Task<Void, Never>, id: Int) { work[id] = task }

    /// Tracks `task` as a timer under `id`.
    mutating func insertTimer(_ task: Task<Void, Never>, id: Int) { timers[id] = task }

    /// Forgets the task `id` (it has finished).
    mutating func remove(_ id: Int) {
        work[id] = nil
        timers[id] = nil
    }

    /// Some running work task, if any.
    var anyWork: Task<Void, Never>? { work.values.first }

    /// Cancels every task.
    mutating func cancelAll() {
        for task in work.values { task.cancel() }
        for task in timers.values { task.cancel() }
        work = [:]
        timers = [:]
    }
}

/// A coordinator actor that starts its actions' work in tracked tasks.
protocol FlowTaskRunning: Actor {
    /// The tasks started so far.
    var tasks: FlowTasks { get set }
}

extension FlowTaskRunning {
    /// Starts `body` as tracked work (awaited by `whenIdle()`).
    func spawn(_ body: @escaping @Sendable () async -> Void) {
        let id = tasks.reserveID()
        tasks.insertWork(
            Task {
                await body(); self.taskFinished(id)
            }, id: id)
    }

    /// Starts `body` as a timer (not awaited by `whenIdle()`).
    func spawnTimer(_ body: @escaping @Sendable () async -> Void) {
        let id = tasks.reserveID()
        tasks.insertTimer(
            Task {
                await body(); self.taskFinished(id)
            }, id: id)
    }

    /// Awaits every tracked work task, including ones started while waiting.
    func awaitWork() async {
        while let task = tasks.anyWork { await task.value }
    }

    private func taskFinished(_ id: Int) { tasks.remove(id) }
}
