"""The `store_unavailable` / `store_recovered` lines of a backend's log, set against the outages a check caused.

An outage is (stop called, start called, start returned), wall-clock seconds (`time.time()`, the clock the backend
stamps its lines with). Each outage must have exactly one `store_unavailable` line between its stop and its start
returning, and exactly one `store_recovered` line after its start was called and before the next stop: a line
anywhere else is a flap (recovery declared while the store still failed, or an outage opened while it answered).
On failure `timeline` prints every line and every 503 next to the outage it falls in, offsets in ms."""
import calendar
import json
import time

SLACK = 0.002  # the backend's stamps are cut to the millisecond


def _seconds(ts):
    """RFC 3339 UTC with milliseconds (`2026-12-01T21:20:06.123Z`) as epoch seconds."""
    whole, _, fraction = ts.rstrip("Z").partition(".")
    return calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) + float("0." + (fraction or "0"))


def events(text):
    """(epoch seconds, event, fields) of each outage line and each access line in a backend's log, in log order."""
    found = []
    for line in text.splitlines():
        if '"event":"store_' not in line and '"event":"request"' not in line:
            continue
        try:
            fields = json.loads(line)
        except ValueError:
            continue
        found.append((_seconds(fields["ts"]), fields.get("event"), fields))
    return found


def judge(name, text, outages):
    """Failures (strings) for one backend's log: not exactly one line of each kind per outage, in its window."""
    found = [(t, e) for t, e, _ in events(text) if e != "request"]
    failures = []
    for i, (stop, start, started) in enumerate(outages):
        following = outages[i + 1][0] if i + 1 < len(outages) else float("inf")
        down = sum(e == "store_unavailable" and stop - SLACK <= t <= started + SLACK for t, e in found)
        up = sum(e == "store_recovered" and start - SLACK <= t < following for t, e in found)
        if (down, up) != (1, 1):
            failures.append(f"{name}: outage {i + 1}: {down} store_unavailable / {up} store_recovered lines "
                            f"(one each per outage)")
    first = outages[0][0] if outages else float("inf")
    early = sum(t < first - SLACK for t, _ in found)
    if early:
        failures.append(f"{name}: {early} outage lines before the first outage")
    stray = sum(e == "store_recovered" and any(stop - SLACK <= t < start - SLACK for stop, start, _ in outages)
                for t, e in found)
    if stray:
        failures.append(f"{name}: {stray} store_recovered lines while PostgreSQL was stopped")
    # A line outside every window of its kind (a store_unavailable while PostgreSQL was up) is counted by no outage.
    for kind in ("store_unavailable", "store_recovered"):
        total = sum(e == kind for _, e in found)
        if total != len(outages):
            failures.append(f"{name}: {total} {kind} lines in all for {len(outages)} outages")
    return failures


def timeline(name, text, outages, limit=8):
    """Lines for a report: each outage's stop/start, each outage line relative to the outage it falls in, and the
    requests that can explain an extra line: a 503 answered after its outage's `store_recovered` line, and a 2xx on
    a store route that began before its outage's `store_unavailable` line and was answered after it (each with when
    it began, from its duration)."""

    def index(t):
        return next((i for i in reversed(range(len(outages))) if t >= outages[i][0] - SLACK), None)

    def where(t):
        i = index(t)
        if i is None:
            return "before the first outage"
        stop, start, _ = outages[i]
        return f"outage {i + 1} " + (f"stop+{(t - stop) * 1000:.0f} ms" if t < start else
                                      f"start+{(t - start) * 1000:.0f} ms")

    out = [f"   {name}: outages (stop called, start called +ms, start returned +ms) and outage lines:"]
    for i, (stop, start, started) in enumerate(outages):
        out.append(f"      outage {i + 1}: {_stamp(stop)}, +{(start - stop) * 1000:.0f}, +{(started - stop) * 1000:.0f}")
    found = events(text)
    first_down, first_up = {}, {}
    for t, event, fields in found:
        if event == "request":
            continue
        i = index(t)
        (first_down if event == "store_unavailable" else first_up).setdefault(i, t)
        detail = (fields.get("reason") if event == "store_unavailable" else
                  f"outage_ms {fields.get('outage_ms')}, refused {fields.get('refused_requests')}")
        out.append(f"      {_stamp(t)} {event:<17} {where(t)} ({detail})")
    late, early = [], []
    for t, event, fields in found:
        if event != "request":
            continue
        began = t - fields.get("duration_ms", 0) / 1000
        i = index(t)
        described = f"{_stamp(t)} {fields.get('status')} {fields.get('route')} {where(t)}, began {where(began)}"
        if fields.get("status") == 503 and i in first_up and t > first_up[i]:
            late.append("      late 503: " + described)
        elif 200 <= fields.get("status", 0) < 300 and i in first_down and began < first_down[i] < t:
            early.append("      stale 2xx: " + described)
    out += late[:limit] + ([f"      … {len(late) - limit} more late 503s"] if len(late) > limit else [])
    out += early[:limit] + ([f"      … {len(early) - limit} more stale 2xx"] if len(early) > limit else [])
    return out


def _stamp(t):
    return time.strftime("%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}"
