import BatonCore
import Foundation

/// The BB connect flow (seed 002 "iOS", "Parsing rules", "Checklist"), as a pure state machine.
///
/// - The backend is told the callback kind this device catches (https on iOS 17.4+, custom scheme below); a session
///   created for another kind is not opened (its return could never be caught).
/// - The hosted URL is opened once in an authentication session and not kept.
/// - Return links are checked in AppAuth's order: the strict parser (registered URL, `sessionId`, `resultCode`),
///   then a pending flow exists, then the ids agree. Anything else is ignored.
/// - A closed sheet renders the cancelled path and the backend is still asked. Polling is bounded: past the deadline
///   the flow says "check later" (or stays on the cancelled path), never a hang and never a guess.
public struct ConnectMachine: Sendable {
    /// Something that happened.
    public enum Event: Sendable, Hashable {
        /// `Connect` was tapped.
        case connectTapped(at: Date)
        /// The backend created a session.
        case sessionCreated(ConnectSession)
        /// The session could not be created.
        case sessionCreationFailed(RequestFailure)
        /// The sheet (or the OS) delivered a link, raw.
        case returnLink(String, at: Date)
        /// The sheet was closed without a return.
        case browserClosed(at: Date)
        /// The backend reported a session's state.
        case sessionStateReceived(ConnectSessionState, at: Date)
        /// The session-state request failed.
        case sessionStateFailed(RequestFailure, at: Date)
        /// The app went to the background.
        case backgrounded
        /// The app came back to the foreground.
        case foregrounded(at: Date)
        /// The app restarted; `pendingSessionID` is a session the app still had open, if it kept one.
        case restored(pendingSessionID: String?, at: Date)
        /// The clock ticked.
        case tick(Date)
    }

    /// Something the coordinator must do.
    public enum Action: Sendable, Hashable {
        /// Show `screen`.
        case render(ConnectScreen)
        /// `POST /v2/connect-sessions` with this callback kind.
        case createSession(callback: ConnectCallback.Kind)
        /// Open `url` once in an authentication session catching `callback`.
        case presentAuthenticationSession(SensitiveURL, callback: ConnectCallback)
        /// `GET /v2/connect-sessions/{id}`.
        case fetchSession(id: String)
        /// Deliver a tick at this time.
        case scheduleTick(at: Date)
        /// Record a telemetry event.
        case record(TelemetryEvent)
    }

    enum Phase: Sendable, Hashable {
        case ready
        case creating
        case inBrowser(sessionID: String)
        case couldNotStart(RequestFailure)
        case confirming(sessionID: String, PollSchedule, ConnectScreen)
        case settled(ConnectScreen)
    }

    private let callback: ConnectCallback
    private let returnParser: ConnectReturnParser
    private let polling: PollingPolicy
    private(set) var phase: Phase = .ready

    /// A machine for a device catching `callback`, recognising returns with `returnParser`.
    public init(callback: ConnectCallback, returnParser: ConnectReturnParser, polling: PollingPolicy = PollingPolicy())
    {
        self.callback = callback
        self.returnParser = returnParser
        self.polling = polling
    }

    /// The screen for the current state.
    public var screen: ConnectScreen {
        switch phase {
        case .ready: .ready
        case .creating: .starting
        case .inBrowser: .inBrowser
        case .couldNotStart(let failure): .couldNotStart(failure)
        case .confirming(_, _, let shown), .settled(let shown): shown
        }
    }

    /// The session the flow is waiting on, if any (safe to persist: an opaque id, not a URL).
    public var pendingSessionID: String? {
        switch phase {
        case .inBrowser(let id), .confirming(let id, _, _): id
        case .ready, .creating, .couldNotStart, .settled: nil
        }
    }

