import BatonClient
import BatonCore
import SwiftUI

/// Signed out: a field for the sandbox's dev sign-in secret and a button per test user that signs them in against the
/// sandbox. Signed in: the catalog card, Verify, Connect your bank, and Sign out.
struct RootView: View {
    let inbox: LinkInbox
    @State private var session: BatonSession?
    @State private var problem: String?
    /// The dev sign-in secret `baton serve --sandbox` printed, as pasted; in memory only, never logged or stored.
    @State private var devSecret = ""

    var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 16) {
                if let session {
                    SignedInView(session: session) { await signOut(session) }
                } else {
                    Text("Baton sample: run `baton serve --sandbox --port 8080` on this Mac first.")
                    Text("Paste the dev sign-in secret it prints (also in its .baton/dev-sign-in-secret):")
                    SecureField("Dev sign-in secret", text: $devSecret)
                    Button("Sign in as test-user-1") { Task { await signIn(userID: "test-user-1") } }
                    Button("Sign in as test-user-2") { Task { await signIn(userID: "test-user-2") } }
                }
                if let problem { Text(problem) }
            }
        }
    }

    private func signIn(userID: String) async {
        do {
            let signedIn = try await BatonSession.signIn(userID: userID, devSecret: devSecret)
            session = signedIn
            problem = nil
            inbox.open { url in Task { await signedIn.deliver(url) } }
        } catch {
            problem = "Could not sign in: \(error)"
        }
    }

    private func signOut(_ signedIn: BatonSession) async {
        inbox.close()
        session = nil
        do {
            try await signedIn.signOut()
        } catch {
            problem = "Signed out, but Baton's files could not all be removed: \(error)"
        }
    }
}

/// The three flows for the signed-in user.
struct SignedInView: View {
    let session: BatonSession
    let signOut: @MainActor () async -> Void
    @State private var card: CatalogCard?
    @State private var chia: ChiaHandoffCoordinator?
    @State private var catalogProblem: String?

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text("Signed in as \(session.userID)").font(.headline)
            if let card, let chia {
                CatalogCardSection(card: card, chia: chia)
            } else if let catalogProblem {
                Text(catalogProblem)
            }
            VerificationSection(verification: session.verification)
            ConnectSection(connect: session.connect)
            Button("Sign out") { Task { await signOut() } }
        }
        .task {
            do {
                // The first card that offers a share (else the first card), with one coordinator while it is shown.
                guard card == nil else { return }
                let cards = try await session.backend.catalog()
                guard let shown = cards.first(where: Self.offersShare) ?? cards.first else { return }
                chia = session.chia(for: shown)
                card = shown
            } catch {
                catalogProblem = "The catalog could not be loaded: \(error)"
            }
        }
    }

    private static func offersShare(_ card: CatalogCard) -> Bool {
        if case .shareOrNeutral = card.handoff { true } else { false }
    }
}
