package baton.client

/**
 * A journey URL (BB `hostedUrl`, Privue handoff, Chia `phs_…`): short-lived and sensitive. Its `toString` is
 * redacted so it cannot reach a log or a crash report by accident; only a presenter calls [reveal]. Never persisted.
 */
class SensitiveUrl(private val value: String) {
    /** The URL, for the one component that opens it. */
    fun reveal(): String = value

    override fun toString(): String = "<journey URL redacted>"
    override fun equals(other: Any?) = other is SensitiveUrl && other.value == value
    override fun hashCode() = value.hashCode()
}

/** Whether a failed backend request may be retried (network, 5xx) or not (any other 4xx). */
enum class RequestFailure(val wire: String) { RETRYABLE("retryable"), DEFINITIVE("definitive") }

/** How long and how often a flow asks the backend for the outcome after the browser is gone (seconds, at least 1). */
class PollingPolicy(intervalSeconds: Long = 2, timeoutSeconds: Long = 60) {
    val intervalMillis: Long = maxOf(1L, intervalSeconds) * 1000
    val timeoutMillis: Long = maxOf(1L, timeoutSeconds) * 1000
}

/** One bounded polling run: when the next request is due and when to give up (BatonClient `PollSchedule`). */
class PollSchedule(startMillis: Long, policy: PollingPolicy) {
    /** When polling gives up. */
    val deadline: Long = startMillis + policy.timeoutMillis
    private var requestInFlight = true
    private var nextRequestAt: Long? = null

    /** A non-final answer (or retryable failure) arrived: the time of the next tick to schedule. */
    fun answerArrived(nowMillis: Long, policy: PollingPolicy): Long {
        requestInFlight = false
        val next = minOf(nowMillis + policy.intervalMillis, deadline)
        nextRequestAt = next
        return next
    }

    /** What a tick at [nowMillis] means: `WAIT`, `REQUEST` (now in flight) or `TIMED_OUT`. */
    fun tick(nowMillis: Long): TickOutcome {
        if (nowMillis >= deadline) return TickOutcome.TIMED_OUT
        val due = nextRequestAt
        if (requestInFlight || due == null || nowMillis < due) return TickOutcome.WAIT
        requestInFlight = true
        nextRequestAt = null
        return TickOutcome.REQUEST
    }

    enum class TickOutcome { WAIT, REQUEST, TIMED_OUT }
}
