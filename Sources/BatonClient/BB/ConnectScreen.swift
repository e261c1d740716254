/// What the BB connect screen shows.
public enum ConnectScreen: Sendable, Hashable {
    /// The `Connect` action, usable.
    case ready
    /// Creating the connect session.
    case starting
    /// The authentication session sheet is open.
    case inBrowser
    /// The session could not be created (or not for a callback this device catches); `Connect` can be tapped again.
    case couldNotStart(RequestFailure)
    /// A return arrived (with `resultCode` as a hint, or ``ReturnHint/unknown``); asking the backend for the real
    /// outcome.
    case confirming(ReturnHint)
    /// The sheet was closed without a return: the cancelled path, while the backend is still asked.
    case cancelled
    /// The backend confirmed a connection.
    case connected
    /// The backend reports the flow failed.
    case failed
    /// The backend reports the session expired unfinished.
    case expired
    /// The backend did not settle in time: "check later", never a guess.
    case checkLater

    /// What the redirect claimed (a UX signal only).
    public enum ReturnHint: String, Sendable, Hashable, CaseIterable {
        /// `resultCode=Ok`.
        case ok
        /// `resultCode=Error`.
        case error
        /// `resultCode=Cancelled`.
        case cancelled
        /// No redirect: the app restarted with a session pending.
        case resumed
        /// A delivery without a result the app can use: the sheet handed back a link the parser refused (or one for
        /// another session), or a bare return URL arrived. Its data is ignored; the backend is asked all the same.
        case unknown
    }
}
