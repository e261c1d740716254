import BatonCore
import Foundation

@testable import BatonClient

/// Runs ``VerificationMachine`` over vector events.
struct VerificationVectorRunner: InteractionVectorRunner {
    var machine: VerificationMachine

    init(config: JSONValue) {
        let registered = config["registered"]!.array!.map { $0.string! }
        let polling = PollingPolicy(
            interval: TimeInterval(config["polling"]!["interval"]!.int!),
            timeout: TimeInterval(config["polling"]!["timeout"]!.int!))
        machine = VerificationMachine(
            workflow: config["workflow"]!.string!, returnParser: try! VerificationReturnParser(registered: registered),
            polling: polling)
    }

    mutating func apply(_ event: JSONValue) -> (effects: [JSONValue], telemetry: [TelemetryEventDescription]) {
        let input: VerificationMachine.Event
        switch event["type"]!.string! {
        case "verify_tap": input = .verifyTapped(at: event.date("at"))
        case "handoff_created": input = .handoffCreated(SensitiveURL(event["url"]!.string!)!)
        case "handoff_failed": input = .handoffFailed(RequestFailure(rawValue: event["failure"]!.string!)!)
        case "return_link": input = .returnLink(event["url"]!.string!, at: event.date("at"))
        case "web_view_return": input = .webViewReturned(event["url"]!.string!, at: event.date("at"))
        case "browser_closed": input = .browserClosed(at: event.date("at"))
        case "status":
            input = .statusReceived(VerificationStatus(rawValue: event["status"]!.string!), at: event.date("at"))
        case "status_failed":
            input = .statusFailed(RequestFailure(rawValue: event["failure"]!.string!)!, at: event.date("at"))
        case "background": input = .backgrounded
        case "foreground": input = .foregrounded(at: event.date("at"))
        case "restore": input = .restored(at: event.date("at"))
        case "tick": input = .tick(event.date("at"))
        case let other: fatalError("unknown verification event \(other)")
        }
        var effects: [JSONValue] = []
        var telemetry: [String] = []
        for action in machine.handle(input) {
            switch action {
            case .record(let event): telemetry.append(String(reflecting: event))
            case .render(let screen): effects.append(Self.render(screen))
            case .requestHandoff(let workflow):
                effects.append(["request": "POST /v2/verification-handoffs", "workflow": .string(workflow)])
            case .presentCameraWebView(let url, _):
                effects.append(["navigate": "camera_web_view", "url": .string(url.revealForPresentation())])
            case .fetchStatus(let workflow): effects.append(["request": .string("GET /v2/verifications/\(workflow)")])
            case .scheduleTick(let date): effects.append(["tick": .string(RFC3339.string(from: date))])
            }
        }
        return (effects, telemetry)
    }

    static func render(_ screen: VerificationScreen) -> JSONValue {
        switch screen {
        case .ready: ["render": "ready"]
        case .opening: ["render": "opening"]
        case .inJourney: ["render": "in_journey"]
        case .couldNotStart(let failure): ["render": "could_not_start", "failure": .string(failure.rawValue)]
        case .confirming(let hint?): ["render": "confirming", "landingHint": .string(hint)]
        case .confirming(nil): ["render": "confirming"]
        case .settled(let status): ["render": "settled", "status": .string(status.rawValue)]
        case .checkLater: ["render": "check_later"]
        }
    }
}
