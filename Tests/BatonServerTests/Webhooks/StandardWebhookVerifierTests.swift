import BatonCore
import Foundation
import Testing

@testable import BatonServer

@Suite struct StandardWebhookVerifierTests {
    // The Standard Webhooks reference example: secret, id, timestamp, body and signature from the specification's
    // test suite, so a sender written elsewhere and this verifier agree.
    let verifier = StandardWebhookVerifier(
        key: Secret(bytes: Array(Data(base64Encoded: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")!)))
    let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    let timestamp = "1614265330"
    let body = Array(#"{"test": 2432232314}"#.utf8)
    let reference = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    var now: Date { Date(timeIntervalSince1970: 1_614_265_330) }

    @Test func theReferenceSignatureVerifies() throws {
        #expect(verifier.signature(id: id, timestamp: timestamp, body: body) == reference)
        #expect(try verifier.verify(id: id, timestamp: timestamp, signatures: reference, body: body, now: now) == id)
    }

    @Test func anyOfSeveralSignaturesMayMatch() throws {
        let header = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= v2,xyz \(reference)"
        #expect(try verifier.verify(id: id, timestamp: timestamp, signatures: header, body: body, now: now) == id)
    }

    @Test func aChangedBodyIsRejected() {
        #expect(throws: WebhookRejection.signatureMismatch) {
            try verifier.verify(
                id: id, timestamp: timestamp, signatures: reference, body: body + [0x20], now: now)
        }
    }

    @Test func aChangedIdIsRejected() {
        #expect(throws: WebhookRejection.signatureMismatch) {
            try verifier.verify(id: id + "x", timestamp: timestamp, signatures: reference, body: body, now: now)
        }
    }

    @Test(arguments: [-301.0, 301.0])
    func timestampsOutsideToleranceAreRejectedInBothDirections(offset: TimeInterval) {
        #expect(throws: WebhookRejection.timestampOutOfTolerance) {
            try verifier.verify(
                id: id, timestamp: timestamp, signatures: reference, body: body, now: now.addingTimeInterval(offset))
        }
    }

    @Test func theToleranceEdgeIsAccepted() throws {
        #expect(
            try verifier.verify(
                id: id, timestamp: timestamp, signatures: reference, body: body, now: now.addingTimeInterval(300))
                == id)
    }

    @Test(
        arguments: [
            (nil, "1614265330", "v1,x", WebhookRejection.missingHeaders),
            ("msg", nil, "v1,x", .missingHeaders),
            ("msg", "1614265330", nil, .missingHeaders),
            ("msg", "1614265330.5", "v1,x", .malformedTimestamp),
            ("msg", "-1614265330", "v1,x", .malformedTimestamp),
            ("msg", "1614265330", "v1,not base64!", .signatureMismatch),
        ] as [(String?, String?, String?, WebhookRejection)])
    func malformedDeliveriesAreRejected(id: String?, timestamp: String?, signatures: String?, reason: WebhookRejection)
    {
        #expect(throws: reason) {
            try verifier.verify(id: id, timestamp: timestamp, signatures: signatures, body: body, now: now)
        }
    }
}
