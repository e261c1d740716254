/// A Privue verification return link (seed 001): renders a landing screen, never proves the outcome.
public struct VerificationReturn: Sendable, Hashable {
    /// The verification the redirect names (opaque, decoded once).
    public let verificationID: String
    /// The redirect's `status`, a landing-screen hint only; `nil` when absent or empty.
    public let statusHint: String?

    /// Creates a verification return.
    public init(verificationID: String, statusHint: String?) {
        self.verificationID = verificationID
        self.statusHint = statusHint
    }
}
