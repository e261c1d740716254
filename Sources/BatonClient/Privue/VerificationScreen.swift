import BatonCore

/// What the Privue verification screen shows.
public enum VerificationScreen: Sendable, Hashable {
    /// The `Verify` action, usable.
    case ready
    /// Creating the handoff; the browser opens as soon as it exists.
    case opening
    /// The journey is open in the camera web view.
    case inJourney
    /// The handoff could not be created; `Verify` can be tapped again.
    case couldNotStart(RequestFailure)
    /// Asking the backend for the outcome; `landingHint` is the redirect's `status` (display only, not proof).
    case confirming(landingHint: String?)
    /// The backend reports `status`, settled.
    case settled(VerificationStatus)
    /// The backend did not report a settled status in time: "we'll let you know", never a guess.
    case checkLater
}
