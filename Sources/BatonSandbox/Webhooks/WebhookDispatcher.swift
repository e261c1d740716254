import BatonCrypto
import BatonHTTP
import Foundation
import Synchronization

/// Delivers webhook events in the order they were raised, each retried with exponential backoff until the
/// receiver answers 2xx or the attempts run out. The event id is the same on every attempt; each attempt carries
/// its own `webhook-timestamp` and signature.
public final class WebhookDispatcher: WebhookEmitter {
    /// One event's delivery, as listed by `GET /_sandbox/webhooks`.
    public struct Delivery: Sendable, Hashable {
        /// Where a delivery stands.
        public enum State: String, Sendable, Hashable {
            /// Waiting for its turn or between attempts.
            case pending
            /// A receiver answered 2xx.
            case delivered
            /// Every attempt failed.
            case failed
            /// No target was configured when the event was raised; it is kept, not sent.
            case noTarget = "no_target"
        }

        /// One attempt.
        public struct Attempt: Sendable, Hashable {
            /// When it was made.
            public let at: Date
            /// The receiver's status, when it answered.
            public let status: Int?
            /// The transport failure (`timedOut`, `connectFailed`, …), when it did not.
            public let error: String?
        }

        /// The event.
        public let event: WebhookEvent
        /// Where it stands.
        public internal(set) var state: State
        /// The attempts so far.
        public internal(set) var attempts: [Attempt] = []
    }

    private struct State {
        var target: String?
        var deliveries: [Delivery] = []
        /// Where each event's delivery is in `deliveries` (the first, should an id repeat), so recording an attempt
        /// does not scan every event raised so far.
        var positions: [String: Int] = [:]
        var tail: Task<Void, Never>?
        var generation = 0
    }

    private let secret: WebhookSecret
    private let transport: any HTTPTransport
    private let policy: WebhookRetryPolicy
    private let clock: SandboxClock
    private let state: Mutex<State>

    /// A dispatcher signing with `secret`, sending to `target` through `transport`.
    public init(
        secret: WebhookSecret, target: String?, transport: any HTTPTransport, policy: WebhookRetryPolicy,
        clock: SandboxClock
    ) {
        self.secret = secret
        self.transport = transport
        self.policy = policy
        self.clock = clock
        self.state = Mutex(State(target: target))
    }

    /// Where events raised from now on are delivered (`nil`: kept, not sent).
    public var target: String? {
        get { state.withLock { $0.target } }
        set { state.withLock { $0.target = newValue } }
    }

    /// Every event raised since the last reset, oldest first, with its delivery state.
    public func deliveries() -> [Delivery] { state.withLock { $0.deliveries } }

    public func emit(_ event: WebhookEvent) {
        state.withLock { state in
            if state.positions[event.id] == nil { state.positions[event.id] = state.deliveries.count }
            guard let target = state.target else {
                state.deliveries.append(Delivery(event: event, state: .noTarget))
                return
            }
            state.deliveries.append(Delivery(event: event, state: .pending))
            let previous = state.tail
            let generation = state.generation
            state.tail = Task {
                await previous?.value
                await self.deliver(event, to: target, generation: generation)
            }
        }
    }

    /// Returns once every event raised so far has been delivered or has failed.
    public func waitUntilIdle() async {
        while true {
            let tail = state.withLock { $0.tail }
            await tail?.value
            if state.withLock({ $0.tail == tail }) { return }
        }
    }

    /// Forgets every event and cancels deliveries in progress.
    public func reset() {
        state.withLock { state in
            state.tail?.cancel()
            state.tail = nil
            state.deliveries = []
            state.positions = [:]
            state.generation += 1
        }
    }

    private func deliver(_ event: WebhookEvent, to target: String, generation: Int) async {
        for attempt in 1...max(1, policy.maxAttempts) {
            if Task.isCancelled { return }
            let timestamp = Int(clock.now().timeIntervalSince1970)
            var headers = HTTPHeaders(
                WebhookSigner.headers(secret: secret, id: event.id, timestamp: timestamp, body: event.body))
            headers.add("content-type", "application/json")
            headers.add("user-agent", "BatonSandbox-Webhooks/1")
            let request = OutboundRequest(
                method: .post, url: target, headers: headers, body: event.body, timeout: policy.attemptTimeout)
            let record: Delivery.Attempt
            var succeeded = false
            do {
                let response = try await transport.send(request)
                succeeded = (200..<300).contains(response.status)
                record = .init(at: clock.now(), status: response.status, error: nil)
            } catch let error as TransportError {
                record = .init(at: clock.now(), status: nil, error: error.kind.rawValue)
            } catch is CancellationError {
                return  // reset or shutdown
            } catch {
                record = .init(at: clock.now(), status: nil, error: "other")
            }
            let isLast = attempt >= policy.maxAttempts
            update(event.id, generation: generation) { delivery in
                delivery.attempts.append(record)
                if succeeded { delivery.state = .delivered } else if isLast { delivery.state = .failed }
            }
            if succeeded || isLast { return }
            do { try await policy.sleep(policy.delay(afterAttempt: attempt)) } catch { return }
        }
    }

    private func update(_ id: String, generation: Int, _ change: (inout Delivery) -> Void) {
        state.withLock { state in
            guard state.generation == generation,
                let index = state.positions[id]
            else { return }
            change(&state.deliveries[index])
        }
    }
}
