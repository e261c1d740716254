"""The reliability checks. Each takes (baton binary, profile) and returns {"failures": [...], "logs", "secrets"}."""
import base64
import collections
import concurrent.futures
import json
import os
import random
import re
import socket
import subprocess
import tempfile
import threading
import time

from harness import (
    Harness,
    admin_port,
    free_block,
    new_key,
    provider_key,
    read_text,
    request,
    retry_wait,
    rss_kb,
    share,
    share_body,
    sign_webhook,
)

RETRYABLE = {429, 502, 503}


def _result(h, failures, extra_secrets=()):
    return {"failures": failures, "logs": list(h.logs), "secrets": list(h.secrets) + list(extra_secrets),
            "dir": h.dir}


def _tap(port_of, token, key, body, gate=None, attempts=400, tally=None):
    """The app side of one tap: retry with the same key and body after a transport error, 429 or 5xx (honouring
    Retry-After, capped at 1 s); stop at 201 or any other definitive answer. Returns (final, answers)."""
    answers = []
    for attempt in range(attempts):
        if gate is not None:
            gate.wait()
        try:
            status, headers, raw = share(port_of(attempt), token, key, body, timeout=30)
        except Exception as error:  # noqa: BLE001 - any transport failure: retry, keeping the key
            answers.append(("transport", type(error).__name__))
            time.sleep(0.05)
            continue
        answers.append((status, raw, headers))
        if status == 201:
            return (status, raw), answers
        if status in RETRYABLE:
            time.sleep(retry_wait(headers))
            continue
        return (status, raw), answers
    return None, answers


def _journey_urls(answers):
    urls = []
    for a in answers:
        if a[0] == 201:
            urls.append(json.loads(a[1])["url"])
    return urls


# -- crash ------------------------------------------------------------------------------------------------------
def crash(baton, profile):
    """kill -9 the backend at random points during N shares (8 in flight, own key each), restart it on the same
    SQLite file; the app retries with the same key and body until a definitive answer."""
    h = Harness(baton, "crash")
    failures, urls = [], []
    try:
        h.start_sandbox()
        port = free_block(1)
        db = "sqlite:" + os.path.join(h.dir, "baton.sqlite")
        proc = {"p": h.start_backend(port, db, timeout_seconds=1)}
        token = h.token("crash-user")
        probe_token = h.token("crash-probe")
        h.wait(lambda: h.shareable(port, token), "backend")
        # Widen the window in which a kill lands between the provider's answer and the stored record.
        h.fault(endpoint="POST /v2/handoff-sessions", fault="latency", latencyMs=150)
        gate, stop = threading.Event(), threading.Event()
        gate.set()
        stats = collections.Counter()
        restart_probe = collections.Counter()
        probe_keys = set()

        def killer():
            rng = random.Random(11)
            while not stop.wait(rng.uniform(0.2, 1.5)):
                gate.clear()
                proc["p"].kill()
                proc["p"].wait()
                stats["kills"] += 1
                started = time.monotonic()
                proc["p"] = h.start_backend(port, db, timeout_seconds=1)
                h.wait(lambda: request(port, "GET", "/healthz", timeout=1)[0] == 200, "restarted backend")
                # What a share meets the moment the restarted instance listens (before its catalog is loaded).
                key = new_key()
                probe_keys.add(key)
                try:
                    restart_probe[share(port, probe_token, key, timeout=10)[0]] += 1
                except Exception:  # noqa: BLE001 - any transport failure is counted as one
                    restart_probe["transport"] += 1
                h.wait(lambda: h.shareable(port, token), "restarted catalog")
                stats["restart_ms"] += int((time.monotonic() - started) * 1000)
                gate.set()

        keys = [new_key() for _ in range(profile["crash_keys"])]
        body = share_body()
        started = time.monotonic()
        kt = threading.Thread(target=killer, daemon=True)
        kt.start()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = dict(zip(keys, pool.map(lambda k: _tap(lambda _: port, token, k, body, gate), keys)))
        stop.set()
        kt.join()
        gate.set()
        elapsed = time.monotonic() - started

        sessions = collections.Counter(s["idempotencyKey"] for s in h.chia_sessions())
        lost = [k for k, (final, _) in results.items() if final is None]
        definitive = collections.Counter(final[0] for final, _ in results.values() if final)
        attempts = collections.Counter()
        for _, answers in results.values():
            for a in answers:
                attempts[a[0] if a[0] != "transport" else "transport"] += 1
        for key, (final, answers) in results.items():
            u = _journey_urls(answers)
            urls += u
            if len(set(u)) > 1:
                failures.append(f"key {key[:8]}…: {len(set(u))} different URLs")
            if sessions[provider_key("crash-user", key)] != 1:
                failures.append(f"key {key[:8]}…: {sessions[provider_key('crash-user', key)]} Chia sessions")
        if lost:
            failures.append(f"{len(lost)} taps never answered")
        if set(definitive) - {201}:
            failures.append(f"non-201 definitive answers: {dict(definitive)}")
        sent = {provider_key("crash-user", k) for k in results} | {provider_key("crash-probe", k) for k in probe_keys}
        extra = [k for k in sessions if k not in sent]
        if extra:
            failures.append(f"{len(extra)} Chia sessions for keys nobody sent")
        if restart_probe.get(409):
            failures.append(f"a share sent as a restarted instance starts listening is answered 409 "
                            f"projection_changed (definitive) {restart_probe[409]}/{sum(restart_probe.values())} times")
        print(f"   {len(keys)} keys, {stats['kills']} kill -9 + restarts (mean restart-to-shareable "
              f"{stats['restart_ms'] / max(stats['kills'], 1):.0f} ms), {elapsed:.1f} s")
        print(f"   attempts by answer: {dict(attempts)}; final: {dict(definitive)}; lost {len(lost)}")
        upstream = [provider_key("crash-user", k) for k in keys]
        print(f"   Chia sessions for the {len(keys)} keys: {sum(sessions[k] for k in upstream)} "
              f"(keys with exactly one: {sum(sessions[k] == 1 for k in upstream)})")
        print(f"   share probe right after each restart: {dict(restart_probe)}")
    finally:
        h.close()
    return _result(h, failures, urls)


