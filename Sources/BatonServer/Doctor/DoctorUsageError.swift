/// A `baton doctor` option that cannot be used.
public struct DoctorUsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the option.
    public let message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}
