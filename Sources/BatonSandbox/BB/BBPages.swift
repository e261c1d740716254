import BatonHTTP

/// The pages of BB's hosted connect flow.
enum BBPages {
    /// The pending flow: a simulated bank choice ending in Ok, Error or Cancelled.
    static func connect(_ session: BBConnectSession) -> HTTPResponse {
        let action = "\(HTMLPage.escape(session.sessionID))/complete"
        return HTMLPage.response(
            title: "Connect your bank", brand: "BB",
            body: """
                <h1 data-page="bb-connect">Connect your bank</h1>
                <p>Sandbox Bank: no real credentials needed. Choose how this connection ends.</p>
                <form method="post" action="\(action)"><input type="hidden" name="resultCode" value="Ok">
                <button type="submit">Connect Sandbox Bank (Ok)</button></form>
                <form method="post" action="\(action)"><input type="hidden" name="resultCode" value="Error">
                <label for="error">Error</label>
                <select id="error" name="error"><option>bank_unavailable</option><option>consent_denied</option>
                <option>invalid_credentials</option></select>
                <button type="submit">Fail (Error)</button></form>
                <form method="post" action="\(action)"><input type="hidden" name="resultCode" value="Cancelled">
                <button type="submit">Cancel</button></form>
                """)
    }

    /// A page that ends the flow without a redirect (unknown, expired or finished session; bad form).
    static func message(_ text: String, status: Int) -> HTTPResponse {
        HTMLPage.response(
            title: "BB", brand: "BB", body: "<h1 data-page=\"bb-message\">\(HTMLPage.escape(text))</h1>", status: status
        )
    }

    static func completionFailure(_ error: BBState.CompletionError) -> HTTPResponse {
        switch error {
        case .notFound: message("This link is not valid.", status: 404)
        case .expired: message("This link has expired. Start again from the app.", status: 410)
        case .alreadyCompleted: message("This bank connection flow has already finished.", status: 409)
        }
    }
}
