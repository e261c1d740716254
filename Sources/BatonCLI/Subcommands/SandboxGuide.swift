import BatonCore
import BatonSandbox
import Foundation

/// What `baton sandbox` prints: where each simulator listens, its generated dev keys and secrets, and how to use
/// them. Printing its own development keys is the point of this dev tool.
enum SandboxGuide {
    static func text(_ sandbox: ProviderSandbox) -> String {
        let configuration = sandbox.configuration
        let chiaKey = configuration.chiaAPIKey.revealForUse()
        let privueKey = configuration.privueAPIKey.revealForUse()
        let bbKey = configuration.bbAPIKey.revealForUse()
        let bbClient = configuration.bbClientID.revealForUse()
        let privueReturn = configuration.privueReturnURLs.first?.string ?? "https://app.example.com/kyc/done"
        let bbReturn = configuration.bbReturnURLs.first?.string ?? "https://app.example.com/bb-callback"
        return """
            Baton provider sandbox — dev keys kept in the state folder (./.baton/secrets.json unless --state).

            Chia    \(sandbox.chiaOrigin)
                    API key         \(chiaKey)            (Authorization: Bearer)
            Privue  \(sandbox.privueOrigin)
                    API key         \(privueKey)            (Authorization: Bearer)
                    account         \(configuration.privueAccount)
                    webhook secret  \(configuration.privueWebhookSecret.value.revealForUse())
                    return URLs     \(configuration.privueReturnURLs.map(\.string).joined(separator: ", "))
                    webhooks to     \(configuration.privueWebhookURL ?? "(none: kept, see /_sandbox/webhooks)")
            BB      \(sandbox.bbOrigin)
                    API key         \(bbKey)            (X-Api-Key)
                    client id       \(bbClient)            (X-Client-Id)
                    webhook secret  \(configuration.bbWebhookSecret.value.revealForUse())
                    return URLs     \(configuration.bbReturnURLs.map(\.string).joined(separator: ", "))
                    webhooks to     \(configuration.bbWebhookURL ?? "(none: kept, see /_sandbox/webhooks)")

            Point a backend at it: use each origin as that provider's base URL, with the keys, client id and
            webhook secrets above (examples/baton-with-sandbox.json does, with the default ports; restart with
            --env-file baton.env and load it with `set -a; . ./baton.env; set +a`). Journey URLs are http://127.0.0.1 URLs: a backend or app accepts them only in
            sandbox mode (BatonCore URLPolicy.development). To receive webhooks, restart with
            --privue-webhook/--bb-webhook, or:
              curl -X PUT \(sandbox.bbOrigin)/_sandbox/webhooks/target -d '{"url":"http://127.0.0.1:8080/webhooks/bb"}'

            Try a BB connect session:
              curl -s -X POST \(sandbox.bbOrigin)/v2/connect-sessions -H 'X-Api-Key: \(bbKey)' \\
                -H 'X-Client-Id: \(bbClient)' -H 'Content-Type: application/json' -d '{"returnUrl":"\(bbReturn)"}'
              open the hostedUrl in a browser, finish it, then compare the redirect with
              curl -s \(sandbox.bbOrigin)/v2/connect-sessions/SESSION_ID -H 'X-Api-Key: \(bbKey)' -H 'X-Client-Id: \(bbClient)'
            Privue: POST \(sandbox.privueOrigin)/verifications {"user_ref","workflow"} (returns to \(privueReturn)).
            Control (no key, loopback only): /_sandbox/state, /_sandbox/requests, /_sandbox/faults, /_sandbox/reset,
              /_sandbox/journeys/ID/complete — see docs/CONTRACTS.md §4.

            Ctrl-C to stop.
            """
    }

    static func json(_ sandbox: ProviderSandbox) -> String {
        let configuration = sandbox.configuration
        let object: JSONValue = [
            "chia": [
                "origin": .string(sandbox.chiaOrigin), "apiKey": .string(configuration.chiaAPIKey.revealForUse()),
            ],
            "privue": [
                "origin": .string(sandbox.privueOrigin), "apiKey": .string(configuration.privueAPIKey.revealForUse()),
                "account": .string(configuration.privueAccount),
                "webhookSecret": .string(configuration.privueWebhookSecret.value.revealForUse()),
                "returnUrls": .array(configuration.privueReturnURLs.map { .string($0.string) }),
            ],
            "bb": [
                "origin": .string(sandbox.bbOrigin), "apiKey": .string(configuration.bbAPIKey.revealForUse()),
                "clientId": .string(configuration.bbClientID.revealForUse()),
                "webhookSecret": .string(configuration.bbWebhookSecret.value.revealForUse()),
                "returnUrls": .array(configuration.bbReturnURLs.map { .string($0.string) }),
            ],
        ]
        // Written by the one JSON writer, keys sorted: it cannot fail.
        return object.sortingKeys.rendered
    }
}
