import BatonCore
import Foundation

/// The Privue verification flow (seed 001 "Rules"), as a pure state machine.
///
/// - The handoff is requested when the user taps, at the moment of opening, never in advance; its URL goes to the
///   camera web view unchanged, fragment included, and is not kept.
/// - One handoff per browser instance: taps while the web view is open, backgrounding and foregrounding change
///   nothing; a new handoff is created only for a new browser.
/// - Whatever the web view delivers when it ends (a link on the registered path, accepted or refused, or a close)
///   ends the journey and starts bounded polling of the backend for the status; a refused link is ignored as data
///   (its reason goes to telemetry), never as an event. The redirect's `status` is only a landing hint. Polling ends
///   settled, or with ``VerificationScreen/checkLater``.
/// - A link the OS delivers to the app is parsed strictly; of the refused ones only a *bare* registered return URL
///   (no query: the landing page's link back) ends the journey.
/// - While the journey is open and no return came, each foreground asks the backend once (not a polling run): a
///   settled answer settles the flow, anything else changes nothing.
public struct VerificationMachine: Sendable {
    /// Something that happened: the flow's own events, and the app's, the OS's and the clock's as a
    /// ``JourneyEvent`` (written `.returnLink(link, at:)`, `.browserClosed(at:)`, `.tick(_:)`, … on this type).
    public enum Event: JourneyFlowEvent {
        /// `Verify` was tapped.
        case verifyTapped(at: Date)
        /// The backend created the handoff.
        case handoffCreated(SensitiveURL)
        /// The handoff could not be created.
        case handoffFailed(RequestFailure)
        /// The web view ended itself on a navigation to a registered return URL, with that link, raw.
        case webViewReturned(String, at: Date)
        /// The backend reported the verification's state.
        case statusReceived(VerificationStatus, at: Date)
        /// The status request failed.
        case statusFailed(RequestFailure, at: Date)
        /// The app restarted into this screen (any web view it had is gone).
        case restored(at: Date)
        /// A link the OS delivered (a universal link), a closed web view, an app switch or a tick.
        case journey(JourneyEvent)
    }

    /// Something the coordinator must do.
    public enum Action: Sendable, Hashable {
        /// Show `screen`.
        case render(VerificationScreen)
        /// `POST /v2/verification-handoffs` for `workflow`.
        case requestHandoff(workflow: String)
        /// Open `url` unchanged in a new camera web view with `policy`.
        case presentCameraWebView(SensitiveURL, policy: JourneyWebPolicy)
        /// `GET /v2/verifications/{workflow}`.
        case fetchStatus(workflow: String)
        /// Deliver a tick at this time.
        case scheduleTick(at: Date)
        /// Record a telemetry event.
        case record(TelemetryEvent)
    }

    enum Phase: Sendable, Hashable {
        case ready
        case requestingHandoff
        case inJourney
        case couldNotStart(RequestFailure)
        case confirming(PollSchedule, landingHint: String?)
        case settled(VerificationStatus)
        case checkLater
    }

    /// The Privue workflow this flow verifies.
    public let workflow: String
    private let returnParser: VerificationReturnParser
    private let polling: PollingPolicy
    private let urls: URLPolicy
    private(set) var phase: Phase = .ready
    /// A foreground's one status request is running while the journey is open.
    private(set) var foregroundCheckInFlight = false

    /// A machine for `workflow`, recognising returns with `returnParser`, polling per `polling`; the camera web view
    /// loads pages under `urls` (``URLPolicy/development`` only against the local sandbox).
    public init(
        workflow: String, returnParser: VerificationReturnParser, polling: PollingPolicy = PollingPolicy(),
        urls: URLPolicy = .production
    ) {
        self.workflow = workflow
        self.returnParser = returnParser
        self.polling = polling
        self.urls = urls
    }

    /// The screen for the current state.
    public var screen: VerificationScreen {
        switch phase {
        case .ready: .ready
        case .requestingHandoff: .opening
        case .inJourney: .inJourney
        case .couldNotStart(let failure): .couldNotStart(failure)
        case .confirming(_, let hint): .confirming(landingHint: hint)
        case .settled(let status): .settled(status)
        case .checkLater: .checkLater
        }
    }

