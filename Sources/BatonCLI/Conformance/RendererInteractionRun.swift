import BatonClient
import BatonCore
import Foundation

/// One interaction case of `renderer-conformance.v1.json` run through BatonClient's ``ChiaHandoffMachine``, with the
/// events the file's `clientVocabulary` maps each step to.
///
/// The run plays the coordinator: it answers every `GET /v2/catalog` the machine asks for with the catalog the step
/// names, every `POST /v2/handoff-sessions` with the step's `respond`, keeps the attempt store the machine saves to
/// and discards from, and fires the ticks the machine schedules. A step runs until nothing is left to answer (the
/// screen has settled, as the web runner waits for it) and is then compared with its `expect`. The clock moves one
/// second per step, so a body built again differs from the last one in `affirmedAt`.
struct RendererInteractionRun {
    /// What every run saw, for the forbidden-behaviour cases.
    struct Observations {
        /// Every telemetry event recorded, reflected.
        var telemetry: [String] = []
        /// Every attempt saved to the store, as its key and body bytes.
        var persisted: [String] = []
        /// Each successful share response's journey URL and the navigations its handling caused.
        var journeyNavigations: [(returned: String, navigated: [String])] = []
        /// Navigations caused by a step with no tap.
        var navigationsWithoutTap = 0
        /// The requests of each `restore` step.
        var restoreRequests: [[String]] = []
    }

    private let fixtures: RendererFixtures
    private let itemID: String
    private var machine: ChiaHandoffMachine
    private var clock = Date(timeIntervalSince1970: 1_767_225_600)
    private var projection: String
    private var stored: PendingAttempt?
    private var lastPost: PendingAttempt?
    private var journeyURL: String?
    private var ticks: [Date] = []
    private var keysIssued = 0
    private var journeysIssued = 0
    private(set) var observations = Observations()

    // The current step's effects.
    private var requests: [String] = []
    private var posts: [PendingAttempt] = []
    private var navigations: [String] = []
    private var unansweredPosts = 0
    private var unansweredFetches = 0

    /// A run for the fixture card `card` (the case's `card`, default `share`).
    init?(fixtures: RendererFixtures, card: String) {
        guard let itemID = fixtures.itemID(ofCard: card) else { return nil }
        self.fixtures = fixtures
        self.itemID = itemID
        projection = card
        machine = ChiaHandoffMachine(catalogItemID: itemID, genericReturn: nil)
    }

    /// Runs `steps`; `nil` when every step did what it expects, otherwise the first difference.
    mutating func run(_ steps: [JSONValue]) -> String? {
        for (offset, step) in steps.enumerated() {
            let event = step["event"]?.stringValue ?? "?"
            if let failure = perform(step) { return "step \(offset + 1) (\(event)): \(failure)" }
        }
        return nil
    }

    private mutating func perform(_ step: JSONValue) -> String? {
        clock.addTimeInterval(1)
        if let name = step["projection"]?.stringValue { projection = name }
        requests = []
        posts = []
        navigations = []
        let previousPost = lastPost
        let event = step["event"]?.stringValue
        switch event {
        case "tap_cta": feed(.callToActionTapped)
        case "tap_share":
            let taps: Int = if case .number(let count)? = step["taps"] { Int(count) } else { 1 }
            for _ in 0..<max(taps, 1) { feed(.shareTapped(at: clock, freshKey: nextKey())) }
        case "tap_without_sharing", "tap_neutral": feed(.continueTapped)
        case "restore": feed(.foregrounded)
        default: return "unknown event"
        }
        if let failure = settle(respond: step["respond"]) { return failure }
        if !["tap_share", "tap_without_sharing", "tap_neutral"].contains(event ?? "") {
            observations.navigationsWithoutTap += navigations.count
        }
        if event == "restore" { observations.restoreRequests.append(requests) }
        guard let expect = step["expect"] else { return "step has no expect" }
        return compare(expect, previousPost: previousPost)
    }

    /// Answers what the machine asked for until nothing is left: share requests (with the step's `respond`, once),
    /// projection fetches (with the step's catalog), then scheduled ticks, earliest first.
    private mutating func settle(respond: JSONValue?) -> String? {
        var response = respond
        for _ in 0..<100 {
            if unansweredPosts > 0, let answer = response {
                unansweredPosts -= 1
                response = nil
                guard let event = shareResponse(answer) else { return "unknown respond \(answer.rendered)" }
                feed(event)
            } else if unansweredFetches > 0 {
                unansweredFetches -= 1
                do {
                    feed(.projectionLoaded(try fixtures.served(itemID: itemID, projection: projection)))
                } catch {
                    return "the file has no fixture or catalog '\(error.name)'"
                }
            } else if let tick = ticks.min() {
                ticks.removeAll { $0 == tick }
                clock = max(clock, tick)
                feed(.tick(tick))
            } else {
                return nil
            }
        }
        return "the machine never settled"
    }