# -- scale-out --------------------------------------------------------------------------------------------------
def scale_out(baton, profile):
    """Two `baton serve` on one PostgreSQL and one sandbox; rounds of 64 concurrent same-key shares spread across
    both → one Chia session per key, 64 identical answers; the catalog sync lease held by exactly one."""
    url = os.environ.get("BATON_TEST_POSTGRES_URL")
    if not url:
        return {"failures": ["BATON_TEST_POSTGRES_URL is not set (run under scripts/with-postgres)"]}
    h = Harness(baton, "scale")
    failures, urls = [], []
    try:
        h.start_sandbox()
        a, b = free_block(1), free_block(1)
        h.start_backend(a, url, name="instance-a")
        token = h.token("scale-user")
        h.wait(lambda: h.shareable(a, token), "instance A")
        h.start_backend(b, url, name="instance-b")
        h.wait(lambda: h.shareable(b, token), "instance B")
        body = share_body()
        replayed_total = 0
        for round_ in range(profile["scale_rounds"]):
            key = new_key()
            barrier = threading.Barrier(64)

            def one(i, barrier=barrier, key=key):
                barrier.wait()
                return _tap(lambda _: a if i % 2 == 0 else b, token, key, body)

            with concurrent.futures.ThreadPoolExecutor(64) as pool:
                results = list(pool.map(one, range(64)))
            finals = [f for f, _ in results]
            bodies = {f[1] for f in finals if f}
            statuses = collections.Counter(f[0] if f else None for f in finals)
            retried = sum(len(ans) - 1 for _, ans in results)
            replayed = sum(1 for _, ans in results if ans[-1][0] == 201 and ans[-1][2].get("idempotent-replayed"))
            replayed_total += replayed
            count = sum(1 for s in h.chia_sessions() if s["idempotencyKey"] == provider_key("scale-user", key))
            for f, ans in results:
                urls.extend(_journey_urls(ans))
            if round_ < 3 or count != 1 or len(bodies) != 1:
                print(f"   round {round_ + 1}: final {dict(statuses)}, {len(bodies)} distinct bodies, "
                      f"{replayed} replayed, {retried} retries, Chia sessions for the key: {count}")
            if statuses != {201: 64} or len(bodies) != 1 or count != 1:
                failures.append(f"round {round_ + 1}: {dict(statuses)}, {len(bodies)} bodies, {count} sessions")
        print(f"   {profile['scale_rounds']} rounds x 64 requests: {replayed_total} answered as replays")
        # Let a few more sync intervals (5 s) pass: the lease must stay with one instance.
        h.wait(lambda: read_text(os.path.join(h.dir, "instance-b.log")).count("catalog sync:") >= 3,
               "three sync passes on instance B", limit=40)
        leaders = []
        for name in ("instance-a", "instance-b"):
            text = read_text(os.path.join(h.dir, f"{name}.log"))
            synced = text.count("catalog sync: fetched publication") + text.count("catalog sync: not modified")
            follower = text.count("another instance syncs")
            print(f"   {name}: {synced} sync passes against Chia, {follower} follower passes")
            if synced:
                leaders.append(name)
        _, reqs = h.sandbox_call("GET", "/_sandbox/requests")
        catalog_calls = sum(1 for r in reqs["requests"] if r["route"] == "/v2/catalog")
        print(f"   Chia GET /v2/catalog calls: {catalog_calls}; instances that synced: {leaders}")
        if len(leaders) != 1:
            failures.append(f"catalog sync ran on {len(leaders)} instances")
    finally:
        h.close()
    return _result(h, failures, urls)


