/// The one handoff decision the app receives with a catalog card: seed 000's closed union, nothing more.
///
/// JSON is exactly seed 000's `MobileHandoff`: `mode` is `neutral_only` or `share_or_neutral`, the action labels and
/// `sessionCreationPath` are fixed literals and are not stored (they cannot be generalised). Decoding is strict:
/// an unknown `mode`, a changed literal, a non-`https` URL or any extra key anywhere inside the object throws a
/// `DecodingError` whose `DecodingError.fieldPath` names the field. Encoding round-trips.
public enum MobileHandoff: Sendable, Hashable, Codable {
    /// No sharing: one action that opens the neutral Chia page. No session-creation action exists.
    case neutralOnly(NeutralOnly)
    /// Share or not: two equally usable actions, with the just-in-time disclosure.
    case shareOrNeutral(ShareOrNeutral)

    /// `neutral_only`'s only action label.
    public static let continueLabel = "Continue to Chia"
    /// `share_or_neutral`'s primary action label.
    public static let shareLabel = "Share selection and continue"
    /// `share_or_neutral`'s secondary action label.
    public static let continueWithoutSharingLabel = "Continue without sharing"
    /// Where the app posts the share request on its partner backend.
    public static let sessionCreationPath = "/v2/handoff-sessions"

    /// The `mode` discriminator values.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
        /// `neutral_only`.
        case neutralOnly = "neutral_only"
        /// `share_or_neutral`.
        case shareOrNeutral = "share_or_neutral"
    }

    /// This handoff's mode.
    public var mode: Mode {
        switch self {
        case .neutralOnly: .neutralOnly
        case .shareOrNeutral: .shareOrNeutral
        }
    }

    enum ModeKey: String, CodingKey { case mode }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ModeKey.self)
        let modeText = try container.decode(String.self, forKey: .mode)
        switch Mode(rawValue: modeText) {
        case .neutralOnly: self = .neutralOnly(try NeutralOnly(from: decoder))
        case .shareOrNeutral: self = .shareOrNeutral(try ShareOrNeutral(from: decoder))
        case nil:
            throw DecodingError.dataCorruptedError(
                forKey: .mode, in: container,
                debugDescription: "unknown mode (expected neutral_only or share_or_neutral)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .neutralOnly(let value): try value.encode(to: encoder)
        case .shareOrNeutral(let value): try value.encode(to: encoder)
        }
    }
}
