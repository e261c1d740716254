// Must be rejected: the two-argument `onChange(of:initial:_:)` needs iOS 17, and this package supports iOS 16. Linux
// does not enforce `@available(iOS 17, *)`, so the stub leaves the iOS 17 forms out and only the iOS 14 form,
// `onChange(of:perform:)`, type-checks.
#if BATON_APPLE_STUBS
import SwiftUI

struct PhaseWatcher: View {
    let phase: Int
    var body: some View {
        Color.clear.onChange(of: phase) { _, newPhase in print(newPhase) }
    }
}
#endif
