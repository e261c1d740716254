/// The one error BatonCrypto throws: a stable code and a generic message, never key or message bytes.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable machine-readable value.
    public enum Code: String, Sendable, Hashable {
        /// A key had the wrong length for the algorithm.
        case invalidKeySize = "invalid_key_size"
        /// A sealed box was too short, or its tag, nonce, ciphertext or associated data did not authenticate.
        case authenticationFailed = "authentication_failed"
        /// The system random generator could not produce bytes.
        case randomUnavailable = "random_unavailable"
        /// libcrypto reported an internal failure.
        case libraryFailure = "library_failure"
    }

    /// The stable code.
    public let code: Code

    /// Creates an error with `code`.
    public init(_ code: Code) { self.code = code }

    public var description: String {
        switch code {
        case .invalidKeySize: "CryptoError(invalid_key_size): the key has the wrong length"
        case .authenticationFailed: "CryptoError(authentication_failed): the sealed data did not authenticate"
        case .randomUnavailable: "CryptoError(random_unavailable): no secure random bytes available"
        case .libraryFailure: "CryptoError(library_failure): libcrypto reported a failure"
        }
    }
}
