import BatonCore
import BatonHTTP
import Foundation

/// Privue (seed 001): `POST /v2/verification-handoffs` and `GET /v2/verifications/{workflow}`.
///
/// The verification is created once per user and workflow (Privue is create-or-get per `user_ref` + `workflow`);
/// every handoff request asks Privue for a fresh single-use URL at that moment and never stores or reuses it. The
/// status answer polls Privue (bounded retries with backoff) and falls back to what webhooks stored when Privue
/// cannot be reached; stored updates are ordered by Privue's own `updated_at`, so a late webhook or poll never
/// rolls a status back.
struct VerificationService: Sendable {
    let store: any Store
    let privue: PrivueClient
    let workflows: Set<String>
    let returnURL: String
    let now: @Sendable () -> Date

    func createHandoff(_ request: HTTPRequest) async throws -> HTTPResponse {
        let user = try request.authenticatedUser()
        guard let workflow = VerificationHandoffRequest(json: request.body)?.workflow else {
            throw BackendProblem.invalidRequest("The body must be exactly {\"workflow\": \"…\"}.")
        }
        guard workflows.contains(workflow) else { throw BackendProblem.unknownWorkflow }
        let stored = try await store.latestVerification(user: user.id, workflow: workflow)
        let verification: VerificationRecord
        if let stored { verification = stored } else { verification = try await createVerification(user, workflow) }
        var handoff = try await privue.createHandoff(verificationID: verification.id)
        // Privue no longer knows the stored verification (another environment's, or an account reset): creating is
        // idempotent per user and workflow (seed 001), so ask again for the user's verification and hand that off.
        if stored != nil, case .rejected(let rejection) = handoff, rejection.status == 404 {
            handoff = try await privue.createHandoff(
                verificationID: try await createVerification(user, workflow).id)
        }
        switch handoff {
        case .success(let handoff):
            return HTTPResponse(
                status: 200,
                headers: ["content-type": "application/json", "cache-control": "no-store", "pragma": "no-cache"],
                body: VerificationHandoff(url: handoff.url, expiresInSeconds: handoff.expiresInSeconds).jsonBody)
        case .rejected: throw BackendProblem.providerRejected
        case .unavailable(let failure): throw BackendProblem.providerUnavailable(failure)
        }
    }

    func status(_ request: HTTPRequest) async throws -> HTTPResponse {
        let user = try request.authenticatedUser()
        guard let workflow = request.parameters["workflow"], workflows.contains(workflow),
            var verification = try await store.latestVerification(user: user.id, workflow: workflow)
        else { throw BackendProblem.notFound }
        if !verification.status.isFinal,
            case .success(let state) = try await privue.verification(id: verification.id), state.id == verification.id,
            let updated = try await store.updateVerification(
                id: verification.id, status: VerificationStatus(rawValue: state.status),
                updatedAt: state.updatedAt ?? now())
        {
            verification = updated
        }
        let state = VerificationState(
            verificationID: verification.id, status: verification.status)
        return HTTPResponse(
            status: 200, headers: ["content-type": "application/json", "cache-control": "no-store"],
            body: state.jsonBody)
    }

    /// Asks Privue for the user's verification in `workflow` (idempotent there per user and workflow) and stores it.
    private func createVerification(_ user: AuthenticatedUser, _ workflow: String) async throws -> VerificationRecord {
        switch try await privue.createVerification(userRef: user.id, workflow: workflow, returnURL: returnURL) {
        case .success(let state):
            let created = now()
            let record = VerificationRecord(
                id: state.id, user: user.id, workflow: workflow, status: VerificationStatus(rawValue: state.status),
                createdAt: created,
                updatedAt: state.updatedAt ?? Date(timeIntervalSince1970: 0))
            if try await store.createVerification(record) { return record }
            // A concurrent request stored it first (Privue handed both the same id).
            guard let stored = try await store.verification(id: state.id, user: user.id) else {
                throw BackendProblem.notFound
            }
            return stored
        case .rejected: throw BackendProblem.providerRejected
        case .unavailable(let failure): throw BackendProblem.providerUnavailable(failure)
        }
    }
}