# -- provider faults --------------------------------------------------------------------------------------------
def provider_faults(baton, profile):
    """20% of Chia calls fail (429, 500, 503, drop, timeout); N taps, 16 in flight; every app-visible answer must be
    a 201 or a retryable 429/502/503 problem (with Retry-After where the table says so)."""
    h = Harness(baton, "faults")
    failures, urls = [], []
    try:
        h.start_sandbox()
        port = free_block(1)
        h.start_backend(port, "sqlite:" + os.path.join(h.dir, "baton.sqlite"), timeout_seconds=1)
        token = h.token("fault-user")
        h.wait(lambda: h.shareable(port, token), "backend")
        # Five rules, first firing wins: 1 - (1 - p)^5 = 20% with p = 0.0436.
        p = 0.0436
        ep = "POST /v2/handoff-sessions"
        h.fault(endpoint=ep, fault="status", status=429, retryAfterSeconds=1, fraction=p, seed=1)
        h.fault(endpoint=ep, fault="status", status=500, fraction=p, seed=2)
        h.fault(endpoint=ep, fault="status", status=503, fraction=p, seed=3)
        h.fault(endpoint=ep, fault="drop", fraction=p, seed=4)
        h.fault(endpoint=ep, fault="timeout", fraction=p, seed=5)
        keys = [new_key() for _ in range(profile["fault_taps"])]
        body = share_body()
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            results = dict(zip(keys, pool.map(lambda k: _tap(lambda _: port, token, k, body), keys)))
        elapsed = time.monotonic() - started
        seen = collections.Counter()
        misclassified = collections.Counter()
        for key, (final, answers) in results.items():
            for a in answers:
                if a[0] == "transport":
                    seen["transport"] += 1
                    misclassified["transport error from the backend"] += 1
                    continue
                status, raw, headers = a
                code = None
                if status != 201:
                    try:
                        code = json.loads(raw).get("code")
                    except ValueError:
                        code = "not-json"
                    if headers.get("content-type", "").split(";")[0] != "application/problem+json":
                        misclassified[f"{status} without problem+json"] += 1
                    if status not in RETRYABLE:
                        misclassified[f"{status} {code}"] += 1
                    if status in (429, 503) and "retry-after" not in headers and code != "provider_unavailable":
                        misclassified[f"{status} {code} without Retry-After"] += 1
                seen[f"{status} {code}" if code else str(status)] += 1
            u = _journey_urls(answers)
            urls += u
            if final is None or final[0] != 201:
                failures.append(f"key {key[:8]}…: final {final[0] if final else 'none'}")
            if len(set(u)) > 1:
                failures.append(f"key {key[:8]}…: {len(set(u))} URLs")
        sessions = collections.Counter(s["idempotencyKey"] for s in h.chia_sessions())
        dupes = sum(1 for k in keys if sessions[provider_key("fault-user", k)] > 1)
        missing = sum(1 for k in keys if sessions[provider_key("fault-user", k)] == 0)
        _, reqs = h.sandbox_call("GET", "/_sandbox/requests")
        faults = collections.Counter(
            r["fault"] or ("held (timeout)" if r["status"] is None else "none")
            for r in reqs["requests"] if r["route"] == "/v2/handoff-sessions")
        print(f"   {len(keys)} taps in {elapsed:.1f} s; provider calls by fault: {dict(faults)}")
        print(f"   app-visible answers: {dict(seen)}")
        print(f"   duplicate journeys {dupes}, taps without a journey {missing}, misclassified {dict(misclassified)}")
        if dupes or missing:
            failures.append(f"{dupes} duplicate journeys, {missing} taps without a journey")
        if misclassified:
            failures.append(f"answers outside the idempotency table: {dict(misclassified)}")
        failures = failures[:20]
    finally:
        h.close()
    return _result(h, failures, urls)


