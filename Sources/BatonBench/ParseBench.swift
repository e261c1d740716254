import BatonCore
import Foundation

/// `BatonBench parse-links [SECONDS]`: return-link parsing rate on one thread, per parser, over a fixed mix of
/// returns and near-misses (the shapes a device delivers), printed as links per second.
enum ParseBench {
    static let connectLinks = [
        "https://app.example.com/bb-callback?sessionId=cs_AbCdEfGhIjKlMnOpQrStUvWx&resultCode=Ok&connectionId=conn_1",
        "acmewallet://bb-callback?sessionId=cs_AbCdEfGhIjKlMnOpQrStUvWx&resultCode=Cancelled",
        "https://app.example.com/bb-callback?sessionId=cs_x&resultCode=Error&error=access_denied%20by%2Buser",
        "https://APP.example.com:443/bb-callback?app=1&sessionId=cs_y&resultCode=ok",
        "https://evil.example/bb-callback?sessionId=cs_z&resultCode=Ok",
        "https://app.example.com/bb-callback#sessionId=cs_z&resultCode=Ok",
    ]
    static let verificationLinks = [
        "https://app.example.com/kyc/done?verification_id=ver_0123456789&status=approved",
        "https://app.example.com/kyc/done?status=pending",
        "http://app.example.com/kyc/done?verification_id=ver_1",
    ]
    static let genericLinks = [
        "https://partner.example/anything?x=1", "https://partner.example:8443/", "partner.example",
    ]

    static func run(seconds: Double) {
        do {
            let connect = try ConnectReturnParser(
                registered: ["https://app.example.com/bb-callback", "acmewallet://bb-callback"])
            let verification = try VerificationReturnParser(registered: ["https://app.example.com/kyc/done"])
            let generic = try GenericReturnParser(registeredHost: "partner.example")
            measure("connect", connectLinks, seconds) { connect.parse($0).accepted != nil }
            measure("verification", verificationLinks, seconds) { verification.parse($0).accepted != nil }
            measure("generic", genericLinks, seconds) { generic.parse($0).accepted != nil }
        } catch {
            print("parse-links: registration failed")
        }
    }

    private static func measure(_ name: String, _ links: [String], _ seconds: Double, _ parse: (String) -> Bool) {
        var parsed = 0
        var returns = 0
        let clock = ContinuousClock()
        let start = clock.now
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        while clock.now - start < budget {
            for _ in 0..<1000 {
                for link in links where parse(link) { returns += 1 }
                parsed += links.count
            }
        }
        let elapsed = clock.now - start
        let perSecond =
            Double(parsed) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        print("parse-links \(name): \(Int(perSecond)) links/s on one thread (\(parsed) parsed, \(returns) returns)")
    }
}
