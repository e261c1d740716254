"""Security checks against a real `baton serve --sandbox`: one user's Idempotency-Key never returns
another user's journey, and the per-user rate limit answers 429 rate_limited with Retry-After."""
import json
import os
import subprocess
import time

from harness import Harness, free_block, new_key, request, share


def _serve_sandbox(h, port):
    """`baton serve --sandbox --port P` in the harness folder (its .baton/ secrets, SQLite and logs stay there)."""
    log = os.path.join(h.dir, "serve-sandbox.log")
    h.logs.append(log)
    with open(log, "w") as out:
        p = subprocess.Popen([h.baton, "serve", "--sandbox", "--host", "127.0.0.1", "--port", str(port)],
                             stdout=out, stderr=subprocess.STDOUT, cwd=h.dir)
    h.procs.append(p)
    return p


def _sandbox_token(h, user):
    t = subprocess.run([h.baton, "token", "--user", user], capture_output=True, text=True, cwd=h.dir,
                       check=True).stdout.strip()
    h.secrets.append(t)
    return t


def cross_user(baton, profile):
    """Against `baton serve --sandbox`: N keys, each sent by user 1 and then by user 2 with the same body. User 2
    must never receive user 1's URL (it gets its own journey), user 1's retry must replay its own, Chia must hold
    exactly 2N sessions and none under an app's key. Then one user past the default burst gets 429 rate_limited
    with Retry-After while another user is still served."""
    h = Harness(baton, "cross-user")
    failures, urls = [], []
    try:
        port = free_block(4)
        _serve_sandbox(h, port)
        h.wait(lambda: request(port, "GET", "/healthz", timeout=1)[0] == 200, "baton serve --sandbox")
        with open(os.path.join(h.dir, ".baton", "secrets.json")) as f:
            secrets = json.load(f)
        h.secrets += [v for v in secrets.values() if len(v) >= 16] + [v[len("whsec_"):] for v in secrets.values()
                                                                         if v.startswith("whsec_")]
        first, second = _sandbox_token(h, "cross-user-1"), _sandbox_token(h, "cross-user-2")
        h.wait(lambda: h.shareable(port, first) and h.shareable(port, second), "catalog")
        keys = [new_key() for _ in range(profile.get("cross_user_keys", 20))]
        leaked = 0
        for key in keys:
            s1, _, b1 = share(port, first, key)
            s2, h2, b2 = share(port, second, key)
            r1, _, b3 = share(port, first, key)
            if s1 != 201 or s2 != 201 or r1 != 201:
                failures.append(f"key {key[:8]}…: answers {s1}/{s2}/{r1}")
                continue
            u1, u2 = json.loads(b1)["url"], json.loads(b2)["url"]
            urls += [u1, u2]
            if u1 == u2:
                leaked += 1
            if h2.get("idempotent-replayed"):
                failures.append(f"key {key[:8]}…: user 2 got a replay")
            if json.loads(b3)["url"] != u1:
                failures.append(f"key {key[:8]}…: user 1's retry did not replay its own journey")
        _, _, raw = request(port + 1, "GET", "/_sandbox/state")
        sessions = json.loads(raw)["state"]["handoffSessions"]
        upstream = {s["idempotencyKey"] for s in sessions}
        print(f"   {len(keys)} keys sent by two users: user 2 received user 1's URL {leaked} times; "
              f"Chia sessions {len(sessions)} (expected {2 * len(keys)}), under an app key "
              f"{len(upstream & set(keys))}")
        if leaked:
            failures.append(f"user 2 received user 1's journey URL for {leaked} of {len(keys)} keys")
        if len(sessions) != 2 * len(keys) or upstream & set(keys):
            failures.append(f"{len(sessions)} Chia sessions, {len(upstream & set(keys))} under an app's own key")

        # The per-user limit, with `baton serve --sandbox`'s defaults (burst 60, 60 per minute).
        busy, other = _sandbox_token(h, "cross-user-busy"), _sandbox_token(h, "cross-user-other")
        statuses, limited = [], None
        started = time.monotonic()
        for _ in range(80):
            status, headers, raw = request(port, "GET", "/v2/connect-sessions/cs_unknown",
                                           headers={"Authorization": f"Bearer {busy}"})
            statuses.append(status)
            if status == 429 and limited is None:
                limited = (json.loads(raw).get("code"), headers.get("retry-after"))
        other_status = request(port, "GET", "/v2/connect-sessions/cs_unknown",
                               headers={"Authorization": f"Bearer {other}"})[0]
        served = statuses.index(429) if 429 in statuses else len(statuses)
        print(f"   rate limit: {served} requests served before the first 429 in {time.monotonic() - started:.1f} s; "
              f"429 answer {limited}; another user meanwhile {other_status}")
        if limited is None or limited[0] != "rate_limited" or not (limited[1] or "").isdigit():
            failures.append(f"no 429 rate_limited with Retry-After after {len(statuses)} requests: {limited}")
        elif served < 60:
            failures.append(f"limited after {served} requests, below the default burst of 60")
        if other_status != 404:
            failures.append(f"another user was answered {other_status} while one user was limited")
    finally:
        h.close()
    return {"failures": failures, "logs": list(h.logs), "secrets": list(h.secrets) + urls, "dir": h.dir}
