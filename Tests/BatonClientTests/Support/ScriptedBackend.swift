import BatonCore
import Foundation

@testable import BatonClient

/// A ``BackendClient`` that answers from scripts and records every call, in order.
actor ScriptedBackend: BackendClient {
    enum Call: Hashable {
        case catalog
        case createHandoffSession(PendingAttempt)
        case createVerificationHandoff(workflow: String)
        case verification(workflow: String)
        case createConnectSession(ConnectCallback.Kind)
        case connectSession(id: String)
    }

    private(set) var calls: [Call] = []
    var catalogAnswers: [Result<[CatalogCard], BackendError>] = []
    var shareAnswers: [Result<HandoffSession, BackendError>] = []
    var verificationHandoffAnswers: [Result<VerificationHandoff, BackendError>] = []
    var verificationAnswers: [Result<VerificationState, BackendError>] = []
    var connectAnswers: [Result<ConnectSession, BackendError>] = []
    var connectStateAnswers: [Result<ConnectSessionState, BackendError>] = []
    private var shareGate: [CheckedContinuation<Void, Never>]? = nil
    private var callWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func script(_ change: @Sendable (isolated ScriptedBackend) -> Void) { change(self) }

    /// Makes share requests wait until ``releaseShares()``.
    func holdShares() { shareGate = [] }

    func releaseShares() {
        let waiting = shareGate ?? []
        shareGate = nil
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once at least `count` calls were made.
    func waitForCalls(_ count: Int) async {
        if calls.count >= count { return }
        await withCheckedContinuation { callWaiters.append((count, $0)) }
    }

    private func record(_ call: Call) {
        calls.append(call)
        let ready = callWaiters.filter { $0.count <= calls.count }
        callWaiters.removeAll { $0.count <= calls.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    private func next<T>(_ answers: inout [Result<T, BackendError>]) throws(BackendError) -> T {
        guard !answers.isEmpty else { throw BackendError(.transport(.connectionFailed)) }
        return try answers.removeFirst().get()
    }

    func catalog() throws(BackendError) -> [CatalogCard] {
        record(.catalog)
        return try next(&catalogAnswers)
    }

    func createHandoffSession(_ attempt: PendingAttempt) async throws(BackendError) -> HandoffSession {
        record(.createHandoffSession(attempt))
        if shareGate != nil { await withCheckedContinuation { shareGate?.append($0) } }
        return try next(&shareAnswers)
    }

    func createVerificationHandoff(workflow: String) throws(BackendError) -> VerificationHandoff {
        record(.createVerificationHandoff(workflow: workflow))
        return try next(&verificationHandoffAnswers)
    }

    func verification(workflow: String) throws(BackendError) -> VerificationState {
        record(.verification(workflow: workflow))
        return try next(&verificationAnswers)
    }

    func createConnectSession(callback: ConnectCallback.Kind) throws(BackendError) -> ConnectSession {
        record(.createConnectSession(callback))
        return try next(&connectAnswers)
    }

    func connectSession(id: String) throws(BackendError) -> ConnectSessionState {
        record(.connectSession(id: id))
        return try next(&connectStateAnswers)
    }
}
