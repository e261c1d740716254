import BatonHTTP

/// The pages of Privue's hosted journey.
enum PrivuePages {
    /// The signed-in journey: the verification and the (sandbox) submit form.
    static func journey(
        _ verification: PrivueVerification, message: String? = nil, status: Int = 200
    )
        -> HTTPResponse
    {
        let submitted = verification.status.isSubmitted
        let options = PrivueVerification.Status.allCases.filter(\.isSubmitted).map { status in
            "<label><input type=\"radio\" name=\"status\" value=\"\(status.rawValue)\"\(status == .approved ? " checked" : "")> \(status.rawValue)</label><br>"
        }.joined()
        return HTMLPage.response(
            title: "Privue verification", brand: "Privue",
            body: """
                <h1 data-page="privue-journey">Verify your identity</h1>
                <p>Signed in. Workflow <code>\(HTMLPage.escape(verification.workflow))</code>,
                status <code data-status>\(HTMLPage.escape(verification.status.rawValue))</code>.</p>
                \(message.map { "<p role=\"alert\">\(HTMLPage.escape($0))</p>" } ?? "")
                <p>\(submitted ? "Already submitted; submitting again changes the sandbox outcome." : "The selfie, document and DigiLocker steps are simulated.")</p>
                <form method="post" action="\(HTMLPage.escape(verification.workflow))/submit">
                <fieldset><legend>Sandbox outcome</legend>\(options)</fieldset>
                <button type="submit">Submit</button></form>
                """, status: status)
    }

    /// Not signed in: redeem the `#ticket` if there is one, otherwise (or if it is used/expired) ask for the
    /// mobile number.
    static func signIn(
        workflow: String, verificationID: String?, message: String?, status: Int = 200
    )
        -> HTTPResponse
    {
        let escapedWorkflow = HTMLPage.escape(workflow)
        let hidden =
            verificationID.map {
                "<input type=\"hidden\" name=\"verification_id\" value=\"\(HTMLPage.escape($0))\">"
            } ?? ""
        return HTMLPage.response(
            title: "Privue verification", brand: "Privue",
            body: """
                <h1 data-page="privue-sign-in">Verify your identity</h1>
                <p id="signing-in"\(message == nil ? "" : " hidden")>Signing you in…</p>
                <form id="mobile" method="post" action="\(escapedWorkflow)/sign-in"\(message == nil ? " hidden" : "")>
                \(message.map { "<p role=\"alert\">\(HTMLPage.escape($0))</p>" } ?? "")
                <label for="mobile-number">Mobile number</label><br>
                <input id="mobile-number" name="mobile" type="tel" autocomplete="tel" required>
                \(hidden)<input type="hidden" name="ticket" id="stale-ticket" value="">
                <button type="submit">Continue</button></form>
                <script>
                (function () {
                  var match = /(?:^#|&)ticket=([^&]*)/.exec(location.hash);
                  var showForm = function () {
                    document.getElementById('signing-in').hidden = true;
                    document.getElementById('mobile').hidden = false;
                  };
                  if (!match) { showForm(); return; }
                  var ticket = decodeURIComponent(match[1]);
                  history.replaceState(null, '', location.pathname + location.search);
                  document.getElementById('stale-ticket').value = ticket;
                  fetch('\(escapedWorkflow)/session', {method: 'POST', credentials: 'same-origin',
                    headers: {'content-type': 'application/json'}, body: JSON.stringify({ticket: ticket})})
                    .then(function (r) { return r.json(); })
                    .then(function (body) { if (body.signedIn) { location.reload(); } else { showForm(); } })
                    .catch(showForm);
                })();
                </script>
                """, status: status)
    }
}
