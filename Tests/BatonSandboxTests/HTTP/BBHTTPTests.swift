import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct BBHTTPTests {
    func createSession(_ harness: Harness, returnURL: String) async throws -> OutboundResponse {
        try await harness.json(
            .post, harness.sandbox.bbOrigin + "/v2/connect-sessions", headers: harness.bbAuth, ["returnUrl": returnURL])
    }

    @Test func unregisteredReturnURLIsAValidationError() async throws {
        try await Harness.run { harness in
            for url in ["https://evil.example/bb-callback", "otherapp://bb-callback", "https://app.example.com/other"] {
                let response = try await createSession(harness, returnURL: url)
                #expect(response.status == 400)
                #expect(try object(response)["error"] as? String == "validation_error")
            }
            let noBody = try await harness.send(
                .post, harness.sandbox.bbOrigin + "/v2/connect-sessions", headers: harness.bbAuth)
            #expect(try object(noBody)["error"] as? String == "validation_error")
        }
    }

    @Test(arguments: [
        ("Ok", nil as String?), ("Error", "consent_denied"), ("Cancelled", nil),
    ])
    func hostedFlowRedirectsToTheReturnURLAndTheStateAgrees(_ code: String, _ error: String?) async throws {
        try await Harness.run { harness in
            let returnURL = "https://app.example.com/bb-callback?app=1"
            let created = try await createSession(harness, returnURL: returnURL)
            #expect(created.status == 201)
            let body = try object(created)
            let sessionID = try #require(body["sessionId"] as? String)
            let hosted = try #require(body["hostedUrl"] as? String)
            #expect(hosted == "\(harness.sandbox.bbOrigin)/connect/\(sessionID)")

            let page = try await harness.send(.get, hosted)
            #expect(page.status == 200)
            #expect(page.bodyText.contains("data-page=\"bb-connect\""))
            #expect(page.bodyText.contains("value=\"Cancelled\""))

            var fields = [("resultCode", code)]
            if let error { fields.append(("error", error)) }
            let finished = try await harness.form(hosted + "/complete", fields)
            #expect(finished.status == 303)
            let location = try #require(finished.headers["location"])
            #expect(location.hasPrefix("\(returnURL)&sessionId=\(sessionID)&resultCode=\(code)"))
            let parsed = try #require(
                try ConnectReturnParser(registered: ["https://app.example.com/bb-callback"]).parse(location).accepted)
            #expect(parsed.sessionID == sessionID)
            #expect(parsed.resultCode.rawValue == code)
            #expect(parsed.error == error)
            #expect((parsed.connectionID != nil) == (code == "Ok"))

            let read = try await harness.send(
                .get, harness.sandbox.bbOrigin + "/v2/connect-sessions/\(sessionID)", headers: harness.bbAuth)
            let session = try object(read)
            #expect(session["status"] as? String == "completed")
            #expect(session["resultCode"] as? String == code)
            #expect(session["connectionId"] as? String == parsed.connectionID)
            #expect(session["error"] as? String == error)

            let revisit = try await harness.send(.get, hosted)
            #expect(revisit.status == 409)
            #expect(try await harness.form(hosted + "/complete", [("resultCode", "Ok")]).status == 409)
        }
    }

    @Test func customSchemeReturnAndExpiry() async throws {
        try await Harness.run { harness in
            let created = try object(try await createSession(harness, returnURL: "acmewallet://bb-callback"))
            let sessionID = try #require(created["sessionId"] as? String)
            #expect(
                created["expiresAt"] as? String == RFC3339.string(from: harness.clock.now.addingTimeInterval(30 * 60)))
            harness.clock.advance(by: 30 * 60)
            let read = try await harness.send(
                .get, harness.sandbox.bbOrigin + "/v2/connect-sessions/\(sessionID)", headers: harness.bbAuth)
            #expect(try object(read)["status"] as? String == "expired")
            let page = try await harness.send(.get, harness.sandbox.bbOrigin + "/connect/\(sessionID)")
            #expect(page.status == 410)
            let unknown = try await harness.send(
                .get, harness.sandbox.bbOrigin + "/v2/connect-sessions/cs_nope", headers: harness.bbAuth)
            #expect(unknown.status == 404)
            #expect(try object(unknown)["error"] as? String == "not_found")
        }
    }

    @Test func controlCompletesAJourneyHeadlessly() async throws {
        try await Harness.run { harness in
            let created = try object(try await createSession(harness, returnURL: "acmewallet://bb-callback"))
            let sessionID = try #require(created["sessionId"] as? String)
            let done = try await harness.json(
                .post, harness.sandbox.bbOrigin + "/_sandbox/journeys/\(sessionID)/complete",
                ["resultCode": "Error", "error": "bank_unavailable"])
            #expect(done.status == 200)
            let body = try object(done)
            #expect(
                body["redirectUrl"] as? String
                    == "acmewallet://bb-callback?sessionId=\(sessionID)&resultCode=Error&error=bank_unavailable")
            #expect(body["error"] as? String == "bank_unavailable")
            let again = try await harness.json(
                .post, harness.sandbox.bbOrigin + "/_sandbox/journeys/\(sessionID)/complete", ["resultCode": "Ok"])
            #expect(again.status == 409)
            let invalid = try await harness.json(
                .post, harness.sandbox.bbOrigin + "/_sandbox/journeys/\(sessionID)/complete", ["resultCode": "ok"])
            #expect(invalid.status == 400)
            let state = try await harness.state(harness.sandbox.bbOrigin)
            let sessions = try #require(state["connectSessions"] as? [[String: Any]])
            #expect(sessions.map { $0["sessionId"] as? String } == [sessionID])
        }
    }
}
