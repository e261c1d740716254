import BatonCore
import Foundation

/// The BB connect flow (seed 002 "iOS", "Parsing rules", "Checklist"), as a pure state machine.
///
/// - The backend is told the callback kind this device catches (https on iOS 17.4+, custom scheme below); a session
///   created for another kind is not opened (its return could never be caught).
/// - The hosted URL is opened once in an authentication session and not kept.
/// - Whatever the sheet delivers (an accepted link, a refused one, or a close) ends the browser phase and the backend
///   is asked about the session id *it* returned. A refused link is ignored as data, never as an event: its reason
///   goes to telemetry, its values nowhere, and a link naming another session never changes which session is asked.
/// - A link the OS delivers to the app (``JourneyEvent/returnLink(_:at:)``: universal link or custom scheme, which
///   any web page or app can fire) is checked in AppAuth's order: the strict parser (registered URL, `sessionId`,
///   `resultCode`), then a pending flow exists, then the ids agree; anything else is ignored. The one exception is a
///   *bare* registered return URL (no query: the landing page's link back), which ends the browser phase too.
/// - The pending session id is kept (``Action/keepPendingSession(id:)``: an opaque id, never the hosted URL) so a
///   return that launches the app cold confirms that session before, or without, any ``Event/restored(pendingSessionID:at:)``.
/// - A closed sheet renders the cancelled path and the backend is still asked. Polling is bounded: past the deadline
///   the flow says "check later" (or stays on the cancelled path), never a hang and never a guess.
public struct ConnectMachine: Sendable {
    /// Something that happened: the flow's own events, and the app's, the OS's and the clock's as a
    /// ``JourneyEvent`` (written `.returnLink(link, at:)`, `.browserClosed(at:)`, `.tick(_:)`, … on this type).
    public enum Event: JourneyFlowEvent {
        /// `Connect` was tapped.
        case connectTapped(at: Date)
        /// The backend created a session.
        case sessionCreated(ConnectSession)
        /// The session could not be created.
        case sessionCreationFailed(RequestFailure)
        /// The authentication session completed with a link, raw, whatever it is.
        case sheetReturned(String, at: Date)
        /// The backend reported a session's state.
        case sessionStateReceived(ConnectSessionState, at: Date)
        /// The session-state request failed.
        case sessionStateFailed(RequestFailure, at: Date)
        /// The app restarted; `pendingSessionID` is a session the app still had open, if it kept one.
        case restored(pendingSessionID: String?, at: Date)
        /// A link the OS delivered, a closed sheet, an app switch or a tick.
        case journey(JourneyEvent)
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
        /// Keep `id` as the pending session (durably, so a cold launch can pass it back); replaces any other.
        case keepPendingSession(id: String)
        /// The pending session is settled: forget the kept id.
        case forgetPendingSession
        /// Record a telemetry event.
        case record(TelemetryEvent)
    }

    enum Phase: Sendable, Hashable {
        case ready
        /// A session a previous launch kept; no sheet is open. A return for it, a bare return or a restore confirms it.
        case resumable(sessionID: String)
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
    ///
    /// `pendingSessionID` is the session a previous launch kept (``Action/keepPendingSession(id:)``), if any: a cold
    /// launch passes it here so that the return which launched the app confirms it.
    public init(
        callback: ConnectCallback, returnParser: ConnectReturnParser, polling: PollingPolicy = PollingPolicy(),
        pendingSessionID: String? = nil
    ) {
        self.callback = callback
        self.returnParser = returnParser
        self.polling = polling
        if let pendingSessionID, !pendingSessionID.isEmpty { phase = .resumable(sessionID: pendingSessionID) }
    }

    /// The screen for the current state.
    public var screen: ConnectScreen {
        switch phase {
        case .ready, .resumable: .ready
        case .creating: .starting
        case .inBrowser: .inBrowser
        case .couldNotStart(let failure): .couldNotStart(failure)
        case .confirming(_, _, let shown), .settled(let shown): shown
        }
    }

    /// The session the flow is waiting on, if any (safe to persist: an opaque id, not a URL).
    public var pendingSessionID: String? {
        switch phase {
        case .inBrowser(let id), .confirming(let id, _, _), .resumable(let id): id
        case .ready, .creating, .couldNotStart, .settled: nil
        }
    }

