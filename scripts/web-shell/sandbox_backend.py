"""The real backend for the web-shell browser suite: `baton serve --sandbox --port P` in a temporary directory.

The backend serves the shell at /web/ and the app-facing API at /v2/* with the real catalog pipeline; the provider
sandbox runs in the same process on P+1 (Chia), P+2 (Privue) and P+3 (BB), and its control API (CONTRACTS.md §4.4)
is how the suite injects faults and reads what the providers saw. Everything listens on 127.0.0.1 only.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reliability"))
from harness import provider_key

DEFAULT_USER = "user-1"          # no fixture profile: active, in US (FixtureServiceStateProvider.sandbox)
SUSPENDED_USER = "user_suspended"  # every item neutral_only
GERMAN_USER = "user_de"            # items offered in US/GB only are hidden


def free_port_block(size=4):
    """A port P with P..P+size-1 free right now."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = probe.getsockname()[1]
        if base + size > 65535:
            continue
        sockets = []
        try:
            for offset in range(size):
                s = socket.socket()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind(("127.0.0.1", base + offset))
                sockets.append(s)
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    raise RuntimeError("no block of free ports")


def http(method, url, body=None, headers=None, timeout=10):
    """(status, headers, parsed JSON or raw bytes)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, answer_headers, raw = response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        status, answer_headers, raw = error.code, dict(error.headers), error.read()
    try:
        return status, answer_headers, json.loads(raw) if raw else None
    except ValueError:
        return status, answer_headers, raw


class SandboxBackend:
    def __init__(self, repo):
        self.repo = Path(repo).resolve()
        self.binary = self.repo / ".build/debug/baton"
        self.directory = tempfile.mkdtemp(prefix="web-shell-serve-")
        self.port = free_port_block()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.chia = f"http://127.0.0.1:{self.port + 1}"
        self.privue = f"http://127.0.0.1:{self.port + 2}"
        self.bb = f"http://127.0.0.1:{self.port + 3}"
        self.process = None
        self.tokens = {}

    def start(self, deadline_seconds=90):
        if not self.binary.exists():
            subprocess.run(["swift", "build", "--product", "baton"], cwd=self.repo, check=True)
        with open(Path(self.directory) / "serve.log", "wb") as log:
            self.process = subprocess.Popen(
                [str(self.binary), "serve", "--sandbox", "--port", str(self.port)], cwd=self.directory,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + deadline_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"baton serve exited with {self.process.returncode}: {self.serve_log()}")
            try:
                status, _, body = self.api("GET", "/v2/catalog")
                if status == 200 and body.get("items"):
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("baton serve --sandbox did not serve a catalog in time: " + self.serve_log())

    def serve_log(self):
        try:
            return (Path(self.directory) / "serve.log").read_text()[-2000:]
        except OSError:
            return ""

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)

    # ----- the backend -----

    def provider_key(self, key, user=DEFAULT_USER):
        """The Idempotency-Key this backend sends Chia for `user`'s share with the page's `key`, derived under the
        BATON_IDEMPOTENCY_SECRET that `baton serve --sandbox` generated in its folder."""
        secrets = json.loads((Path(self.directory) / ".baton" / "secrets.json").read_text())
        return provider_key(user, key, secret=secrets["BATON_IDEMPOTENCY_SECRET"])

    def dev_sign_in_secret(self):
        """The per-run secret the sandbox's dev sign-in asks for, from the file `baton serve --sandbox` wrote."""
        return (Path(self.directory) / ".baton" / "dev-sign-in-secret").read_text().strip()

    def token(self, user=DEFAULT_USER):
        """A dev token from the backend's own sandbox sign-in, `POST /web/dev-token?user=ID` with the run's secret."""
        if user not in self.tokens:
            status, _, body = http("POST", f"{self.origin}/web/dev-token?user={user}", body={},
                                   headers={"X-Baton-Dev-Secret": self.dev_sign_in_secret()})
            if status != 200:
                raise RuntimeError(f"dev-token for {user}: {status} {body}")
            self.tokens[user] = body["token"]
        return self.tokens[user]

    def api(self, method, path, user=DEFAULT_USER):
        return http(method, self.origin + path, headers={"Authorization": "Bearer " + self.token(user)})

    def catalog(self, user=DEFAULT_USER):
        status, _, body = self.api("GET", "/v2/catalog", user)
        if status != 200:
            raise RuntimeError(f"GET /v2/catalog: {status} {body}")
        return body["items"]

    def card(self, mode, user=DEFAULT_USER):
        """The first card the real catalog offers this user with this handoff mode."""
        for card in self.catalog(user):
            if card["handoff"]["mode"] == mode:
                return card
        raise RuntimeError(f"no {mode} card for {user}")

    # ----- the provider sandbox's control API -----

    def reset_faults(self):
        for origin in (self.chia, self.privue, self.bb):
            http("DELETE", origin + "/_sandbox/faults")

    def fault(self, **rule):
        """A Chia fault on `POST /v2/handoff-sessions` (CONTRACTS.md §4.4), the next call only unless `count` says."""
        rule = {"endpoint": "POST /v2/handoff-sessions", "count": 1, **rule}
        status, _, body = http("POST", self.chia + "/_sandbox/faults", body=rule)
        if status != 201:
            raise RuntimeError(f"fault {rule}: {status} {body}")
        return body

    def state(self, origin):
        return http("GET", origin + "/_sandbox/state")[2]["state"]

    def handoff_sessions(self):
        return self.state(self.chia)["handoffSessions"]

    def provider_requests(self, origin):
        return http("GET", origin + "/_sandbox/requests")[2]["requests"]

    def complete(self, origin, journey, outcome):
        status, _, body = http("POST", f"{origin}/_sandbox/journeys/{journey}/complete", body=outcome)
        if status != 200:
            raise RuntimeError(f"complete {journey}: {status} {body}")
        return body