# -- webhooks ---------------------------------------------------------------------------------------------------
def _metric(port, name, **labels):
    _, _, raw = request(admin_port(port), "GET", "/metrics")
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    for line in raw.decode().splitlines():
        if line.startswith(name + "{") and want in line:
            return int(line.rsplit(" ", 1)[1])
    return 0


def webhooks(baton, profile):
    """BB `connect_session.updated` deliveries built from the sandbox's real session: the newer event first, the
    older one after it (reordered), the newer one again 5x concurrently and with a new id (duplicated), one within
    and one past the 5-minute tolerance (delayed), and forgeries (wrong secret, tampered body, other id, missing
    headers, future timestamp). BB's own GET is failed meanwhile, so the state read back can only come from them."""
    h = Harness(baton, "webhooks")
    failures = []
    try:
        sb = h.start_sandbox()  # no webhook target: this check delivers every event itself
        port = free_block(1)
        h.start_backend(port, "sqlite:" + os.path.join(h.dir, "baton.sqlite"))
        token = h.token("webhook-user")
        h.wait(lambda: request(port, "GET", "/healthz")[0] == 200, "backend")
        auth = {"Authorization": f"Bearer {token}"}
        s, _, raw = request(port, "POST", "/v2/connect-sessions", json.dumps({"callback": "https"}), auth)
        assert s == 201, (s, raw)
        session_id = json.loads(raw)["sessionId"]
        bb = sb["bb"]
        bb_port = int(bb["origin"].rsplit(":", 1)[1])
        keys = {"X-Api-Key": bb["apiKey"], "X-Client-Id": bb["clientId"]}
        pending = json.loads(request(bb_port, "GET", f"/v2/connect-sessions/{session_id}", headers=keys)[2])
        time.sleep(1.1)  # the completed event must carry a later updatedAt (whole seconds)
        s, _, _ = request(bb_port, "POST", f"/_sandbox/journeys/{session_id}/complete", '{"resultCode":"Ok"}')
        assert s == 200, (s, _)
        done = json.loads(request(bb_port, "GET", f"/v2/connect-sessions/{session_id}", headers=keys)[2])
        s, _, _ = request(bb_port, "POST", "/_sandbox/faults", json.dumps(
            {"endpoint": "GET /v2/connect-sessions/{sessionId}", "fault": "status", "status": 503}))
        assert s == 201
        secret = bb["webhookSecret"]

        def event(data):
            return json.dumps({"type": "connect_session.updated", "timestamp": data["updatedAt"], "data": data},
                              sort_keys=True).encode()

        def deliver(msg_id, body, age=0, key=secret, signed_body=None, signed_id=None, headers=None):
            ts = str(int(time.time()) - age)
            sig = sign_webhook(key, signed_id or msg_id, ts, signed_body or body)
            hd = {"webhook-id": msg_id, "webhook-timestamp": ts, "webhook-signature": sig}
            if headers is not None:
                hd = headers
            st, _, rb = request(port, "POST", "/webhooks/bb", body, hd)
            return st, (json.loads(rb).get("code") or json.loads(rb).get("status")) if rb else None

        newer, older = event(done), event(pending)
        other = "whsec_" + base64.b64encode(b"f" * 32).decode()
        outcome = collections.OrderedDict()
        outcome["newer first"] = deliver("msg_newer000000000000000001", newer)
        outcome["older after it"] = deliver("msg_older000000000000000001", older)
        with concurrent.futures.ThreadPoolExecutor(5) as pool:
            dup = list(pool.map(lambda _: deliver("msg_newer000000000000000001", newer), range(5)))
        outcome["newer again x5 (same id)"] = collections.Counter(dup).most_common()
        outcome["newer under a new id"] = deliver("msg_newer000000000000000002", newer)
        outcome["delayed 240 s"] = deliver("msg_delay000000000000000001", newer, age=240)
        outcome["delayed 600 s"] = deliver("msg_delay000000000000000002", newer, age=600)
        forged = {
            "wrong secret": deliver("msg_forge000000000000000001", newer, key=other),
            "tampered body": deliver("msg_forge000000000000000002", older.replace(b'"pending"', b'"completed"'),
                                     signed_body=older),
            "signed for another id": deliver("msg_forge000000000000000003", newer, signed_id="msg_x"),
            "future timestamp": deliver("msg_forge000000000000000004", newer, age=-600),
            "no signature": deliver("msg_forge000000000000000005", newer, headers={"webhook-id": "msg_f6"}),
        }
        for name, answer in list(outcome.items()) + list(forged.items()):
            print(f"   {name}: {answer}")
        expect = {"newer first": (200, "accepted"), "older after it": (200, "accepted"),
                  "newer under a new id": (200, "accepted"), "delayed 240 s": (200, "accepted"),
                  "delayed 600 s": (401, "webhook_rejected")}
        for name, want in expect.items():
            if outcome[name] != want:
                failures.append(f"{name}: {outcome[name]}, expected {want}")
        if outcome["newer again x5 (same id)"] != [((200, "duplicate"), 5)]:
            failures.append(f"duplicates: {outcome['newer again x5 (same id)']}")
        for name, answer in forged.items():
            if answer[0] not in (400, 401):
                failures.append(f"forged ({name}) answered {answer}")
        s, _, raw = request(port, "GET", f"/v2/connect-sessions/{session_id}", headers=auth)
        state = json.loads(raw) if s == 200 else {"http": s}
        print(f"   state read back (BB GET failing): {state}")
        if state.get("status") != "ok" or state.get("connectionId") != done["connectionId"]:
            failures.append(f"final state {state}, expected ok with the connection id")
        accepted = _metric(port, "baton_webhook_verifications_total", provider="bb", result="accepted")
        duplicate = _metric(port, "baton_webhook_verifications_total", provider="bb", result="duplicate")
        print(f"   metrics: accepted {accepted} (4 distinct valid ids), duplicate {duplicate} (5)")
        if accepted != 4 or duplicate != 5:
            failures.append(f"processed {accepted} accepted / {duplicate} duplicate, expected 4 / 5")
    finally:
        h.close()
    return _result(h, failures)


