import BatonCore
import Foundation

@testable import BatonClient

/// Runs ``ConnectMachine`` over vector events.
struct ConnectVectorRunner: InteractionVectorRunner {
    var machine: ConnectMachine
    /// What the simulated session store holds.
    var kept: String?

    init(config: JSONValue) {
        self.config = config
        machine = Self.machine(config, pendingSessionID: nil)
    }

    let config: JSONValue

    /// A machine for `config`; `pendingSessionID` is what a previous launch kept (a `cold_launch` step).
    static func machine(_ config: JSONValue, pendingSessionID: String?) -> ConnectMachine {
        let callbackConfig = config["callback"]!
        let callback: ConnectCallback =
            callbackConfig["kind"]!.string! == "https"
            ? .https(host: callbackConfig["host"]!.string!, path: callbackConfig["path"]!.string!)
            : .customScheme(callbackConfig["scheme"]!.string!)
        let polling = PollingPolicy(
            interval: TimeInterval(config["polling"]!["interval"]!.int!),
            timeout: TimeInterval(config["polling"]!["timeout"]!.int!))
        let registered = config["registered"]!.array!.map { $0.string! }
        return ConnectMachine(
            callback: callback, returnParser: try! ConnectReturnParser(registered: registered), polling: polling,
            pendingSessionID: pendingSessionID)
    }

    mutating func apply(_ event: JSONValue) -> (effects: [JSONValue], telemetry: [TelemetryEventDescription]) {
        let input: ConnectMachine.Event
        switch event["type"]!.string! {
        case "connect_tap": input = .connectTapped(at: event.date("at"))
        case "session_created":
            input = .sessionCreated(
                ConnectSession(
                    sessionID: event["sessionId"]!.string!, hostedURL: SensitiveURL(event["hostedUrl"]!.string!)!,
                    callbackKind: ConnectCallback.Kind(rawValue: event["callback"]!.string!)!))
        case "session_failed": input = .sessionCreationFailed(RequestFailure(rawValue: event["failure"]!.string!)!)
        case "return_link": input = .returnLink(event["url"]!.string!, at: event.date("at"))
        case "sheet_return": input = .sheetReturned(event["url"]!.string!, at: event.date("at"))
        case "cold_launch":
            // The process is gone: a new machine, given only the session id the store kept.
            machine = Self.machine(config, pendingSessionID: kept)
            return ([Self.render(machine.screen)], [])
        case "browser_closed": input = .browserClosed(at: event.date("at"))
        case "session_state":
            let state = ConnectSessionState(
                sessionID: event["sessionId"]!.string!,
                status: ConnectSessionState.Status(rawValue: event["status"]!.string!)!)
            input = .sessionStateReceived(state, at: event.date("at"))
        case "session_state_failed":
            input = .sessionStateFailed(RequestFailure(rawValue: event["failure"]!.string!)!, at: event.date("at"))
        case "background": input = .backgrounded
        case "foreground": input = .foregrounded(at: event.date("at"))
        case "restore": input = .restored(pendingSessionID: event["sessionId"]?.string, at: event.date("at"))
        case "tick": input = .tick(event.date("at"))
        case let other: fatalError("unknown connect event \(other)")
        }
        var effects: [JSONValue] = []
        var telemetry: [String] = []
        for action in machine.handle(input) {
            switch action {
            case .record(let event): telemetry.append(String(reflecting: event))
            case .render(let screen): effects.append(Self.render(screen))
            case .createSession(let kind):
                effects.append(["request": "POST /v2/connect-sessions", "callback": .string(kind.rawValue)])
            case .presentAuthenticationSession(let url, let callback):
                let caught: String =
                    switch callback {
                    case .https(let host, let path): "https://\(host)\(path)"
                    case .customScheme(let scheme): scheme
                    }
                effects.append([
                    "navigate": "authentication_session", "url": .string(url.revealForPresentation()),
                    "callback": .string(caught),
                ])
            case .fetchSession(let id): effects.append(["request": .string("GET /v2/connect-sessions/\(id)")])
            case .scheduleTick(let date): effects.append(["tick": .string(RFC3339.string(from: date))])
            case .keepPendingSession(let id):
                kept = id
                effects.append(["persist": "keep_session", "sessionId": .string(id)])
            case .forgetPendingSession:
                kept = nil
                effects.append(["persist": "forget_session"])
            }
        }
        return (effects, telemetry)
    }

    static func render(_ screen: ConnectScreen) -> JSONValue {
        switch screen {
        case .ready: ["render": "ready"]
        case .starting: ["render": "starting"]
        case .inBrowser: ["render": "in_browser"]
        case .couldNotStart(let failure): ["render": "could_not_start", "failure": .string(failure.rawValue)]
        case .confirming(let hint): ["render": "confirming", "hint": .string(hint.rawValue)]
        case .cancelled: ["render": "cancelled"]
        case .connected: ["render": "connected"]
        case .failed: ["render": "failed"]
        case .expired: ["render": "expired"]
        case .checkLater: ["render": "check_later"]
        }
    }
}
