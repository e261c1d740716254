import SwiftUI

/// The SwiftUI variant: every URL the OS delivers (universal links and the custom scheme alike) arrives in
/// `onOpenURL`, goes to the inbox, and from there through `BatonLinkRouter` to its flow.
@main
struct SampleApp: App {
    private let inbox = LinkInbox()

    var body: some Scene {
        WindowGroup {
            RootView(inbox: inbox)
                .onOpenURL { url in inbox.receive(url) }
        }
    }
}
