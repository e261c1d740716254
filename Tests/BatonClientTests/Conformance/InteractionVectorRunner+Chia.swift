import BatonCore
import Foundation

@testable import BatonClient

/// Runs ``ChiaHandoffMachine`` over vector events, with a simulated attempt store so `restart` restores.
struct ChiaVectorRunner: InteractionVectorRunner {
    let catalogItemID: String
    let genericReturn: GenericReturnParser?
    let cards: [String: CatalogCard]
    var machine: ChiaHandoffMachine
    var stored: PendingAttempt?

    init(config: JSONValue, cards: [String: CatalogCard]) {
        catalogItemID = config["catalogItemId"]!.string!
        genericReturn = config["genericReturnHost"]?.string.map { try! GenericReturnParser(registeredHost: $0) }
        self.cards = cards
        machine = ChiaHandoffMachine(catalogItemID: catalogItemID, genericReturn: genericReturn)
    }

    mutating func apply(_ event: JSONValue) -> (effects: [JSONValue], telemetry: [TelemetryEventDescription]) {
        let input: ChiaHandoffMachine.Event
        switch event["type"]!.string! {
        case "cta": input = .callToActionTapped
        case "projection": input = .projectionLoaded(event["card"]!.string.map { cards[$0]! })
        case "projection_failed": input = .projectionFailed
        case "share_tap":
            input = .shareTapped(at: event.date("at"), freshKey: IdempotencyKey(event["freshKey"]!.string!)!)
        case "continue_tap": input = .continueTapped
        case "share_response": input = Self.shareResponse(event)
        case "browser_failed": input = .browserFailedToOpen
        case "return_link": input = .returnLink(event["url"]!.string!)
        case "background": input = .backgrounded
        case "foreground": input = .foregrounded
        case "tick": input = .tick(event.date("at"))
        case "restart":
            machine = ChiaHandoffMachine(catalogItemID: catalogItemID, genericReturn: genericReturn)
            input = .restored(stored)
        case let other: fatalError("unknown chia event \(other)")
        }
        var effects: [JSONValue] = []
        var telemetry: [String] = []
        for action in machine.handle(input) {
            switch action {
            case .record(let event): telemetry.append(String(reflecting: event))
            case .savePendingAttempt(let attempt):
                stored = attempt
                effects.append([
                    "persist": "save", "idempotencyKey": .string(attempt.key.rawValue), "body": Self.body(attempt),
                ])
            case .discardPendingAttempt:
                stored = nil
                effects.append(["persist": "discard"])
            case .render(let screen): effects.append(Self.render(screen))
            case .fetchProjection: effects.append(["request": "GET /v2/catalog"])
            case .sendShareRequest(let attempt):
                effects.append([
                    "request": "POST /v2/handoff-sessions", "idempotencyKey": .string(attempt.key.rawValue),
                    "body": Self.body(attempt),
                ])
            case .openExternalBrowser(let url):
                effects.append(["navigate": "external", "url": .string(url.revealForPresentation())])
            case .scheduleTick(let date): effects.append(["tick": .string(RFC3339.string(from: date))])
            case .routeToMarketplaceHome: effects.append(["route": "marketplace-home"])
            case .requestSignIn: effects.append(["signIn": "required"])
            }
        }
        return (effects, telemetry)
    }

    static func shareResponse(_ event: JSONValue) -> ChiaHandoffMachine.Event {
        if let transport = event["transport"]?.string {
            return .shareFailed(.transportFailure(.init(rawValue: transport)!), at: event.date("at"))
        }
        let status = event["status"]!.int!
        if (200...299).contains(status) { return .shareSucceeded(SensitiveURL(event["url"]!.string!)!) }
        return .shareFailed(.response(status: status, retryAfter: event["retryAfter"]?.string), at: event.date("at"))
    }

    /// The body exactly as it goes on the wire, as JSON.
    static func body(_ attempt: PendingAttempt) -> JSONValue {
        try! JSONDecoder().decode(JSONValue.self, from: attempt.body.jsonData())
    }

    static func render(_ screen: ChiaScreen) -> JSONValue {
        let content: String
        switch screen.content {
        case .card: content = "card"
        case .loading: content = "loading"
        case .hidden: content = "hidden"
        case .unavailable: content = "unavailable"
        case .handoff(let card): content = card.handoff.mode.rawValue
        }
        let labels = screen.actionLabels
        var enabled: [JSONValue] = []
        if screen.shareEnabled, labels.contains(MobileHandoff.shareLabel) { enabled.append("share") }
        if screen.continueEnabled, !labels.isEmpty { enabled.append("continue") }
        var object: [String: JSONValue] = [
            "render": .string(content), "actions": .array(labels.map { .string($0) }), "enabled": .array(enabled),
        ]
        switch screen.notice {
        case .shareUncertain: object["notice"] = "share_uncertain"
        case .shareRetryLater: object["notice"] = "share_retry_later"
        case .signInRequired: object["notice"] = "sign_in_required"
        case nil: break
        }
        return .object(object)
    }
}