# -- bad input --------------------------------------------------------------------------------------------------
def _raw(port, payload, read=True, timeout=10.0, close_early=False):
    """Sends raw bytes; returns the status line (or what happened)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(payload)
            if close_early:
                return "closed by client"
            data = b""
            while read and b"\r\n" not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        except (ConnectionResetError, BrokenPipeError):
            return "reset"
        except TimeoutError:
            return "timeout"
    line = data.split(b"\r\n", 1)[0].decode(errors="replace")
    return line.split(" ", 2)[1] if line.startswith("HTTP/") else (line or "closed")


def bad_input(baton, profile):
    """Oversized, truncated and malformed bodies and headers, then slow-drip clients, against a served backend:
    every request answered with a 4xx (or the connection closed), never a 5xx, the server never hangs, and its
    resident memory stays bounded (VmRSS from /proc)."""
    h = Harness(baton, "badinput")
    failures = []
    try:
        h.start_sandbox()
        port = free_block(1)
        proc = h.start_backend(port, "sqlite:" + os.path.join(h.dir, "baton.sqlite"))
        token = h.token("bad-user")
        h.wait(lambda: h.shareable(port, token), "backend")
        auth = f"Authorization: Bearer {token}\r\n".encode()

        def post(body, extra=b"", length=None, path=b"/v2/handoff-sessions"):
            n = len(body) if length is None else length
            return (b"POST " + path + b" HTTP/1.1\r\nHost: x\r\n" + auth + b"Idempotency-Key: " + new_key().encode()
                    + b"\r\nContent-Type: application/json\r\n" + extra + b"Content-Length: " + str(n).encode()
                    + b"\r\n\r\n" + body)

        valid = share_body().encode()
        cases = {
            "body 16 MiB": post(b"{" + b" " * (16 << 20) + b"}"),
            "body declared 1 GiB, 1 KiB sent": (post(b"{" * 1024, length=1 << 30), {"close_early": True}),
            "truncated body, client closes": (post(valid[:20], length=len(valid)), {"close_early": True}),
            "not JSON": post(b"catalogItemId=cat_weight_care"),
            "JSON null": post(b"null"),
            "JSON array": post(b"[]"),
            "nested 100k deep": post(b"[" * 100000 + b"]" * 100000),
            "invalid UTF-8": post(b'{"catalogItemId":"\xff\xfe","disclosureVersion":"2025-06-01","affirmed":true,'
                                  b'"affirmedAt":"2026-01-01T00:00:00Z"}'),
            "unknown field": post(valid[:-1] + b',"x":1}'),
            "duplicate keys": post(valid[:-1] + b',"affirmed":false}'),
            "affirmed false": post(valid.replace(b"true", b"false")),
            "huge number": post(valid.replace(b"true", b"1" + b"0" * 10000)),
            "header 256 KiB": post(valid, extra=b"X-Big: " + b"a" * (256 << 10) + b"\r\n"),
            "10,000 headers": post(valid, extra=b"".join(b"X-H%d: v\r\n" % i for i in range(10000))),
            "header without colon": post(valid, extra=b"NoColonHere\r\n"),
            "control bytes in header": post(valid, extra=b"X-Bad: a\x00b\x01c\r\n"),
            "Idempotency-Key 64 KiB": post(valid, extra=b"Idempotency-Key: " + b"k" * 65536 + b"\r\n"),
            "Authorization garbage": post(valid).replace(auth, b"Authorization: Bearer \xff" + b"." * 5000 + b"\r\n"),
            "Content-Length not a number": post(valid, length=None).replace(
                b"Content-Length: %d" % len(valid), b"Content-Length: abc"),
            "Content-Length negative": post(valid).replace(b"Content-Length: %d" % len(valid), b"Content-Length: -5"),
            "two Content-Lengths": post(valid, extra=b"Content-Length: 3\r\n"),
            "bad chunked": (b"POST /v2/handoff-sessions HTTP/1.1\r\nHost: x\r\n" + auth
                            + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
            # A TLS ClientHello-like prefix and fixed pseudo-random bytes, ending the line: random bytes with no line
            # end would only be an unfinished request line, held until the header deadline (10 s), not garbage.
            "request line garbage": (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"
                                     + random.Random(7).randbytes(512).replace(b"\n", b"x") + b"\r\n\r\n"),
            "path 64 KiB": b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
            "webhook 16 MiB": post(b"{" + b" " * (16 << 20) + b"}", path=b"/webhooks/bb"),
        }
        rss_start = rss_kb(proc.pid)
        answers = {}
        for repeat in range(profile["bad_repeats"]):
            for name, case in cases.items():
                payload, opts = case if isinstance(case, tuple) else (case, {})
                answers[name] = _raw(port, payload, **opts)
        rss_battery = rss_kb(proc.pid)
        for name, answer in answers.items():
            print(f"   {name}: {answer}")
            if answer.startswith("5") or answer == "timeout":
                failures.append(f"{name}: {answer}")
        # Slow drip: clients that send a request one byte at a time, every 100 ms, while others are served.
        n = profile["slow_clients"]
        socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(n)]
        drip = post(valid)
        served, closed_by_server, latencies = 0, 0, []
        started = time.monotonic()
        for i in range(min(len(drip), profile["drip_steps"])):  # 100 ms per step
            for sk in list(socks):
                try:
                    sk.send(drip[i:i + 1])
                except OSError:
                    socks.remove(sk)
                    closed_by_server += 1
            t = time.monotonic()
            st, _, _ = request(port, "GET", "/healthz", timeout=5)
            latencies.append((time.monotonic() - t) * 1000)
            served += st == 200
            time.sleep(0.1)
        for sk in socks:
            sk.close()
        latencies.sort()
        print(f"   slow drip: {n} clients for {time.monotonic() - started:.1f} s; {served}/{len(latencies)} healthz "
              f"answered meanwhile (p50 {latencies[len(latencies) // 2]:.1f} ms, max {latencies[-1]:.1f} ms); "
              f"{closed_by_server} drip connections closed by the server")
        if served != len(latencies):
            failures.append("the server stopped answering during the slow drip")
        ok = h.shareable(port, token) and share(port, token, new_key())[0] == 201
        rss_end = rss_kb(proc.pid)
        print(f"   RSS: {rss_start / 1024:.1f} MiB at start, {rss_battery / 1024:.1f} MiB after "
              f"{profile['bad_repeats']} x {len(cases)} bad requests, {rss_end / 1024:.1f} MiB after the drip")
        if not ok or proc.poll() is not None:
            failures.append("the backend does not serve a valid share afterwards")
        if rss_end - rss_start > 256 * 1024:
            failures.append(f"RSS grew by {(rss_end - rss_start) / 1024:.0f} MiB")
    finally:
        h.close()
    return _result(h, failures)


# -- secrets ----------------------------------------------------------------------------------------------------
def scan_logs(logs, secrets):
    """Every line of every log against every known secret value, bearer token and journey URL, plus patterns that
    must never appear (phs_ tokens, Privue tickets, whsec_ secrets, Bearer credentials)."""
    needles = {s for s in secrets if s and len(s) >= 8}
    for url in list(needles):
        m = re.search(r"phs_[A-Za-z0-9]+", url)
        if m:
            needles.add(m.group(0))
    patterns = [re.compile(p) for p in (r"phs_[A-Za-z0-9]{8,}", r"#ticket=", r"whsec_[A-Za-z0-9+/=]{8,}",
                                         r"Bearer [A-Za-z0-9._~+/=-]{8,}", r"_test_[A-Za-z0-9]{8,}")]
    leaks, lines = [], 0
    # Known values: GNU grep -F (Aho-Corasick over all needles at once) finds the few lines that hold any of them, and
    # only those lines are checked value by value. A loop of every value over every line was quadratic: the soak's
    # logs (~10^6 lines) against its ~10^5 tokens and URLs ran for hours.
    with tempfile.NamedTemporaryFile("w", suffix=".needles", delete=False) as f:
        f.write("\n".join(sorted(needles)) + "\n")
        needle_file = f.name
    try:
        for path in logs:
            if not os.path.exists(path):
                continue
            if needles:
                found = subprocess.run(["grep", "-n", "-a", "-F", "-f", needle_file, path],
                                       capture_output=True, check=False, text=True, errors="replace").stdout
                for hit in found.splitlines():
                    number, _, line = hit.partition(":")
                    for s in needles:
                        if s in line:
                            leaks.append(f"{os.path.basename(path)}:{number}: a known secret/token/URL ({s[:6]}…)")
            with open(path, errors="replace") as f:
                for number, line in enumerate(f, 1):
                    lines += 1
                    for p in patterns:
                        if p.search(line):
                            leaks.append(f"{os.path.basename(path)}:{number}: matches {p.pattern}")
    finally:
        os.unlink(needle_file)
    print(f"   {len(logs)} logs, {lines} lines, {len(needles)} known values and 5 patterns checked: "
          f"{len(leaks)} leaks")
    return leaks


from security import cross_user

CHECKS = {"crash": crash, "scale-out": scale_out, "provider-faults": provider_faults, "webhooks": webhooks, "bad-input": bad_input}
CHECKS["cross-user"] = cross_user
ORDER = list(CHECKS)
