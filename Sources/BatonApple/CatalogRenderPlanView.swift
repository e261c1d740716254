#if os(iOS) || os(visionOS) || BATON_APPLE_STUBS
import BatonClient
import BatonCore
import Foundation
import SwiftUI

/// A SwiftUI reference rendering of a ``CatalogRenderPlan`` (seed 000's catalog card and just-in-time disclosure):
/// every element in the plan's order, and nothing the plan does not say.
///
/// What the seed's mobile test matrix asks of it on iOS:
/// - Dynamic Type: every text uses a text style, wraps, and grows vertically (no line limit, no truncation); the
///   whole plan scrolls, so 200% text at the narrowest width keeps every word and every action.
/// - VoiceOver: the reading order is the plan's order (one element per plan element; a described term is read as one
///   element with its details); headings carry the header trait; the image speaks its alt text; focus moves to the
///   plan's ``CatalogRenderPlan/initialFocus`` (the disclosure heading) when the disclosure replaces the card after
///   the CTA, or is on screen when the view appears, as ``CatalogRenderPlan/focusMove(from:)`` decides: the view
///   stays the same while its plan changes, so `onAppear` alone would never see the disclosure arrive.
/// - Both actions equally usable: every action is the same bordered, full-width button, enabled as the plan says.
/// - Reduce Motion: no animation at all while it is on.
public struct CatalogRenderPlanView: View {
    private let plan: CatalogRenderPlan
    private let perform: @MainActor (CatalogRenderPlan.Action) -> Void
    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @AccessibilityFocusState private var focused: String?
    /// The plan last shown, for ``CatalogRenderPlan/focusMove(from:)``.
    @State private var shown: CatalogRenderPlan?

    /// Renders `plan`; `perform` receives the tapped action.
    public init(_ plan: CatalogRenderPlan, perform: @escaping @MainActor (CatalogRenderPlan.Action) -> Void) {
        self.plan = plan
        self.perform = perform
    }

    /// The plan's elements, top to bottom.
    public var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 12) {
                ForEach(plan.elements) { element in
                    row(element)
                        .fixedSize(horizontal: false, vertical: true)
                        .accessibilityFocused($focused, equals: element.id)
                }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        }
        .transaction { transaction in
            if reduceMotion { transaction.animation = nil }
        }
        .onAppear { show(plan) }
        .onChange(of: plan) { next in show(next) }  // the iOS 14–16 form: this package supports iOS 16
    }

    /// Moves focus as the plan change asks, and remembers the plan.
    private func show(_ next: CatalogRenderPlan) {
        if let target = next.focusMove(from: shown) { focused = target }
        shown = next
    }

    @ViewBuilder
    private func row(_ element: CatalogRenderPlan.Element) -> some View {
        switch element.kind {
        case .image(let url):
            AsyncImage(url: URL(string: url.string)) { image in
                image.resizable().scaledToFit()
            } placeholder: {
                Color.clear
            }
            .accessibilityLabel(Text(verbatim: element.accessibilityLabel))
        case .heading:
            Text(verbatim: element.text).font(.headline).accessibilityAddTraits(.isHeader)
        case .text:
            Text(verbatim: element.text).font(.body)
        case .described(let details):
            VStack(alignment: .leading, spacing: 4) {
                Text(verbatim: element.text).font(.subheadline)
                ForEach(details, id: \.self) { Text(verbatim: $0).font(.body) }
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(Text(verbatim: element.accessibilityLabel))
        case .links(let links):
            VStack(alignment: .leading, spacing: 4) {
                Text(verbatim: element.text).font(.subheadline)
                ForEach(links, id: \.label) { link in
                    if let destination = URL(string: link.url.string) {
                        Link(destination: destination) { Text(verbatim: link.label).font(.body) }
                    }
                }
            }
        case .action(let action, let enabled):
            Button {
                perform(action)
            } label: {
                Text(verbatim: element.text).font(.body).frame(maxWidth: .infinity)
            }
            .buttonStyle(.bordered)
            .disabled(!enabled)
            .accessibilityHint(Text(verbatim: element.accessibilityHint ?? ""))
        }
    }
}
#endif
