"""App-side load for the fault checks: taps at a steady rate with the app's retry rules, every attempt recorded
with its time and latency, and the judgement of the taps against the idempotency table."""
import collections
import concurrent.futures
import http.client
import json
import threading
import time

from checks import RETRYABLE, _journey_urls
from harness import new_key, provider_key, request, retry_wait, share, share_body


def _pct(values, p):
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


# Set when the run is being stopped (SIGTERM from `timeout`): every tap gives up at its next attempt, so the
# interpreter is not held by worker threads still retrying against processes that are gone.
ABORT = threading.Event()


class Load:
    """Taps at a steady rate (one fresh key each, the app's retry rules, `workers` in flight) on the given ports,
    every attempt recorded with its time, latency and port, until `stop()`."""

    def __init__(self, ports, token, rate, workers=16):
        self.ports, self.token, self.rate = ports, token, rate
        self.pool = concurrent.futures.ThreadPoolExecutor(workers)
        self.futures, self.keys, self.attempts = [], [], []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.aborted = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _one(self, index, key):
        """One tap with the app's retry rules (as `_tap` in checks.py), each attempt recorded as it is answered:
        (start, seconds to the answer, answer, port)."""
        answers = []
        body = share_body()
        for attempt in range(400):
            if self.aborted.is_set() or ABORT.is_set():
                return None, answers
            started = time.monotonic()
            port = self.ports[(index + attempt) % len(self.ports)]
            try:
                status, headers, raw = share(port, self.token, key, body, timeout=30)
                answer = (status, raw, headers)
            except Exception as error:  # noqa: BLE001 - any transport failure: retry, keeping the key
                answer = ("transport", type(error).__name__)
            with self.lock:
                self.attempts.append((started, time.monotonic() - started, answer, port))
            answers.append(answer)
            if answer[0] == "transport":
                time.sleep(0.05)
                continue
            if status == 201:
                return (status, raw), answers
            if status in RETRYABLE:
                time.sleep(retry_wait(headers))
                continue
            return (status, raw), answers
        return None, answers

    def _run(self):
        index = 0
        while not self.stopping.wait(1.0 / self.rate):
            key = new_key()
            self.keys.append(key)
            self.futures.append((key, self.pool.submit(self._one, index, key)))
            index += 1

    def stop(self, abort=False):
        """Stops starting taps and waits for those under way; with `abort` (the backend is gone), they give up."""
        if abort:
            self.aborted.set()
        self.stopping.set()
        self.thread.join()
        results = {k: f.result() for k, f in self.futures}
        self.pool.shutdown()
        return results


def _judge_taps(h, results, failures, label, user):
    """Every tap ends 201 after retryable answers only, and its key has exactly one Chia session (under the key the
    backend derives for `user`, docs/CONTRACTS.md §2)."""
    seen = collections.Counter()
    urls = []
    for key, (final, answers) in results.items():
        for a in answers:
            if a[0] == "transport":
                seen["transport"] += 1
                continue
            status, raw, headers = a
            code = None
            if status != 201:
                try:
                    code = json.loads(raw).get("code")
                except ValueError:
                    code = "not-json"
                if status not in RETRYABLE or "retry-after" not in headers:
                    failures.append(f"{label}: answer {status} {code} outside the idempotency table")
            seen[f"{status} {code}" if code else str(status)] += 1
        urls += _journey_urls(answers)
        if final is None or final[0] != 201:
            failures.append(f"{label}: key {key[:8]}… final {final[0] if final else 'none'}")
    sessions = collections.Counter(s["idempotencyKey"] for s in h.chia_sessions())
    dupes = sum(1 for k in results if sessions[provider_key(user, k)] > 1)
    missing = sum(1 for k in results if sessions[provider_key(user, k)] == 0)
    if seen.get("transport"):
        failures.append(f"{label}: {seen['transport']} attempts met a transport error (a tap not answered)")
    if dupes or missing:
        failures.append(f"{label}: {dupes} keys with two journeys, {missing} without one")
    return seen, urls, dupes


def _latencies(attempts, windows):
    inside, outside = [], []
    for start, took, *_ in attempts:
        (inside if any(a <= start <= b for a, b in windows) else outside).append(took * 1000)
    return inside, outside


def _wait(predicate, limit):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            if predicate():
                return True
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.02)
    return False


def _readyz(port):
    try:
        return request(port, "GET", "/readyz", timeout=2)[0]
    except OSError:
        return "transport"


