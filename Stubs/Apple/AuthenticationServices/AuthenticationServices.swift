// Stub of AuthenticationServices (iOS 18 SDK declarations) for scripts/typecheck-apple; see Stubs/Apple/README.md.
// Never shipped.
import Foundation
import UIKit

@available(iOS 13.0, *)
public typealias ASPresentationAnchor = UIWindow

@available(iOS 13.0, *)
@MainActor public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

@available(iOS 12.0, *)
open class ASWebAuthenticationSession: NSObject {
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    @available(iOS 17.4, *)
    open class Callback: NSObject {
        open class func customScheme(_ customScheme: String) -> Self { fatalError() }
        open class func https(host: String, path: String) -> Self { fatalError() }
        open func matchesURL(_ url: URL) -> Bool { fatalError() }
    }

    public init(
        url URL: URL, callbackURLScheme: String?,
        completionHandler: @escaping ASWebAuthenticationSession.CompletionHandler
    ) { fatalError() }

    @available(iOS 17.4, *)
    public init(
        url URL: URL, callback: ASWebAuthenticationSession.Callback,
        completionHandler: @escaping ASWebAuthenticationSession.CompletionHandler
    ) { fatalError() }

    @available(iOS 13.0, *)
    weak open var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    @available(iOS 13.0, *)
    open var prefersEphemeralWebBrowserSession: Bool
    @available(iOS 13.4, *)
    open var canStart: Bool { fatalError() }
    open func start() -> Bool { fatalError() }
    open func cancel() { fatalError() }
}

@available(iOS 12.0, *)
public struct ASWebAuthenticationSessionError: Error, Hashable {
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        @available(iOS 13.0, *) case presentationContextNotProvided = 2
        @available(iOS 13.0, *) case presentationContextInvalid = 3
    }
    public init(_ code: ASWebAuthenticationSessionError.Code, userInfo: [String: Any] = [:]) { fatalError() }
    public var code: ASWebAuthenticationSessionError.Code { fatalError() }
    public static var canceledLogin: ASWebAuthenticationSessionError.Code { fatalError() }
    public static var presentationContextNotProvided: ASWebAuthenticationSessionError.Code { fatalError() }
    public static var presentationContextInvalid: ASWebAuthenticationSessionError.Code { fatalError() }
    public static func == (lhs: Self, rhs: Self) -> Bool { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
}
