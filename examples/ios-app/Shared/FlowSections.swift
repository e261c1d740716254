import BatonApple
import BatonClient
import BatonCore
import SwiftUI

/// The Chia card: the reference view renders the plan the screen asks for; taps go to the coordinator.
struct CatalogCardSection: View {
    let card: CatalogCard
    let chia: ChiaHandoffCoordinator
    @State private var screen = ChiaScreen(content: .card)
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        ChiaHandoffCardView(screen: screen, card: card) { action in
            Task {
                switch action {
                case .callToAction: await chia.callToActionTapped()
                case .share: await chia.shareTapped()
                case .continueWithoutSharing: await chia.continueTapped()
                }
            }
        }
        .task { for await next in chia.screens { screen = next } }
        .onChange(of: scenePhase) { phase in
            Task { phase == .active ? await chia.foregrounded() : await chia.backgrounded() }
        }
    }
}

/// Privue: Verify opens the camera web view; the screen says what the backend answered.
struct VerificationSection: View {
    let verification: VerificationCoordinator
    @State private var screen = VerificationScreen.ready
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Button("Verify your business") { Task { await verification.verifyTapped() } }
            Text(Self.describe(screen))
        }
        .task { for await next in verification.screens { screen = next } }
        .onChange(of: scenePhase) { phase in
            Task { phase == .active ? await verification.foregrounded() : await verification.backgrounded() }
        }
    }

    static func describe(_ screen: VerificationScreen) -> String {
        switch screen {
        case .ready: "Not started."
        case .opening: "Opening…"
        case .inJourney: "In the verification."
        case .couldNotStart(let failure): "Could not start (\(failure)). Try again."
        case .confirming: "Checking with the backend…"
        case .settled(let status): "Verification: \(status)."
        case .checkLater: "Still being checked. Look again later."
        }
    }
}

/// BB: Connect opens the authentication sheet; the screen says what the backend answered.
struct ConnectSection: View {
    let connect: ConnectCoordinator
    @State private var screen = ConnectScreen.ready
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Button("Connect your bank") { Task { await connect.connectTapped() } }
            Text(Self.describe(screen))
        }
        .task { for await next in connect.screens { screen = next } }
        .onChange(of: scenePhase) { phase in
            Task { phase == .active ? await connect.foregrounded() : await connect.backgrounded() }
        }
    }

    static func describe(_ screen: ConnectScreen) -> String {
        switch screen {
        case .ready: "Not connected."
        case .starting: "Starting…"
        case .inBrowser: "At your bank."
        case .couldNotStart(let failure): "Could not start (\(failure)). Try again."
        case .confirming: "Checking with the backend…"
        case .cancelled: "Closed before the end. Connect again when you are ready."
        case .connected: "Connected."
        case .failed: "The bank could not connect."
        case .expired: "The session expired. Connect again."
        case .checkLater: "Still being checked. Look again later."
        }
    }
}
