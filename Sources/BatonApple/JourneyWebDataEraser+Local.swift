// A local copy of BatonClient's `JourneyWebDataEraser` (being added on main), deleted once main has it.
#if os(iOS) || os(visionOS) || BATON_APPLE_STUBS
/// Erases the web data a journey's in-app browser keeps, so the next user does not inherit it.
public protocol JourneyWebDataEraser: Sendable {
    /// Removes the data; returns once it is gone.
    func eraseJourneyWebData() async
}
#endif
