import BatonCore
import BatonHTTP

/// Privue's hosted journey on `/<account>/<workflow>`:
///
/// - `GET`: signed in (cookie) → the journey with its submit form; otherwise a page whose script reads
///   `#ticket=…`, removes it from the address bar and redeems it; a used/expired/missing ticket shows the mobile
///   number form instead (never an error);
/// - `POST …/session` `{"ticket"}` → 200 `{"signedIn":true,"verificationId"}` + cookie, or
///   `{"signedIn":false,"reason"}`;
/// - `POST …/sign-in` (form `mobile`, `verification_id` or `ticket`) → 303 back to the journey, signed in;
/// - `POST …/submit` (form `status`) → 303 to `return_url?verification_id=…&status=…`.
struct PrivueJourneyRoutes {
    let state: PrivueState
    let account: String

    func add(to router: inout Router) {
        let state = state
        let base = "/\(account)/{workflow}"
        let cookie = PrivueSimulator.cookieName
        let cookiePath = "/\(account)"
        router.get(base) { request in
            let workflow = request.parameters["workflow"] ?? ""
            if let token = request.cookie(cookie),
                let verification = await state.verification(forBrowserSession: token),
                verification.workflow == workflow
            {
                return PrivuePages.journey(verification)
            }
            let verificationID = request.query.map { FormURLEncodedQuery(parsing: $0) }?.firstNonEmpty(
                "verification_id")
            return PrivuePages.signIn(workflow: workflow, verificationID: verificationID, message: nil)
        }
        router.post("\(base)/session") { request in
            let workflow = request.parameters["workflow"] ?? ""
            guard let ticket = StrictJSONObject(request.body, allowedKeys: ["ticket"])?.anyString("ticket") else {
                return .sandboxJSON(["signedIn": false, "reason": "ticket_missing"] as JSONValue)
            }
            switch await state.redeem(ticket: ticket, workflow: workflow) {
            case .signedIn(let session, let verification):
                return .sandboxJSON(
                    ["signedIn": true, "verificationId": .string(verification.id)] as JSONValue,
                    headers: [
                        "set-cookie": Self.cookie(cookie, session, path: cookiePath), "cache-control": "no-store",
                    ])
            case .askForMobileNumber(let reason):
                return .sandboxJSON(["signedIn": false, "reason": .string(reason)] as JSONValue)
            }
        }
        router.post("\(base)/sign-in") { request in
            let workflow = request.parameters["workflow"] ?? ""
            let form = request.form
            guard
                let signedIn = await state.signInWithMobile(
                    form.firstNonEmpty("mobile") ?? "", verificationID: form.firstNonEmpty("verification_id"),
                    ticket: form.firstNonEmpty("ticket"), workflow: workflow)
            else {
                return PrivuePages.signIn(
                    workflow: workflow, verificationID: form.firstNonEmpty("verification_id"),
                    message: "Enter the mobile number you registered with (6 to 15 digits).", status: 400)
            }
            return HTMLPage.seeOther(
                "/\(account)/\(URLQueryAppending.encode(workflow))",
                headers: ["set-cookie": Self.cookie(cookie, signedIn.browserSession, path: cookiePath)])
        }
        router.post("\(base)/submit") { request in
            let workflow = request.parameters["workflow"] ?? ""
            guard let token = request.cookie(cookie),
                let verification = await state.verification(forBrowserSession: token),
                verification.workflow == workflow
            else {
                return PrivuePages.signIn(
                    workflow: workflow, verificationID: nil, message: "Sign in to continue.", status: 401)
            }
            guard let status = request.form.first("status").flatMap(PrivueVerification.Status.init(rawValue:)),
                status.isSubmitted,
                let redirect = await state.submit(browserSession: token, status: status)
            else { return PrivuePages.journey(verification, message: "Choose an outcome.", status: 400) }
            return HTMLPage.seeOther(redirect)
        }
    }

    static func cookie(_ name: String, _ value: String, path: String) -> String {
        "\(name)=\(value); Path=\(path); HttpOnly; SameSite=Lax"
    }
}
