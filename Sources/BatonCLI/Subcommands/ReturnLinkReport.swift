import BatonCore

/// The JSON object `baton parse-return` prints for a parse result (CONTRACTS §1), keys in the contract's order.
enum ReturnLinkReport {
    static func json(_ result: ReturnLinkResult<ConnectReturn>) -> JSONValue {
        switch result {
        case .accepted(let value):
            .object([
                .init("isReturn", .bool(true)), .init("sessionId", .string(value.sessionID)),
                .init("resultCode", .string(value.resultCode.rawValue)),
                .init("connectionId", .optional(value.connectionID)), .init("error", .optional(value.error)),
            ])
        case .rejected(let reason): rejected(reason)
        }
    }

    static func json(_ result: ReturnLinkResult<VerificationReturn>) -> JSONValue {
        switch result {
        case .accepted(let value):
            .object([
                .init("isReturn", .bool(true)), .init("verificationId", .string(value.verificationID)),
                .init("status", .optional(value.statusHint)),
            ])
        case .rejected(let reason): rejected(reason)
        }
    }

    static func json(_ result: ReturnLinkResult<GenericReturn>) -> JSONValue {
        switch result {
        case .accepted(let value):
            .object([.init("isReturn", .bool(true)), .init("route", .string(value.route.rawValue))])
        case .rejected(let reason): rejected(reason)
        }
    }

    private static func rejected(_ reason: ReturnLinkRejection) -> JSONValue {
        .object([.init("isReturn", .bool(false)), .init("reason", .string(reason.rawValue))])
    }

    /// Parses `url` for `flow` with the given registration and renders the report; throws ``UsageError`` when the
    /// flow or registration is invalid.
    static func parse(
        url: String, flow: String, registered: [String], registeredHost: String?
    ) throws(UsageError) -> JSONValue {
        do {
            switch flow {
            case "connect":
                guard registeredHost == nil else { throw UsageError("--registered-host is for --flow generic") }
                return json(try ConnectReturnParser(registered: registered).parse(url))
            case "verification":
                guard registeredHost == nil else { throw UsageError("--registered-host is for --flow generic") }
                return json(try VerificationReturnParser(registered: registered).parse(url))
            case "generic":
                guard registered.isEmpty else {
                    throw UsageError("--flow generic takes --registered-host, not --registered")
                }
                guard let registeredHost else { throw UsageError("--flow generic needs --registered-host") }
                return json(try GenericReturnParser(registeredHost: registeredHost).parse(url))
            default:
                throw UsageError("--flow must be connect, verification or generic")
            }
        } catch let error as ReturnURLRegistrationError {
            throw UsageError(registrationMessage(error.code, flow: flow))
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("unexpected error")
        }
    }

    private static func registrationMessage(_ code: ReturnURLRegistrationError.Code, flow: String) -> String {
        switch code {
        case .noneRegistered: "--flow \(flow) needs at least one --registered URL"
        case .notHTTPS: "--flow verification accepts only https return URLs (Privue rejects custom schemes)"
        case .unparseableURL: "a registered return URL or host is not a valid absolute URL"
        case .userinfoPresent: "a registered return URL must not contain userinfo"
        case .fragmentPresent: "a registered return URL must not contain a fragment"
        }
    }
}
