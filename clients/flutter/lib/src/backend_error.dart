// BatonClient's BackendError and ProblemCode (Sources/BatonClient/Backend/BackendError.swift,
// Sources/BatonCore/API/ProblemCode.swift). The description never contains a URL, a token, a body or a header value.
import 'polling.dart';
import 'retry.dart';

/// The `code` of an `application/problem+json` answer (docs/CONTRACTS.md §2 "Problem codes"). A code this app does
/// not know is kept as it came ([rawValue]), so a newer backend does not break an older app.
class ProblemCode {
  const ProblemCode(this.rawValue);

  final String rawValue;

  static const idempotencyKeyInvalid = ProblemCode('idempotency_key_invalid');
  static const invalidRequest = ProblemCode('invalid_request');
  static const invalidTarget = ProblemCode('invalid_target');
  static const invalidFraming = ProblemCode('invalid_framing');
  static const invalidHeaderField = ProblemCode('invalid_header_field');
  static const unauthorized = ProblemCode('unauthorized');
  static const notLocal = ProblemCode('not_local');
  static const notFound = ProblemCode('not_found');
  static const unknownWorkflow = ProblemCode('unknown_workflow');
  static const methodNotAllowed = ProblemCode('method_not_allowed');
  static const projectionChanged = ProblemCode('projection_changed');
  static const handoffExpired = ProblemCode('handoff_expired');
  static const payloadTooLarge = ProblemCode('payload_too_large');
  static const uriTooLong = ProblemCode('uri_too_long');
  static const requestHeaderFieldsTooLarge = ProblemCode('request_header_fields_too_large');
  static const idempotencyKeyReused = ProblemCode('idempotency_key_reused');
  static const handoffRejected = ProblemCode('handoff_rejected');
  static const callbackUnavailable = ProblemCode('callback_unavailable');
  static const requestRejected = ProblemCode('request_rejected');
  static const providerRateLimited = ProblemCode('provider_rate_limited');
  static const rateLimited = ProblemCode('rate_limited');
  static const internalError = ProblemCode('internal_error');
  static const unsupportedTransferCoding = ProblemCode('unsupported_transfer_coding');
  static const providerUnavailable = ProblemCode('provider_unavailable');
  static const providerRejected = ProblemCode('provider_rejected');
  static const providerTimeout = ProblemCode('provider_timeout');
  static const requestInProgress = ProblemCode('request_in_progress');
  static const catalogUnavailable = ProblemCode('catalog_unavailable');
  static const serviceUnavailable = ProblemCode('service_unavailable');

  @override
  bool operator ==(Object other) => other is ProblemCode && other.rawValue == rawValue;

  @override
  int get hashCode => rawValue.hashCode;

  @override
  String toString() => rawValue;
}

/// Why no HTTP response arrived (the TypeScript shell's `ShareOutcome` transport names).
enum TransportFailure {
  connectionFailed('connect'),
  timedOut('timeout'),
  connectionReset('reset'),
  tlsFailure('tls');

  const TransportFailure(this.wire);
  final String wire;
}

/// What kind of failure a [BackendError] is.
enum BackendErrorKind {
  /// No HTTP response arrived.
  transport,

  /// A non-2xx response.
  http,

  /// A 2xx response whose body did not decode as the contract says.
  malformedResponse,

  /// The app has no token to send (signed out).
  notAuthenticated,
}

/// A failed call to the partner backend: its category, HTTP status and problem code, never the request itself.
class BackendError implements Exception {
  const BackendError.transport(TransportFailure this.transportFailure)
      : kind = BackendErrorKind.transport,
        status = null,
        problemCode = null,
        retryAfter = null;

  const BackendError.http(int this.status, this.problemCode, this.retryAfter)
      : kind = BackendErrorKind.http,
        transportFailure = null;

  const BackendError.malformedResponse()
      : kind = BackendErrorKind.malformedResponse,
        transportFailure = null,
        status = null,
        problemCode = null,
        retryAfter = null;

  const BackendError.notAuthenticated()
      : kind = BackendErrorKind.notAuthenticated,
        transportFailure = null,
        status = null,
        problemCode = null,
        retryAfter = null;

  final BackendErrorKind kind;
  final TransportFailure? transportFailure;

  /// The HTTP status, when a response arrived.
  final int? status;

  /// The problem+json `code`, when the response had one.
  final ProblemCode? problemCode;

  /// The `Retry-After` header as received.
  final String? retryAfter;

  /// The share-request outcome this failure amounts to, for [RetryDecision.classify].
  ShareOutcome get shareOutcome {
    switch (kind) {
      case BackendErrorKind.transport:
        return ShareOutcome.transport(transportFailure!.wire);
      case BackendErrorKind.http:
        return ShareOutcome.response(status!, retryAfter);
      case BackendErrorKind.malformedResponse:
        // A 2xx that did not decode may still have created the session: retrying unchanged is the safe reading.
        return ShareOutcome.transport(TransportFailure.connectionReset.wire);
      case BackendErrorKind.notAuthenticated:
        return const ShareOutcome.response(401, null);
    }
  }

  /// The coarse category the verification and connect machines use: a 401 ends polling like a rejection.
  RequestFailure get failure {
    final decision = RetryDecision.classify(shareOutcome, DateTime.fromMillisecondsSinceEpoch(0, isUtc: true));
    return decision.decision == 'retry' ? RequestFailure.retryable : RequestFailure.definitive;
  }

  @override
  String toString() {
    switch (kind) {
      case BackendErrorKind.transport:
        return 'backend unreachable (${transportFailure!.wire})';
      case BackendErrorKind.http:
        return 'backend answered $status${problemCode == null ? '' : ' ($problemCode)'}';
      case BackendErrorKind.malformedResponse:
        return 'backend response did not match the contract';
      case BackendErrorKind.notAuthenticated:
        return 'no app token available';
    }
  }
}
