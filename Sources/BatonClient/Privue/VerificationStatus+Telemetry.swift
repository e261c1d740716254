import BatonCore

extension VerificationStatus {
    /// The telemetry category of a settled status.
    public var outcomeCategory: TelemetryEvent.OutcomeCategory {
        switch rawValue {
        case "rejected", "failed": .failure
        case "expired": .expired
        case "cancelled", "abandoned": .cancelled
        default: .success
        }
    }
}
