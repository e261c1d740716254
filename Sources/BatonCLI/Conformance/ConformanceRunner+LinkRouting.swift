import BatonClient
import BatonCore

extension ConformanceRunner {
    /// `link-routing.v1.json`: one case through ``BatonLinkRouter`` built from the file's registration; `nil` when it
    /// passes, otherwise why not.
    static func linkRouting(_ document: JSONValue) -> (JSONValue) -> String? {
        let registration = document["registration"]
        let strings: (JSONValue?) -> [String] = { value in
            if case .array(let values)? = value { return values.compactMap(\.stringValue) }
            return []
        }
        let router: (Bool) -> BatonLinkRouter? = { approved in
            do {
                let host = registration?["genericReturnHost"]?.stringValue
                return try BatonLinkRouter(
                    bankConnect: strings(registration?["bb"]).map { try RegisteredReturnURL($0) },
                    verification: strings(registration?["privue"]).map { try RegisteredReturnURL($0) },
                    genericReturn: approved ? host.map { try GenericReturnParser(registeredHost: $0) } : nil)
            } catch {
                return nil
            }
        }
        return { entry in
            guard let url = entry["url"]?.stringValue, let expected = entry["expect"] else {
                return "case lacks url or expect"
            }
            guard let router = router(entry["genericReturnApproved"] != .bool(false)) else {
                return "the file's registration was refused"
            }
            let actual: JSONValue =
                switch router.route(url) {
                case .bankConnect(let landing):
                    .object([.init("flow", .string("bb")), .init("landing", .bool(landing))])
                case .verification(let landing):
                    .object([.init("flow", .string("privue")), .init("landing", .bool(landing))])
                case .chiaGenericReturn: .object([.init("flow", .string("chia"))])
                case .none(let refusal): .object([.init("flow", .null), .init("reason", .string(refusal.rawValue))])
                }
            return actual == expected ? nil : "got \(actual.rendered)"
        }
    }
}