    private mutating func shareResponse(_ respond: JSONValue) -> ChiaHandoffMachine.Event? {
        if let transport = respond["transport"]?.stringValue {
            return ShareRequestOutcome.TransportFailure(rawValue: transport).map {
                .shareFailed(.transportFailure($0), at: clock)
            }
        }
        guard case .number(let number)? = respond["status"] else { return nil }
        let status = Int(number)
        guard (200...299).contains(status) else {
            return .shareFailed(.response(status: status, retryAfter: respond["retryAfter"]?.stringValue), at: clock)
        }
        journeysIssued += 1
        let url = "\(fixtures.chiaOrigin)/h/phs_swift\(journeysIssued)conformance"
        guard let sensitive = SensitiveURL(url) else { return nil }
        journeyURL = url
        return .shareSucceeded(sensitive)
    }

    private mutating func nextKey() -> IdempotencyKey {
        keysIssued += 1
        return Self.conformanceKey(keysIssued)
    }

    /// `3f2504e0-4f89-41d3-9a0c-` followed by `number` as 12 hex digits: a UUIDv4 whose last group counts, so every
    /// key a run issues is distinct.
    static func conformanceKey(_ number: Int) -> IdempotencyKey {
        let n = UInt64(truncatingIfNeeded: number)
        func byte(_ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: n >> shift) }
        return IdempotencyKey(
            version4From: UUID(
                uuid: (
                    0x3f, 0x25, 0x04, 0xe0, 0x4f, 0x89, 0x41, 0xd3, 0x9a, 0x0c, byte(40), byte(32), byte(24), byte(16),
                    byte(8), byte(0)
                )))
    }

    private mutating func feed(_ event: ChiaHandoffMachine.Event) {
        let navigationsBefore = navigations.count
        for action in machine.handle(event) {
            switch action {
            case .render, .routeToMarketplaceHome, .requestSignIn: break
            case .fetchProjection:
                requests.append("GET /v2/catalog")
                unansweredFetches += 1
            case .savePendingAttempt(let attempt):
                stored = attempt
                let body = String(decoding: attempt.body.jsonData(), as: UTF8.self)
                observations.persisted.append(attempt.key.rawValue + " " + body)
            case .sendShareRequest(let attempt):
                requests.append("POST /v2/handoff-sessions")
                posts.append(attempt)
                lastPost = attempt
                unansweredPosts += 1
            case .discardPendingAttempt: stored = nil
            case .openExternalBrowser(let url): navigations.append(url.revealForPresentation())
            case .scheduleTick(let date): ticks.append(date)
            case .record(let telemetry): observations.telemetry.append(String(reflecting: telemetry))
            }
        }
        if case .shareSucceeded = event, let journeyURL {
            observations.journeyNavigations.append((journeyURL, Array(navigations[navigationsBefore...])))
        }
    }

    private func compare(_ expect: JSONValue, previousPost: PendingAttempt?) -> String? {
        if case .array(let wanted)? = expect["requests"], wanted.compactMap(\.stringValue) != requests {
            return "requests \(requests)"
        }
        if let shareRequest = expect["shareRequest"] {
            guard let post = posts.first else { return "no share request" }
            let keyKept = post.key == previousPost?.key
            let bodyKept = previousPost.map { post.body.jsonData() == $0.body.jsonData() } ?? false
            if (shareRequest["key"]?.stringValue == "kept") != keyKept { return "Idempotency-Key kept: \(keyKept)" }
            if (shareRequest["body"]?.stringValue == "kept") != bodyKept { return "body kept: \(bodyKept)" }
        }
        switch expect["pending"]?.stringValue {
        case "none"?: if stored != nil { return "a share request is still kept" }
        case "kept"?: if stored == nil || stored != lastPost { return "body and key not kept" }
        default: break
        }
        if case .array(let wanted)? = expect["navigations"] {
            let kinds = navigations.map(kind(of:))
            if wanted.compactMap(\.stringValue) != kinds { return "navigations \(kinds)" }
        }
        let screen = machine.screen
        if case .array(let wanted)? = expect["actions"], wanted.compactMap(\.stringValue) != screen.actionLabels {
            return "actions \(screen.actionLabels)"
        }
        if case .bool(let wanted)? = expect["actionsEnabled"] {
            let enabled =
                !screen.actionLabels.isEmpty
                && screen.actionLabels.allSatisfy {
                    $0 == MobileHandoff.shareLabel ? screen.shareEnabled : screen.continueEnabled
                }
            if enabled != wanted { return "actions enabled: \(enabled) (share \(screen.shareEnabled))" }
        }
        return nil
    }

    /// `journey` (the URL of the last successful share response), `neutral` (the presented card's neutral URL) or
    /// `other` (never the URL itself: a detail line must not carry one).
    private func kind(of url: String) -> String {
        if url == journeyURL { return "journey" }
        guard case .handoff(let card) = machine.screen.content else { return "other" }
        let neutral: HTTPSURL =
            switch card.handoff {
            case .neutralOnly(let handoff): handoff.url
            case .shareOrNeutral(let handoff): handoff.neutralURL
            }
        return url == neutral.string ? "neutral" : "other"
    }
}
