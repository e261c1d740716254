import BatonCore
import Foundation

/// A coordinator of a journey flow (``VerificationCoordinator``, ``ConnectCoordinator``): it feeds its machine events
/// and performs the actions, nothing more. What both do the same way is here: events reach the machine stamped with
/// the flow clock's time and without suspending between reading and writing it; backend requests run as tracked work
/// that answers the machine; ticks come back as events; stopping cancels the work and ends the screens.
protocol JourneyFlowCoordinating: FlowTaskRunning {
    /// The flow's machine.
    associatedtype Machine: JourneyFlowMachine

    /// The machine, read and written only on the actor.
    var machine: Machine { get set }
    /// The clock whose time stamps events.
    var clock: any FlowClock { get }
    /// The screens shown.
    var feed: ScreenFeed<Machine.Screen> { get set }

    /// Performs one of the machine's actions (starting tracked work for anything that waits).
    func perform(_ action: Machine.Action)
}

extension JourneyFlowCoordinating {
    /// Feeds `event` to the machine and performs the actions it returns, in order, without suspending.
    func receive(_ event: Machine.Event) {
        for action in machine.handle(event) { perform(action) }
    }

    /// Feeds the machine the event `make` builds from the clock's time now.
    func receiveNow(_ make: (Date) -> Machine.Event) async {
        let now = await clock.now()
        receive(make(now))
    }

    /// Runs `request` as tracked work (awaited by `whenIdle()`) and feeds the machine `answered(answer)`, or
    /// `failed(failure)` when the backend call fails.
    func spawnRequest<Answer: Sendable>(
        _ request: @escaping @Sendable () async throws(BackendError) -> Answer,
        answered: @escaping @Sendable (Answer) async -> Machine.Event,
        failed: @escaping @Sendable (RequestFailure) async -> Machine.Event
    ) {
        spawn {
            do throws(BackendError) {
                let answer = try await request()
                await self.receive(await answered(answer))
            } catch {
                await self.receive(await failed(error.failure))
            }
        }
    }

    /// Feeds the machine a tick once the clock reaches `date` (a timer: not awaited by `whenIdle()`).
    func scheduleTick(at date: Date) {
        spawnTick(at: date, clock: clock) { await self.receive(.tick($0)) }
    }

    /// Cancels everything running and ends the screens' stream.
    func cancelAndFinish() {
        tasks.cancelAll()
        feed.finish()
    }
}
