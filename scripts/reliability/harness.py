"""Processes and HTTP for the reliability suites: an external `baton sandbox`, configured `baton serve` backends,
app-side share requests. Everything binds 127.0.0.1; every process started here is stopped by `Harness.close()`."""
import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid

ITEM = "cat_weight_care"
VERSION = "2025-06-01"
SIGNING_KEY = "reliability-token-signing-key-" + "x" * 16
SEALING_KEY = base64.b64encode(b"r" * 32).decode()
IDEMPOTENCY_SECRET = base64.b64encode(bytes(range(1, 33))).decode()


def provider_key(user, key, secret=IDEMPOTENCY_SECRET, purpose="chia.handoff-sessions"):
    """The Idempotency-Key the backend sends Chia for `user`'s request with the app's `key` (docs/CONTRACTS.md §2):
    HMAC-SHA256 over the length-prefixed parts, 16 bytes, version 4 and variant bits set, canonical lowercase."""
    message = b""
    for part in ("baton.provider-idempotency.v1", purpose, user, key):
        data = part.encode()
        message += str(len(data)).encode() + b":" + data
    digest = bytearray(hmac.new(base64.b64decode(secret), message, hashlib.sha256).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x40
    digest[8] = (digest[8] & 0x3F) | 0x80
    h = digest.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# The admin listener's port of each backend started here, by its public port (`/metrics` is only served there).
ADMIN_PORTS = {}


def admin_port(port):
    """The admin listener's port (`/metrics`, the detailed `/readyz`) of the backend on `port`."""
    return ADMIN_PORTS[port]


def free_block(n):
    """A port P with P..P+n-1 all free."""
    for _ in range(500):
        p = random.randrange(20000, 60000 - n)
        ok = True
        for i in range(n):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p + i))
                except OSError:
                    ok = False
                    break
        if ok:
            return p
    raise RuntimeError("no free ports")


def share_body(at="2026-01-01T00:00:00Z"):
    return json.dumps({"catalogItemId": ITEM, "disclosureVersion": VERSION, "affirmed": True, "affirmedAt": at})


