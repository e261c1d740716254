/// A pure journey-flow machine as its coordinator drives it: events in, actions out, and the screen for its state.
protocol JourneyFlowMachine: Sendable {
    /// What happened.
    associatedtype Event: JourneyFlowEvent
    /// What the coordinator must do.
    associatedtype Action: Sendable
    /// What the app shows.
    associatedtype Screen: Sendable

    /// The screen for the current state.
    var screen: Screen { get }

    /// Handles `event` and returns the actions to perform, in order.
    mutating func handle(_ event: Event) -> [Action]
}

extension VerificationMachine: JourneyFlowMachine {}
extension ConnectMachine: JourneyFlowMachine {}