    /// Handles `event` and returns the actions to perform, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .verifyTapped:
            switch phase {
            case .ready, .couldNotStart, .settled, .checkLater:
                phase = .requestingHandoff
                return [
                    .record(.actionTapped(.verification, .verify)), .render(screen),
                    .requestHandoff(workflow: workflow),
                ]
            case .requestingHandoff, .inJourney, .confirming:
                return [.record(.duplicateTapJoined(.verification))]
            }
        case .handoffCreated(let url):
            // A handoff that arrives when no browser is being opened is never opened later.
            guard phase == .requestingHandoff else { return [] }
            phase = .inJourney
            let policy = JourneyWebPolicy(journeyURL: url, returnURLs: returnParser.registeredReturnURLs, urls: urls)
            return [
                .record(.requestFinished(.verification, .success)), .render(screen),
                .presentCameraWebView(url, policy: policy), .record(.browserOpened(.verification, .cameraWebView)),
            ]
        case .handoffFailed(let failure):
            guard phase == .requestingHandoff else { return [] }
            phase = .couldNotStart(failure)
            return [.record(.requestFinished(.verification, failure.category)), .render(screen)]
        case .webViewReturned(let link, let at):
            guard phase == .inJourney else { return handle(.returnLink(link, at: at)) }
            switch returnParser.parse(link) {
            case .accepted(let value):
                return [.record(.returnLinkAccepted(.verification))] + confirm(at: at, landingHint: value.statusHint)
            case .rejected(let reason):
                return [
                    .record(.returnLinkIgnored(.verification, .rejected(reason))),
                    .record(.browserClosedWithoutReturn(.verification)),
                ] + confirm(at: at, landingHint: nil)
            }
        case .statusReceived(let status, let at):
            if phase == .inJourney {
                // The answer to a foreground's one request: only a settled status changes anything.
                guard foregroundCheckInFlight else { return [] }
                foregroundCheckInFlight = false
                guard status.isSettled else { return [] }
                phase = .settled(status)
                return [.record(.outcomeSettled(.verification, status.outcomeCategory)), .render(screen)]
            }
            if phase == .checkLater, status.isSettled {
                // A late answer after the deadline is still the truth; "check later" was never a claim.
                phase = .settled(status)
                return [.record(.outcomeSettled(.verification, status.outcomeCategory)), .render(screen)]
            }
            guard case .confirming(var schedule, let hint) = phase else { return [] }
            if status.isSettled {
                phase = .settled(status)
                return [.record(.outcomeSettled(.verification, status.outcomeCategory)), .render(screen)]
            }
            let next = schedule.answerArrived(at: at, policy: polling)
            phase = .confirming(schedule, landingHint: hint)
            return [.scheduleTick(at: next)]
        case .statusFailed(let failure, let at):
            if phase == .inJourney {
                foregroundCheckInFlight = false
                return []
            }
            guard case .confirming(var schedule, let hint) = phase else { return [] }
            guard failure == .retryable else {
                phase = .checkLater
                return [.record(.requestFinished(.verification, .definitive)), .render(screen)]
            }
            let next = schedule.answerArrived(at: at, policy: polling)
            phase = .confirming(schedule, landingHint: hint)
            return [.scheduleTick(at: next)]
        case .restored(let at):
            switch phase {
            case .ready, .inJourney, .requestingHandoff, .checkLater: return confirm(at: at, landingHint: nil)
            case .couldNotStart, .confirming, .settled: return []
            }
        case .journey(let event):
            return receive(event)
        }
    }

    private mutating func receive(_ event: JourneyEvent) -> [Action] {
        switch event {
        case .returnLink(let link, let at):
            switch returnParser.parse(link) {
            case .rejected(let reason):
                let ignored: [Action] = [.record(.returnLinkIgnored(.verification, .rejected(reason)))]
                guard phase == .inJourney, returnParser.isBareReturn(link) else { return ignored }
                return ignored + [.record(.browserClosedWithoutReturn(.verification))]
                    + confirm(at: at, landingHint: nil)
            case .accepted(let value):
                guard phase == .inJourney else { return [.record(.returnLinkIgnored(.verification, .noPendingFlow))] }
                return [.record(.returnLinkAccepted(.verification))] + confirm(at: at, landingHint: value.statusHint)
            }
        case .browserClosed(let at):
            guard phase == .inJourney else { return [] }
            return [.record(.browserClosedWithoutReturn(.verification))] + confirm(at: at, landingHint: nil)
        case .tick(let now):
            guard case .confirming(var schedule, let hint) = phase else { return [] }
            switch schedule.tick(at: now) {
            case .wait:
                return []
            case .request:
                phase = .confirming(schedule, landingHint: hint)
                return [.fetchStatus(workflow: workflow)]
            case .timedOut:
                phase = .checkLater
                return [.record(.pollingTimedOut(.verification)), .render(screen)]
            }
        case .backgrounded:
            return []
        case .foregrounded(let at):
            switch phase {
            case .inJourney:
                // Pending and no return came: ask once (the journey may have ended elsewhere); the web view stays.
                guard !foregroundCheckInFlight else { return [] }
                foregroundCheckInFlight = true
                return [.fetchStatus(workflow: workflow)]
            case .checkLater:
                return confirm(at: at, landingHint: nil)
            case .ready, .requestingHandoff, .couldNotStart, .confirming, .settled:
                return []
            }
        }
    }

    private mutating func confirm(at: Date, landingHint: String?) -> [Action] {
        foregroundCheckInFlight = false
        phase = .confirming(PollSchedule(startingAt: at, policy: polling), landingHint: landingHint)
        return [
            .render(screen), .fetchStatus(workflow: workflow),
            .scheduleTick(at: at.addingTimeInterval(polling.timeout)),
        ]
    }
}

extension RequestFailure {
    /// The telemetry category of this failure.
    var category: TelemetryEvent.RequestCategory {
        switch self {
        case .retryable: .retryable
        case .definitive: .definitive
        }
    }
}
