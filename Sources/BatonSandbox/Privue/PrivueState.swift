import BatonCore
import Foundation

/// Privue's state: verifications (idempotent per `user_ref` + `workflow`), single-use handoff tickets, signed-in
/// browser sessions, and the `verification.updated` events each status change raises. Pure of HTTP.
public actor PrivueState {
    /// Why a verification could not be created.
    public enum CreationError: Error, Sendable, Hashable {
        /// `return_url` matches no registered return URL (or is not https).
        case returnURLNotRegistered
    }

    /// What redeeming a ticket gave.
    public enum Redemption: Sendable, Hashable {
        /// Signed in: the browser session token to set as a cookie, and the verification.
        case signedIn(browserSession: String, verification: PrivueVerification)
        /// Not signed in; the journey asks for the mobile number (never an error page).
        case askForMobileNumber(reason: String)
    }

    private struct Ticket {
        let verificationID: String
        let index: Int
        let expiresAt: Date
        var redeemed: Bool
    }

    private struct BrowserSession {
        let verificationID: String
        let expiresAt: Date
    }

    private let configuration: SandboxConfiguration
    private let webhooks: any WebhookEmitter
    private var origin: WebOrigin
    private var verifications: [String: PrivueVerification] = [:]
    private var order: [String] = []
    private var idsByUserAndWorkflow: [String: String] = [:]
    private var tickets: [String: Ticket] = [:]
    private var browserSessions: [String: BrowserSession] = [:]

    /// Creates Privue's state on `origin`, raising webhook events through `webhooks`.
    public init(configuration: SandboxConfiguration, origin: WebOrigin, webhooks: any WebhookEmitter) {
        self.configuration = configuration
        self.origin = origin
        self.webhooks = webhooks
    }

    /// Uses `origin` for every URL made from now on.
    public func useOrigin(_ origin: WebOrigin) { self.origin = origin }

    private var now: Date { configuration.clock.now() }

    /// Creates the verification for `userRef` + `workflow`, or returns the existing one (`created == false`).
    ///
    /// `returnURL` must match a registered return URL; `nil` uses the first registered one.
    public func createVerification(
        userRef: String, workflow: String, returnURL: String?
    ) throws(CreationError)
        -> (verification: PrivueVerification, created: Bool)
    {
        let key = userRef + "\u{0}" + workflow
        if let id = idsByUserAndWorkflow[key], let existing = verifications[id] { return (existing, false) }
        let chosen: String
        if let returnURL {
            guard let parts = RawURLComponents(returnURL), parts.normalizedScheme == "https", parts.fragment == nil,
                configuration.privueReturnURLs.contains(where: { $0.matches(parts) })
            else { throw .returnURLNotRegistered }
            chosen = returnURL
        } else {
            guard let first = configuration.privueReturnURLs.first else { throw .returnURLNotRegistered }
            chosen = first.string
        }
        let time = now
        let verification = PrivueVerification(
            id: UUID().uuidString.lowercased(), userRef: userRef, workflow: workflow, returnURL: chosen,
            status: .pending, createdAt: time, updatedAt: time)
        verifications[verification.id] = verification
        order.append(verification.id)
        idsByUserAndWorkflow[key] = verification.id
        return (verification, true)
    }

    /// The verification `id`, if it exists.
    public func verification(_ id: String) -> PrivueVerification? { verifications[id] }

    /// Every verification, oldest first.
    public func allVerifications() -> [PrivueVerification] { order.compactMap { verifications[$0] } }

    /// The shareable journey URL of a verification: `<origin>/<account>/<workflow>?verification_id=<id>`.
    public func journeyURL(of verification: PrivueVerification) -> String {
        URLQueryAppending.append(
            [("verification_id", verification.id)],
            to: "\(origin)/\(configuration.privueAccount)/\(URLQueryAppending.encode(verification.workflow))")
    }

    /// The API body of a verification.
    func body(of verification: PrivueVerification) -> PrivueVerificationBody {
        PrivueVerificationBody(
            id: verification.id, userRef: verification.userRef, workflow: verification.workflow,
            status: verification.status.rawValue, journeyURL: journeyURL(of: verification),
            createdAt: verification.createdAt, updatedAt: verification.updatedAt)
    }

    /// A fresh single-use handoff for verification `id`:
    /// `<origin>/<account>/<workflow>#ticket=<32 chars>`, valid ``SandboxLifetimes/privueTicket`` seconds.
    public func createHandoff(verificationID id: String) -> (url: SensitiveURL, expiresInSeconds: Int)? {
        guard var verification = verifications[id] else { return nil }
        let ticket = RandomToken.base62(32)
        let time = now
        let expiresAt = time.addingTimeInterval(configuration.lifetimes.privueTicket)
        tickets[ticket] = Ticket(
            verificationID: id, index: verification.handoffs.count, expiresAt: expiresAt, redeemed: false)
        verification.handoffs.append(.init(createdAt: time, expiresAt: expiresAt, redeemedAt: nil))
        verifications[id] = verification
        let path = "/\(configuration.privueAccount)/\(URLQueryAppending.encode(verification.workflow))"
        let url = SensitiveURL(origin: origin, path: "\(path)#ticket=\(ticket)")
        return (url, Int(configuration.lifetimes.privueTicket))
    }

    /// Redeems `ticket` on the journey page of `workflow`: signs the browser in once; a used, expired, unknown or
    /// other-workflow ticket asks for the mobile number instead.
    public func redeem(ticket: String, workflow: String) -> Redemption {
        guard var record = tickets[ticket], let verification = verifications[record.verificationID],
            verification.workflow == workflow
        else { return .askForMobileNumber(reason: "ticket_unknown") }
        if record.redeemed { return .askForMobileNumber(reason: "ticket_used") }
        let time = now
        if time >= record.expiresAt { return .askForMobileNumber(reason: "ticket_expired") }
        record.redeemed = true
        tickets[ticket] = record
        var redeemed = verification
        redeemed.handoffs[record.index].redeemedAt = time
        verifications[redeemed.id] = redeemed
        return .signedIn(browserSession: startBrowserSession(for: redeemed.id), verification: signedIn(redeemed))
    }

    /// Signs in with a mobile number (the sandbox sends no code: any 6–15 digit number, optionally with `+`), for
    /// the verification named by `verificationID` or by a stale `ticket` from the same journey.
    public func signInWithMobile(
        _ mobile: String, verificationID: String?, ticket: String?, workflow: String
    )
        -> (browserSession: String, verification: PrivueVerification)?
    {
        let digits = mobile.hasPrefix("+") ? mobile.dropFirst() : Substring(mobile)
        guard (6...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let id = verificationID ?? ticket.flatMap({ tickets[$0]?.verificationID }),
            let verification = verifications[id], verification.workflow == workflow
        else { return nil }
        return (startBrowserSession(for: id), signedIn(verification))
    }

    /// The verification a browser session cookie is signed in to, while the session lasts.
    public func verification(forBrowserSession token: String) -> PrivueVerification? {
        guard let session = browserSessions[token], now < session.expiresAt else { return nil }
        return verifications[session.verificationID]
    }

    /// Submits the journey signed in with `token` with `status`; returns the redirect to the return URL.
    public func submit(browserSession token: String, status: PrivueVerification.Status) -> String? {
        guard let verification = verification(forBrowserSession: token) else { return nil }
        return complete(verificationID: verification.id, status: status)
    }

    /// Drives verification `id` to `status` (the journey's submit, or the control API) and returns the redirect:
    /// the return URL plus `verification_id` and `status`.
    public func complete(verificationID id: String, status: PrivueVerification.Status) -> String? {
        guard let verification = verifications[id] else { return nil }
        let updated = update(verification, to: status)
        return URLQueryAppending.append(
            [("verification_id", updated.id), ("status", updated.status.rawValue)], to: updated.returnURL)
    }

    /// Forgets everything.
    public func reset() {
        verifications = [:]
        order = []
        idsByUserAndWorkflow = [:]
        tickets = [:]
        browserSessions = [:]
    }

    private func startBrowserSession(for id: String) -> String {
        let token = RandomToken.base62(32)
        browserSessions[token] = BrowserSession(
            verificationID: id, expiresAt: now.addingTimeInterval(configuration.lifetimes.privueBrowserSession))
        return token
    }

    private func signedIn(_ verification: PrivueVerification) -> PrivueVerification {
        verification.status == .pending ? update(verification, to: .inProgress) : verification
    }

    @discardableResult
    private func update(
        _ verification: PrivueVerification, to status: PrivueVerification.Status
    )
        -> PrivueVerification
    {
        guard verification.status != status else { return verification }
        var updated = verification
        updated.status = status
        updated.updatedAt = now
        verifications[updated.id] = updated
        webhooks.emit(
            WebhookEvent(type: "verification.updated", timestamp: updated.updatedAt, data: body(of: updated).json))
        return updated
    }
}
