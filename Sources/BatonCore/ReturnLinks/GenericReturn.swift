/// A Chia generic return (seed 000): it always routes to marketplace home and says nothing about the journey.
public struct GenericReturn: Sendable, Hashable {
    /// Where a generic return goes: there is exactly one destination.
    public enum Route: String, Sendable, Hashable, Codable {
        /// The partner's marketplace home.
        case marketplaceHome = "marketplace-home"
    }

    /// Always ``Route/marketplaceHome``, whatever the journey did.
    public let route: Route

    /// The one generic return.
    public static let marketplaceHome = GenericReturn(route: .marketplaceHome)

    private init(route: Route) { self.route = route }
}
