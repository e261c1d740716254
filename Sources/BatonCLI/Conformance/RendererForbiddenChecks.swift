import BatonClient
import BatonCore
import Foundation

/// The forbidden-behaviour cases of `renderer-conformance.v1.json` that have a Swift-side check: what
/// ``ChiaHandoffMachine`` did during the interaction runs, and small runs of the machine built for one case. The
/// cases about a page (markup, CSP, `window.open`) or the browser component (BatonApple's presenter) are not run.
enum RendererForbiddenChecks {
    typealias CaseResult = ConformanceRunner.CaseResult

    private static let webOnly =
        "web only: about a page's markup, CSP or window.open; the Swift app renders no HTML"

    /// Why a check could not run: the interaction runs observed nothing it could judge.
    private struct NothingObserved: Error {
        let reason: String
    }

    /// The result of the forbidden case `id`, from the interaction runs' observations `runs`. A check that needs
    /// observations none of the runs made is not run.
    static func result(
        id: String, file: String, fixtures: RendererFixtures, runs: [RendererInteractionRun.Observations]
    ) -> CaseResult {
        do {
            return try checked(id: id, file: file, fixtures: fixtures, runs: runs)
        } catch {
            return .notRun(file, "forbidden", id, reason: error.reason)
        }
    }

    private static func checked(
        id: String, file: String, fixtures: RendererFixtures, runs: [RendererInteractionRun.Observations]
    ) throws(NothingObserved) -> CaseResult {
        let failure: String?
        switch id {
        case "no-provider-request-before-tap": failure = nothingBeforeTap(fixtures: fixtures, runs: runs)
        case "no-request-between-render-and-tap": failure = nothingBetweenRenderAndTap(fixtures: fixtures)
        case "journey-url-unchanged": failure = try journeyURLUnchanged(runs)
        case "journey-url-not-persisted": failure = try journeyURLNotPersisted(runs)
        case "journey-url-not-logged": failure = try journeyURLNotLogged(runs)
        case "no-status-call": failure = try noStatusCall(runs)
        case "no-resource-hints", "no-window-open", "no-inline-script":
            return .notRun(file, "forbidden", id, reason: webOnly)
        case "no-embedded-browser":
            return .notRun(
                file, "forbidden", id,
                reason: "the browser component is BatonApple's presenter (UIApplication.open), not compiled here")
        default:
            return .notRun(file, "forbidden", id, reason: "no Swift-side check for this case")
        }
        return .checked(file, "forbidden", id, failure: failure)
    }

    /// A fresh machine given everything but a tap requests nothing and opens nothing; in the interaction runs (if
    /// any) every navigation came from a step with a tap.
    private static func nothingBeforeTap(
        fixtures: RendererFixtures, runs: [RendererInteractionRun.Observations]
    ) -> String? {
        guard let itemID = fixtures.itemID(ofCard: "share") else { return "no fixture card 'share'" }
        var machine = ChiaHandoffMachine(catalogItemID: itemID, genericReturn: nil)
        let untapped: [ChiaHandoffMachine.Event] = [
            .foregrounded, .backgrounded, .tick(Date(timeIntervalSince1970: 1_767_225_600)),
            .returnLink("\(fixtures.chiaOrigin)/"), .foregrounded,
        ]
        if let effect = untapped.flatMap({ machine.handle($0) }).first(where: isRequestOrNavigation) {
            return "before any tap the machine asked to \(describe(effect))"
        }
        let stray = runs.map(\.navigationsWithoutTap).reduce(0, +)
        return stray == 0 ? nil : "\(stray) navigation(s) in steps without a tap"
    }

    /// After the call to action renders the share card: backgrounding, ticks and a stray link request nothing.
    private static func nothingBetweenRenderAndTap(fixtures: RendererFixtures) -> String? {
        guard let json = fixtures.card(named: "share"), let card = RendererFixtures.decoded(json) else {
            return "no decodable fixture card 'share'"
        }
        var machine = ChiaHandoffMachine(catalogItemID: card.id, genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(card))
        guard machine.screen.shareEnabled else { return "the share card did not render with its actions" }
        let idle: [ChiaHandoffMachine.Event] = [
            .backgrounded, .tick(Date(timeIntervalSince1970: 1_767_229_200)), .returnLink("\(fixtures.chiaOrigin)/"),
        ]
        let effect = idle.flatMap { machine.handle($0) }.first(where: isRequestOrNavigation)
        return effect.map { "between render and tap the machine asked to \(describe($0))" }
    }

    /// Each successful share opened exactly the URL its response returned, once.
    private static func journeyURLUnchanged(
        _ runs: [RendererInteractionRun.Observations]
    ) throws(NothingObserved) -> String? {
        let journeys = runs.flatMap(\.journeyNavigations)
        guard !journeys.isEmpty else { throw NothingObserved(reason: "no interaction case reached a successful share") }
        let changed = journeys.filter { $0.navigated != [$0.returned] }.count
        return changed == 0 ? nil : "\(changed) of \(journeys.count) share response(s) did not open exactly their URL"
    }

    /// The attempt store only ever received a key and a body: no URL at all.
    private static func journeyURLNotPersisted(
        _ runs: [RendererInteractionRun.Observations]
    ) throws(NothingObserved) -> String? {
        let persisted = runs.flatMap(\.persisted)
        guard !persisted.isEmpty else { throw NothingObserved(reason: "no interaction case saved an attempt") }
        let withURL = persisted.filter { $0.contains("://") || $0.contains("phs_") }.count
        return withURL == 0 ? nil : "\(withURL) saved attempt(s) carry a URL"
    }

    /// No telemetry event recorded during the runs carries a URL.
    private static func journeyURLNotLogged(
        _ runs: [RendererInteractionRun.Observations]
    ) throws(NothingObserved) -> String? {
        let telemetry = runs.flatMap(\.telemetry)
        guard !telemetry.isEmpty else { throw NothingObserved(reason: "no interaction case recorded telemetry") }
        let withURL = telemetry.filter { $0.contains("://") || $0.contains("phs_") }.count
        return withURL == 0 ? nil : "\(withURL) telemetry event(s) carry a URL"
    }

    /// Back from the journey, the only request is the projection.
    private static func noStatusCall(_ runs: [RendererInteractionRun.Observations]) throws(NothingObserved) -> String? {
        let restores = runs.flatMap(\.restoreRequests)
        guard !restores.isEmpty else { throw NothingObserved(reason: "no interaction case returned from the journey") }
        let other = restores.filter { $0 != ["GET /v2/catalog"] }
        return other.isEmpty ? nil : "after return the machine requested \(other[0])"
    }

    private static func isRequestOrNavigation(_ action: ChiaHandoffMachine.Action) -> Bool {
        switch action {
        case .fetchProjection, .sendShareRequest, .openExternalBrowser, .routeToMarketplaceHome: true
        case .render, .savePendingAttempt, .discardPendingAttempt, .scheduleTick, .requestSignIn, .record: false
        }
    }

    private static func describe(_ action: ChiaHandoffMachine.Action) -> String {
        switch action {
        case .fetchProjection: "fetch the projection"
        case .sendShareRequest: "send a share request"
        case .openExternalBrowser: "open the browser"
        case .routeToMarketplaceHome: "route to marketplace home"
        default: "do something"
        }
    }
}
