import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct PrivueHTTPTests {
    func createVerification(_ harness: Harness, user: String = "user-1") async throws -> [String: Any] {
        let response = try await harness.json(
            .post, harness.sandbox.privueOrigin + "/verifications", headers: harness.privueAuth,
            ["user_ref": user, "workflow": "kyc"])
        #expect([200, 201].contains(response.status))
        return try object(response)
    }

    func handoff(_ harness: Harness, _ id: String) async throws -> (url: String, ticket: String) {
        let response = try await harness.send(
            .post, harness.sandbox.privueOrigin + "/verifications/\(id)/handoff", headers: harness.privueAuth)
        #expect(response.status == 201)
        #expect(response.headers["cache-control"] == "no-store")
        let body = try object(response)
        #expect(body["expires_in_seconds"] as? Int == 120)
        let url = try #require(body["url"] as? String)
        let ticket = try #require(url.split(separator: "#").last.map { String($0.dropFirst("ticket=".count)) })
        return (url, ticket)
    }

    func redeem(_ harness: Harness, _ ticket: String) async throws -> OutboundResponse {
        try await harness.json(.post, harness.sandbox.privueOrigin + "/acme/kyc/session", ["ticket": ticket])
    }

    static func cookie(_ response: OutboundResponse) -> String? {
        response.headers["set-cookie"].map { String($0.prefix { $0 != ";" }) }
    }

    @Test func creationIsIdempotentPerUserAndWorkflow() async throws {
        try await Harness.run { harness in
            let first = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/verifications", headers: harness.privueAuth,
                ["user_ref": "user-1", "workflow": "kyc"])
            #expect(first.status == 201)
            let again = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/verifications", headers: harness.privueAuth,
                ["user_ref": "user-1", "workflow": "kyc"])
            #expect(again.status == 200)
            let body = try object(first)
            let id = try #require(body["id"] as? String)
            #expect(try object(again)["id"] as? String == id)
            #expect(body["status"] as? String == "pending")
            #expect(body["journey_url"] as? String == "\(harness.sandbox.privueOrigin)/acme/kyc?verification_id=\(id)")
            let read = try await harness.send(
                .get, harness.sandbox.privueOrigin + "/verifications/\(id)", headers: harness.privueAuth)
            #expect(try object(read)["id"] as? String == id)
            let unregistered = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/verifications", headers: harness.privueAuth,
                ["user_ref": "user-2", "workflow": "kyc", "return_url": "acme://kyc/done"])
            #expect(unregistered.status == 400)
            #expect(try object(unregistered)["code"] as? String == "return_url_not_registered")
            let missing = try await harness.send(
                .post, harness.sandbox.privueOrigin + "/verifications/nope/handoff", headers: harness.privueAuth)
            #expect(missing.status == 404)
        }
    }

    @Test func hostedJourneyRedeemsTheTicketOnceAndRedirectsOnSubmit() async throws {
        try await Harness.run { harness in
            let id = try #require(try await createVerification(harness)["id"] as? String)
            let (url, ticket) = try await handoff(harness, id)
            #expect(url.hasPrefix(harness.sandbox.privueOrigin + "/acme/kyc#ticket="))
            #expect(ticket.count == 32)

            // What the browser loads (the fragment never reaches the server): the page with the redeeming script.
            let page = try await harness.send(.get, String(url.prefix { $0 != "#" }))
            #expect(page.status == 200)
            #expect(page.bodyText.contains("data-page=\"privue-sign-in\""))
            #expect(page.bodyText.contains("kyc/session"))

            // What the script does with the fragment.
            let redeemed = try await redeem(harness, ticket)
            #expect(try object(redeemed)["signedIn"] as? Bool == true)
            let cookie = try #require(Self.cookie(redeemed))
            #expect(redeemed.headers["set-cookie"]?.contains("HttpOnly") == true)
            let again = try await redeem(harness, ticket)
            #expect(again.status == 200)
            #expect(try object(again)["signedIn"] as? Bool == false)
            #expect(try object(again)["reason"] as? String == "ticket_used")

            let signedIn = try await harness.send(
                .get, harness.sandbox.privueOrigin + "/acme/kyc", headers: ["cookie": cookie])
            #expect(signedIn.bodyText.contains("data-page=\"privue-journey\""))
            let submitted = try await harness.form(
                harness.sandbox.privueOrigin + "/acme/kyc/submit", headers: ["cookie": cookie], [("status", "approved")]
            )
            #expect(submitted.status == 303)
            #expect(
                submitted.headers["location"]
                    == "https://app.example.com/kyc/done?verification_id=\(id)&status=approved")
            let parsed = try VerificationReturnParser(registered: ["https://app.example.com/kyc/done"])
                .parse(submitted.headers["location"] ?? "")
            #expect(parsed.accepted?.verificationID == id)

            let read = try await harness.send(
                .get, harness.sandbox.privueOrigin + "/verifications/\(id)", headers: harness.privueAuth)
            #expect(try object(read)["status"] as? String == "approved")
        }
    }

    @Test func expiredTicketAsksForTheMobileNumberInstead() async throws {
        try await Harness.run { harness in
            let id = try #require(try await createVerification(harness)["id"] as? String)
            let (_, ticket) = try await handoff(harness, id)
            harness.clock.advance(by: 120)
            let late = try await redeem(harness, ticket)
            #expect(late.status == 200)
            #expect(try object(late)["signedIn"] as? Bool == false)
            #expect(try object(late)["reason"] as? String == "ticket_expired")

            let wrong = try await harness.form(
                harness.sandbox.privueOrigin + "/acme/kyc/sign-in", [("mobile", "12"), ("ticket", ticket)])
            #expect(wrong.status == 400)
            #expect(wrong.bodyText.contains("Mobile number"))
            let signIn = try await harness.form(
                harness.sandbox.privueOrigin + "/acme/kyc/sign-in", [("mobile", "+447700900123"), ("ticket", ticket)])
            #expect(signIn.status == 303)
            #expect(signIn.headers["location"] == "/acme/kyc")
            let cookie = try #require(Self.cookie(signIn))
            let journey = try await harness.send(
                .get, harness.sandbox.privueOrigin + "/acme/kyc", headers: ["cookie": cookie])
            #expect(journey.bodyText.contains("data-page=\"privue-journey\""))

            // The shareable journey_url works the same way: no ticket, mobile number.
            let shared = try await harness.send(.get, harness.sandbox.privueOrigin + "/acme/kyc?verification_id=\(id)")
            #expect(shared.bodyText.contains("name=\"verification_id\" value=\"\(id)\""))
        }
    }

    @Test func controlCompletesAJourneyHeadlessly() async throws {
        try await Harness.run { harness in
            let id = try #require(try await createVerification(harness)["id"] as? String)
            let done = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/_sandbox/journeys/\(id)/complete", ["status": "rejected"])
            #expect(done.status == 200)
            #expect(
                try object(done)["redirectUrl"] as? String
                    == "https://app.example.com/kyc/done?verification_id=\(id)&status=rejected")
            let bad = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/_sandbox/journeys/\(id)/complete", ["status": "pending"])
            #expect(bad.status == 400)
            let unknown = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/_sandbox/journeys/nope/complete", ["status": "approved"])
            #expect(unknown.status == 404)
            let state = try await harness.state(harness.sandbox.privueOrigin)
            let verifications = try #require(state["verifications"] as? [[String: Any]])
            #expect(verifications.first?["status"] as? String == "rejected")
        }
    }
}