    /// Handles `event` and returns the actions to perform, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connectTapped:
            switch phase {
            case .ready, .couldNotStart, .settled:
                phase = .creating
                return [
                    .record(.actionTapped(.connect, .connect)), .render(screen),
                    .createSession(callback: callback.kind),
                ]
            case .creating, .inBrowser, .confirming:
                return [.record(.duplicateTapJoined(.connect))]
            }
        case .sessionCreated(let session):
            guard phase == .creating else { return [] }
            guard session.callbackKind == callback.kind else {
                phase = .couldNotStart(.definitive)
                return [.record(.requestFinished(.connect, .definitive)), .render(screen)]
            }
            phase = .inBrowser(sessionID: session.sessionID)
            return [
                .record(.requestFinished(.connect, .success)), .render(screen),
                .presentAuthenticationSession(session.hostedURL, callback: callback),
                .record(.browserOpened(.connect, .authenticationSession)),
            ]
        case .sessionCreationFailed(let failure):
            guard phase == .creating else { return [] }
            phase = .couldNotStart(failure)
            return [.record(.requestFinished(.connect, failure.category)), .render(screen)]
        case .returnLink(let link, let at):
            return receiveReturn(link, at: at)
        case .browserClosed(let at):
            guard case .inBrowser(let id) = phase else { return [] }
            return [.record(.browserClosedWithoutReturn(.connect))] + confirm(id, at: at, showing: .cancelled)
        case .sessionStateReceived(let state, let at):
            return receiveState(state, at: at)
        case .sessionStateFailed(let failure, let at):
            guard case .confirming(let id, var schedule, let shown) = phase else { return [] }
            guard failure == .retryable else { return settleUnconfirmed(shown) }
            let next = schedule.answerArrived(at: at, policy: polling)
            phase = .confirming(sessionID: id, schedule, shown)
            return [.scheduleTick(at: next)]
        case .tick(let now):
            guard case .confirming(let id, var schedule, let shown) = phase else { return [] }
            switch schedule.tick(at: now) {
            case .wait: return []
            case .request:
                phase = .confirming(sessionID: id, schedule, shown)
                return [.fetchSession(id: id)]
            case .timedOut:
                return [.record(.pollingTimedOut(.connect))] + settleUnconfirmed(shown)
            }
        case .backgrounded, .foregrounded:
            // The sheet survives app switches; its completion (return or close) always arrives.
            return []
        case .restored(let pendingSessionID, let at):
            guard let id = pendingSessionID, !id.isEmpty, phase == .ready else { return [] }
            return confirm(id, at: at, showing: .confirming(.resumed))
        }
    }

    private mutating func receiveReturn(_ link: String, at: Date) -> [Action] {
        // AppAuth order: 1. registered URL and strict parameters, 2. a pending flow, 3. the ids agree.
        let value: ConnectReturn
        switch returnParser.parse(link) {
        case .rejected(let reason): return [.record(.returnLinkIgnored(.connect, .rejected(reason)))]
        case .accepted(let accepted): value = accepted
        }
        guard let pendingID = pendingSessionID else { return [.record(.returnLinkIgnored(.connect, .noPendingFlow))] }
        guard value.sessionID == pendingID else { return [.record(.returnLinkIgnored(.connect, .sessionMismatch))] }
        let hint: ConnectScreen.ReturnHint =
            switch value.resultCode {
            case .ok: .ok
            case .error: .error
            case .cancelled: .cancelled
            }
        if case .confirming(let id, let schedule, _) = phase {
            // Already asking (the sheet closed first): the redirect only updates what is shown.
            phase = .confirming(sessionID: id, schedule, .confirming(hint))
            return [.record(.returnLinkAccepted(.connect)), .render(screen)]
        }
        return [.record(.returnLinkAccepted(.connect))] + confirm(pendingID, at: at, showing: .confirming(hint))
    }

    private mutating func receiveState(_ state: ConnectSessionState, at: Date) -> [Action] {
        guard case .confirming(let id, var schedule, let shown) = phase, state.sessionID == id else { return [] }
        let settled: (ConnectScreen, TelemetryEvent.OutcomeCategory)? =
            switch state.status {
            case .pending: nil
            case .ok: (.connected, .success)
            case .error: (.failed, .failure)
            case .cancelled: (.cancelled, .cancelled)
            case .expired: (.expired, .expired)
            }
        if let (screen, category) = settled {
            phase = .settled(screen)
            return [.record(.outcomeSettled(.connect, category)), .render(screen)]
        }
        let next = schedule.answerArrived(at: at, policy: polling)
        phase = .confirming(sessionID: id, schedule, shown)
        return [.scheduleTick(at: next)]
    }

    /// Ends polling without a backend answer: a closed sheet stays on the cancelled path; a return says "check
    /// later" rather than repeating what the redirect claimed.
    private mutating func settleUnconfirmed(_ shown: ConnectScreen) -> [Action] {
        let final: ConnectScreen = shown == .cancelled ? .cancelled : .checkLater
        phase = .settled(final)
        return [.render(final)]
    }

    private mutating func confirm(_ id: String, at: Date, showing shown: ConnectScreen) -> [Action] {
        phase = .confirming(sessionID: id, PollSchedule(startingAt: at, policy: polling), shown)
        return [.render(shown), .fetchSession(id: id), .scheduleTick(at: at.addingTimeInterval(polling.timeout))]
    }
}
