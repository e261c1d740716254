extension TelemetryEvent {
    /// The name of each case, without its payload.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        /// ``TelemetryEvent/projectionRendered(_:)``.
        case projectionRendered
        /// ``TelemetryEvent/actionTapped(_:_:)``.
        case actionTapped
        /// ``TelemetryEvent/duplicateTapJoined(_:)``.
        case duplicateTapJoined
        /// ``TelemetryEvent/requestFinished(_:_:)``.
        case requestFinished
        /// ``TelemetryEvent/browserOpened(_:_:)``.
        case browserOpened
        /// ``TelemetryEvent/browserClosedWithoutReturn(_:)``.
        case browserClosedWithoutReturn
        /// ``TelemetryEvent/browserFailed(_:_:)``.
        case browserFailed
        /// ``TelemetryEvent/returnLinkAccepted(_:)``.
        case returnLinkAccepted
        /// ``TelemetryEvent/returnLinkIgnored(_:_:)``.
        case returnLinkIgnored
        /// ``TelemetryEvent/pendingAttempt(_:)``.
        case pendingAttempt
        /// ``TelemetryEvent/outcomeSettled(_:_:)``.
        case outcomeSettled
        /// ``TelemetryEvent/pollingTimedOut(_:)``.
        case pollingTimedOut
    }

    /// This event's case name (an exhaustive switch: a new case cannot be added without a name).
    public var name: Name {
        switch self {
        case .projectionRendered: .projectionRendered
        case .actionTapped: .actionTapped
        case .duplicateTapJoined: .duplicateTapJoined
        case .requestFinished: .requestFinished
        case .browserOpened: .browserOpened
        case .browserClosedWithoutReturn: .browserClosedWithoutReturn
        case .browserFailed: .browserFailed
        case .returnLinkAccepted: .returnLinkAccepted
        case .returnLinkIgnored: .returnLinkIgnored
        case .pendingAttempt: .pendingAttempt
        case .outcomeSettled: .outcomeSettled
        case .pollingTimedOut: .pollingTimedOut
        }
    }

    /// Every event that can exist: each case with every combination of its closed payloads.
    public static var allCases: [TelemetryEvent] {
        let flows = FlowKind.allCases
        return Name.allCases.flatMap { name -> [TelemetryEvent] in
            switch name {
            case .projectionRendered: ProjectionCategory.allCases.map { .projectionRendered($0) }
            case .actionTapped: flows.flatMap { flow in TappedAction.allCases.map { .actionTapped(flow, $0) } }
            case .duplicateTapJoined: flows.map { .duplicateTapJoined($0) }
            case .requestFinished: flows.flatMap { flow in RequestCategory.allCases.map { .requestFinished(flow, $0) } }
            case .browserOpened: flows.flatMap { flow in BrowserKind.allCases.map { .browserOpened(flow, $0) } }
            case .browserClosedWithoutReturn: flows.map { .browserClosedWithoutReturn($0) }
            case .browserFailed: flows.flatMap { flow in BrowserKind.allCases.map { .browserFailed(flow, $0) } }
            case .returnLinkAccepted: flows.map { .returnLinkAccepted($0) }
            case .returnLinkIgnored:
                flows.flatMap { flow in IgnoredReturnReason.allCases.map { .returnLinkIgnored(flow, $0) } }
            case .pendingAttempt: PendingAttemptChange.allCases.map { .pendingAttempt($0) }
            case .outcomeSettled: flows.flatMap { flow in OutcomeCategory.allCases.map { .outcomeSettled(flow, $0) } }
            case .pollingTimedOut: flows.map { .pollingTimedOut($0) }
            }
        }
    }
}
