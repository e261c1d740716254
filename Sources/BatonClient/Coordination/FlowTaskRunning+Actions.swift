import BatonCore
import Foundation

/// The actions every flow's machine asks for in the same way: a tick at a time, and a journey presented until it
/// returns or closes. Each coordinator maps the outcome to its own machine's events.
extension FlowTaskRunning {
    /// Starts a timer that delivers `clock`'s time once it reaches `date`; nothing when cancelled first.
    func spawnTick(at date: Date, clock: any FlowClock, _ deliver: @escaping @Sendable (Date) async -> Void) {
        spawnTimer {
            guard (try? await clock.sleep(until: date)) != nil else { return }
            await deliver(await clock.now())
        }
    }

    /// Presents `url` in `style` as tracked work and reports how the journey ended, with `clock`'s time then: a
    /// return link to `returned`; any other end to `closed` (a failure recorded as `failure` first). A cancelled
    /// presentation reports nothing: only `stop()` cancels it, and the flow is over.
    func spawnJourney(
        _ url: SensitiveURL, style: BrowserStyle, presenter: any BrowserPresenter, clock: any FlowClock,
        telemetry: any TelemetrySink, failure: TelemetryEvent,
        returned: @escaping @Sendable (String, Date) async -> Void, closed: @escaping @Sendable (Date) async -> Void
    ) {
        spawn {
            let completion = await presenter.present(url, style: style)
            let now = await clock.now()
            switch completion {
            case .returned(let link): await returned(link, now)
            case .closedWithoutReturn, .failedToOpen, .handedToSystem: await closed(now)
            case .failed:
                telemetry.record(failure)
                await closed(now)
            case .cancelled: break
            }
        }
    }
}
