import Foundation
import Testing

@testable import BatonCore

/// Each type of `BatonCore/API` reads back exactly what it writes, through the decoder the app uses; the request
/// types also through the server's strict reader.
@Suite("App-facing API bodies")
struct APIBodyTests {
    static let journey = SensitiveURL("https://journey.example/s/phs_1?x=1#ticket=t%2Fu")!

    private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        try RFC3339.jsonDecoder().decode(type, from: Data(bytes))
    }

    @Test func handoffSessionRoundTripsWithTheURLByteForByte() throws {
        let session = HandoffSession(url: Self.journey, expiresAt: Date(timeIntervalSince1970: 1_780_000_000))
        let text = String(decoding: session.jsonBody, as: UTF8.self)
        #expect(
            text == #"{"expiresAt":"2026-05-28T20:26:40Z","url":"https://journey.example/s/phs_1?x=1#ticket=t%2Fu"}"#)
        #expect(try decode(HandoffSession.self, session.jsonBody) == session)
    }

    @Test func verificationBodiesRoundTrip() throws {
        let handoff = VerificationHandoff(url: Self.journey, expiresInSeconds: 300)
        #expect(try decode(VerificationHandoff.self, handoff.jsonBody) == handoff)
        let state = VerificationState(verificationID: "ver_1", status: VerificationStatus(rawValue: "in_progress"))
        #expect(
            String(decoding: state.jsonBody, as: UTF8.self) == #"{"status":"in_progress","verificationId":"ver_1"}"#)
        #expect(try decode(VerificationState.self, state.jsonBody) == state)
    }

    @Test(arguments: [
        ConnectCallback.https(host: "app.example.com", path: "/bb-callback"), .customScheme("acmewallet"),
    ])
    func connectSessionRoundTripsWithItsCallback(callback: ConnectCallback) throws {
        let session = ConnectSession(sessionID: "cs_1", hostedURL: Self.journey, callback: callback)
        let decoded = try decode(ConnectSession.self, session.jsonBody)
        #expect(decoded == session)
        #expect(decoded.callbackKind == callback.kind)
    }

    @Test func connectSessionAcceptsABareCallbackKindAndRefusesAnEmptyID() throws {
        let bare = #"{"callback":"custom-scheme","hostedUrl":"https://h.example/c","sessionId":"cs_1"}"#
        let session = try decode(ConnectSession.self, Array(bare.utf8))
        #expect(session.callbackKind == .customScheme && session.callback == nil)
        let empty = #"{"callback":"https","hostedUrl":"https://h.example/c","sessionId":""}"#
        #expect(throws: DecodingError.self) { try decode(ConnectSession.self, Array(empty.utf8)) }
    }

    @Test(arguments: ConnectSessionState.Status.allCases)
    func connectSessionStateRoundTripsAndLeavesAbsentMembersOut(status: ConnectSessionState.Status) throws {
        let bare = ConnectSessionState(sessionID: "cs_1", status: status)
        #expect(String(decoding: bare.jsonBody, as: UTF8.self) == #"{"sessionId":"cs_1","status":"\#(status)"}"#)
        #expect(try decode(ConnectSessionState.self, bare.jsonBody) == bare)
        let full = ConnectSessionState(sessionID: "cs_1", status: status, connectionID: "conn_1", error: "e")
        #expect(try decode(ConnectSessionState.self, full.jsonBody) == full)
    }

    @Test func requestBodiesRoundTripThroughTheStrictReader() throws {
        let share = ShareRequestBody(
            catalogItemId: "item-1", disclosureVersion: "v3", affirmedAt: "2026-03-01T12:00:00Z")
        #expect(
            String(decoding: share.jsonBody, as: UTF8.self)
                == #"{"affirmed":true,"affirmedAt":"2026-03-01T12:00:00Z","catalogItemId":"item-1","disclosureVersion":"v3"}"#
        )
        #expect(ShareRequestBody(json: share.jsonBody) == share)
        #expect(try decode(ShareRequestBody.self, share.jsonBody) == share)
        #expect(
            VerificationHandoffRequest(json: VerificationHandoffRequest(workflow: "kyc").jsonBody)?.workflow == "kyc")
        for kind in ConnectCallback.Kind.allCases {
            #expect(
                ConnectSessionRequest.read(json: ConnectSessionRequest(callback: kind).jsonBody)
                    == .request(.init(callback: kind)))
        }
        #expect(ConnectSessionRequest.read(json: Array(#"{"callback":"http"}"#.utf8)) == .unknownKind)
        #expect(ConnectSessionRequest.read(json: Array(#"{"callback":"https","x":1}"#.utf8)) == .malformed)
    }

    @Test func verificationStatusesSettleForTheAppBeforeTheyAreFinalForTheBackend() {
        for raw in VerificationStatus.inProgressValues {
            #expect(!VerificationStatus(rawValue: raw).isSettled && !VerificationStatus(rawValue: raw).isFinal)
        }
        for raw in VerificationStatus.finalValues { #expect(VerificationStatus(rawValue: raw).isSettled) }
        let submitted = VerificationStatus(rawValue: "submitted")
        #expect(submitted.isSettled && !submitted.isFinal)
    }

    @Test func problemCodesAreTheirWireStrings() {
        #expect(ProblemCode.projectionChanged.rawValue == "projection_changed")
        #expect(ProblemCode.requestHeaderFieldsTooLarge.rawValue == "request_header_fields_too_large")
    }
}