def request(port, method, path, body=None, headers=None, timeout=15.0):
    """(status, headers dict lower-case, body bytes); raises OSError / http.client errors on transport failure."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = body.encode() if isinstance(body, str) else body
        h = dict(headers or {})
        if data is not None:
            h.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=h)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def read_text(path):
    """The whole file as text (a log: undecodable bytes replaced)."""
    with open(path, errors="replace") as f:
        return f.read()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Harness:
    def __init__(self, baton, name, sandbox_baton=None):
        self.baton = baton
        # The binary `baton sandbox` runs from (the same as `baton` unless an A/B holds the sandbox fixed).
        self.sandbox_baton = sandbox_baton or baton
        self.dir = tempfile.mkdtemp(prefix=f"baton-{name}.")
        self.procs = []
        self.logs = []
        self.sandbox = None
        self.secrets = []  # every secret value the suite knows, for the log scan

    # -- sandbox -------------------------------------------------------------------------------------------------
    def start_sandbox(self, webhook_port=None):
        port = free_block(3)
        # Its dev keys persist in --state: keep them in this check's folder, not the caller's ./.baton.
        args = [self.sandbox_baton, "sandbox", "--port", str(port), "--state", os.path.join(self.dir, "sandbox-state"), "--json"]
        if webhook_port:
            args += ["--privue-webhook", f"http://127.0.0.1:{webhook_port}/webhooks/privue",
                     "--bb-webhook", f"http://127.0.0.1:{webhook_port}/webhooks/bb"]
        log = os.path.join(self.dir, "sandbox.log")
        self.logs.append(log)
        out = open(log, "w")  # noqa: SIM115 -- kept open: a thread copies the rest of stdout into it
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=out, text=True)
        self.procs.append(p)
        line = p.stdout.readline()
        info = json.loads(line)
        # The JSON line holds the keys: kept out of the scanned log on purpose; the rest of stdout goes to the log.
        threading.Thread(target=lambda: [out.write(l) for l in p.stdout], daemon=True).start()
        info["port"] = port
        self.adopt_sandbox(info)
        self.wait(lambda: request(port, "GET", "/_sandbox/state")[0] == 200, "sandbox")
        return info

    def adopt_sandbox(self, info):
        """The sandbox this check talks to (`info` as `baton sandbox --json` printed it, with its port): its keys,
        webhook secrets and client id, and the backend's own keys, join the values the logs are scanned for."""
        self.sandbox = info
        for k in ("chia", "privue", "bb"):
            self.secrets.append(info[k]["apiKey"])
        for k in ("privue", "bb"):
            self.secrets += [info[k]["webhookSecret"], info[k]["webhookSecret"][len("whsec_"):]]
        self.secrets += [info["bb"]["clientId"], SIGNING_KEY, SEALING_KEY, IDEMPOTENCY_SECRET]

    def sandbox_call(self, method, path, body=None):
        s, _, b = request(self.sandbox["port"], method, path, body=json.dumps(body) if body is not None else None)
        return s, (json.loads(b) if b else None)

    def chia_sessions(self):
        _, state = self.sandbox_call("GET", "/_sandbox/state")
        return state["state"]["handoffSessions"]

    def fault(self, **rule):
        s, b = self.sandbox_call("POST", "/_sandbox/faults", rule)
        assert s == 201, (s, b)
        return b

    # -- backend -------------------------------------------------------------------------------------------------
    def env(self):
        sb = self.sandbox
        e = dict(os.environ)
        e.update({
            "BATON_TOKEN_SIGNING_KEY": SIGNING_KEY, "BATON_SEALING_KEY": SEALING_KEY,
            "BATON_IDEMPOTENCY_SECRET": IDEMPOTENCY_SECRET,
            "BATON_CHIA_API_KEY": sb["chia"]["apiKey"], "BATON_PRIVUE_API_KEY": sb["privue"]["apiKey"],
            "BATON_PRIVUE_WEBHOOK_SECRET": sb["privue"]["webhookSecret"], "BATON_BB_API_KEY": sb["bb"]["apiKey"],
            "BATON_BB_CLIENT_ID": sb["bb"]["clientId"], "BATON_BB_WEBHOOK_SECRET": sb["bb"]["webhookSecret"],
        })
        return e

    def config(self, port, timeout_seconds=2, sync_seconds=5, threads=2, retention=None):
        sb = self.sandbox
        cfg = {
            "development": {"allowLoopbackHTTP": True, "sandboxEvidence": True},
            "server": {"host": "127.0.0.1", "port": port, "publicOrigin": f"http://127.0.0.1:{port}",
                       "threads": threads, "adminPort": ADMIN_PORTS.setdefault(port, free_block(1))},
            "providers": {"timeoutSeconds": timeout_seconds},
            # The per-user limit stays on (its store path runs under the load) but never binds these one-user loads.
            "rateLimit": {"burst": 100000, "perMinute": 100000, "createBurst": 100000, "createPerMinute": 100000,
                          "maxPendingConnectSessions": 0},
            # One audience for every instance (each has its own publicOrigin here, unlike behind a load balancer).
            "tokens": {"audience": "baton-reliability"},
            "chia": {"apiOrigin": sb["chia"]["origin"], "assetOrigin": sb["chia"]["origin"],
                     "syncIntervalSeconds": sync_seconds},
            "privue": {"apiOrigin": sb["privue"]["origin"], "returnURL": sb["privue"]["returnUrls"][0],
                       "workflows": ["merchant-onboarding"]},
            "bb": {"apiOrigin": sb["bb"]["origin"],
                   "returnURLs": {"https": sb["bb"]["returnUrls"][0], "customScheme": sb["bb"]["returnUrls"][1]}},
        }
        # Journey URLs are pinned to their provider's hosts (docs/configuration.md): the sandbox's own origin, or the
        # hosts a check names when the backend reaches the sandbox through a proxy (the network check).
        for name in ("chia", "privue", "bb"):
            cfg[name]["journeyHosts"] = sb[name].get("journeyHosts") or [sb[name]["origin"].split("://", 1)[1]]
        if retention:
            cfg["retention"] = retention
        path = os.path.join(self.dir, f"baton-{port}.json")
        with open(path, "w") as f:
            json.dump(cfg, f)
        return path

    def start_backend(self, port, database, name="backend", **config):
        cfg = self.config(port, **config)
        log = os.path.join(self.dir, f"{name}.log")
        if log not in self.logs:
            self.logs.append(log)
        with open(log, "a") as out:
            p = subprocess.Popen([self.baton, "serve", "--config", cfg, "--database", database],
                                 stdout=out, stderr=subprocess.STDOUT, cwd=self.dir, env=self.env())
        self.procs.append(p)
        return p

    def token(self, user):
        cfg = next(f for f in os.listdir(self.dir) if f.endswith(".json"))
        t = subprocess.run([self.baton, "token", "--user", user, "--config", os.path.join(self.dir, cfg)],
                           capture_output=True, text=True, env=self.env(), check=True).stdout.strip()
        self.secrets.append(t)
        return t

    def shareable(self, port, token):
        try:
            s, _, b = request(port, "GET", "/v2/catalog", headers={"Authorization": f"Bearer {token}"}, timeout=2)
        except OSError:
            return False
        return s == 200 and any(i["id"] == ITEM and i["handoff"]["mode"] == "share_or_neutral"
                                for i in json.loads(b)["items"])

    def start_pair(self, database, user):
        """Two backend instances on `database` (instance-a and instance-b), each waited for until it can share; answers
        (processes, ports, a token for `user`)."""
        a, b = free_block(1), free_block(1)
        procs = [self.start_backend(a, database, name="instance-a"), self.start_backend(b, database, name="instance-b")]
        token = self.token(user)
        for port in (a, b):
            self.wait(lambda port=port: self.shareable(port, token), f"instance on {port}")
        return procs, (a, b), token

    def connect_session_webhook(self, port, token):
        """Opens a BB connect session through the backend on `port` and answers (its id, the body of the
        `connect_session.updated` webhook BB would send for it, as bytes, unsigned)."""
        s, _, raw = request(port, "POST", "/v2/connect-sessions", json.dumps({"callback": "https"}),
                            {"Authorization": f"Bearer {token}"})
        assert s == 201, (s, raw)
        session_id = json.loads(raw)["sessionId"]
        bb = self.sandbox["bb"]
        bb_port = int(bb["origin"].rsplit(":", 1)[1])
        state = json.loads(request(bb_port, "GET", f"/v2/connect-sessions/{session_id}",
                                   headers={"X-Api-Key": bb["apiKey"], "X-Client-Id": bb["clientId"]})[2])
        body = json.dumps({"type": "connect_session.updated", "timestamp": state["updatedAt"], "data": state},
                          sort_keys=True).encode()
        return session_id, body

    def wait(self, predicate, what, limit=30.0):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            try:
                if predicate():
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.02)
        raise RuntimeError(f"{what} not ready after {limit:.0f} s")

    # -- shutdown ------------------------------------------------------------------------------------------------
    def close(self):
        stop(self.procs, timeout=15)


def stop(procs, timeout):
    """SIGTERM every process still running, then wait for each; one that outlasts `timeout` is killed."""
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def retry_wait(headers):
    """Seconds an app waits before retrying a retryable answer: its Retry-After (0.2 s if absent or not a number),
    kept between 0.05 s and 1 s so a load loop stays bounded."""
    try:
        delay = float(headers.get("retry-after", "0.2"))
    except ValueError:
        delay = 0.2
    return min(max(delay, 0.05), 1.0)


def share(port, token, key, body=None, timeout=15.0):
    return request(port, "POST", "/v2/handoff-sessions", body or share_body(),
                   {"Authorization": f"Bearer {token}", "Idempotency-Key": key}, timeout=timeout)


def new_key():
    return str(uuid.uuid4())


def sign_webhook(secret, msg_id, timestamp, body):
    key = base64.b64decode(secret[len("whsec_"):])
    mac = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()
