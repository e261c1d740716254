#if os(iOS) || os(visionOS) || BATON_APPLE_STUBS
import BatonClient
import BatonCore
import SwiftUI

/// The Chia handoff screen for one catalog item: ``CatalogRenderPlan/screen(_:card:)`` rendered, or nothing when the
/// item is hidden.
public struct ChiaHandoffCardView: View {
    private let plan: CatalogRenderPlan?
    private let perform: @MainActor (CatalogRenderPlan.Action) -> Void

    /// Renders `screen` for `card` (the card from `GET /v2/catalog`); `perform` receives the tapped action.
    public init(
        screen: ChiaScreen, card: CatalogCard, perform: @escaping @MainActor (CatalogRenderPlan.Action) -> Void
    ) {
        plan = CatalogRenderPlan.screen(screen, card: card)
        self.perform = perform
    }

    /// The plan, or nothing.
    public var body: some View {
        if let plan { CatalogRenderPlanView(plan, perform: perform) }
    }
}
#endif