    /// Handles `event` and returns the actions to perform, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connectTapped:
            switch phase {
            case .ready, .resumable, .couldNotStart, .settled:
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
                .record(.requestFinished(.connect, .success)), .keepPendingSession(id: session.sessionID),
                .render(screen),
                .presentAuthenticationSession(session.hostedURL, callback: callback),
                .record(.browserOpened(.connect, .authenticationSession)),
            ]
        case .sessionCreationFailed(let failure):
            guard phase == .creating else { return [] }
            phase = .couldNotStart(failure)
            return [.record(.requestFinished(.connect, failure.category)), .render(screen)]
        case .sheetReturned(let link, let at):
            return receiveSheetDelivery(link, at: at)
        case .sessionStateReceived(let state, let at):
            return receiveState(state, at: at)
        case .sessionStateFailed(let failure, let at):
            guard case .confirming(let id, var schedule, let shown) = phase else { return [] }
            guard failure == .retryable else { return [.forgetPendingSession] + settleUnconfirmed(shown) }
            let next = schedule.answerArrived(at: at, policy: polling)
            phase = .confirming(sessionID: id, schedule, shown)
            return [.scheduleTick(at: next)]
        case .restored(let given, let at):
            let given = given.flatMap { $0.isEmpty ? nil : $0 }
            let id: String?
            switch phase {
            case .ready: id = given
            case .resumable(let kept): id = given ?? kept
            case .creating, .inBrowser, .couldNotStart, .confirming, .settled: id = nil
            }
            guard let id else { return [] }
            return confirm(id, at: at, showing: .confirming(.resumed))
        case .journey(let event):
            return receive(event)
        }
    }

    private mutating func receive(_ event: JourneyEvent) -> [Action] {
        switch event {
        case .returnLink(let link, let at):
            return receiveReturn(link, at: at)
        case .browserClosed(let at):
            guard case .inBrowser(let id) = phase else { return [] }
            return [.record(.browserClosedWithoutReturn(.connect))] + confirm(id, at: at, showing: .cancelled)
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
        }
    }

    /// A link the OS delivered: AppAuth order, 1. registered URL and strict parameters, 2. a pending flow, 3. the ids
    /// agree. A bare registered return URL (the landing page's link) is the one refused link that still counts.
    private mutating func receiveReturn(_ link: String, at: Date) -> [Action] {
        let value: ConnectReturn
        switch returnParser.parse(link) {
        case .rejected(let reason):
            let ignored: [Action] = [.record(.returnLinkIgnored(.connect, .rejected(reason)))]
            guard returnParser.isBareReturn(link), let pendingID = pendingSessionID else { return ignored }
            if case .confirming = phase { return ignored }  // already asking the backend
            return ignored + [.record(.browserClosedWithoutReturn(.connect))]
                + confirm(pendingID, at: at, showing: .confirming(.unknown))
        case .accepted(let accepted): value = accepted
        }
        guard let pendingID = pendingSessionID else { return [.record(.returnLinkIgnored(.connect, .noPendingFlow))] }
        guard value.sessionID == pendingID else { return [.record(.returnLinkIgnored(.connect, .sessionMismatch))] }
        let hint = Self.hint(value.resultCode)
        if case .confirming(let id, let schedule, _) = phase {
            // Already asking (the sheet closed first): the redirect only updates what is shown.
            phase = .confirming(sessionID: id, schedule, .confirming(hint))
            return [.record(.returnLinkAccepted(.connect)), .render(screen)]
        }
        return [.record(.returnLinkAccepted(.connect))] + confirm(pendingID, at: at, showing: .confirming(hint))
    }

    /// The sheet's own completion carried `link`. Any delivery ends the browser phase and asks about the backend's
    /// session id; the link only chooses the hint, and only when it is accepted and names that session.
    private mutating func receiveSheetDelivery(_ link: String, at: Date) -> [Action] {
        guard case .inBrowser(let id) = phase else { return receiveReturn(link, at: at) }
        let ignored: TelemetryEvent.IgnoredReturnReason
        switch returnParser.parse(link) {
        case .accepted(let value) where value.sessionID == id:
            return [.record(.returnLinkAccepted(.connect))]
                + confirm(id, at: at, showing: .confirming(Self.hint(value.resultCode)))
        case .accepted: ignored = .sessionMismatch
        case .rejected(let reason): ignored = .rejected(reason)
        }
        return [.record(.returnLinkIgnored(.connect, ignored)), .record(.browserClosedWithoutReturn(.connect))]
            + confirm(id, at: at, showing: .confirming(.unknown))
    }

    private static func hint(_ resultCode: ConnectReturn.ResultCode) -> ConnectScreen.ReturnHint {
        switch resultCode {
        case .ok: .ok
        case .error: .error
        case .cancelled: .cancelled
        }
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
            return [.record(.outcomeSettled(.connect, category)), .forgetPendingSession, .render(screen)]
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
