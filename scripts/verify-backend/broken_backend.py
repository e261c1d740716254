#!/usr/bin/env python3
"""A deliberately broken partner backend, for showing that `baton verify-backend` checks can fail.

It listens on 127.0.0.1:PORT in front of a working backend and passes every request through, except where its mode
breaks one rule of docs/CONTRACTS.md §2:

  forward-app-key   POST /v2/handoff-sessions calls Chia itself with the app's own Idempotency-Key (the naive
                    implementation the contract forbids: another user's same key gets the first user's journey)
  drop-no-store     removes Cache-Control (and Pragma) from every response, so journey URLs may be cached
  accept-refused-webhooks
                    answers 200 wherever the backend refused a webhook (a forged or tampered delivery is accepted)

usage: broken_backend.py MODE PORT BACKEND_URL [CHIA_ORIGIN CHIA_API_KEY]
Prints "listening" once it accepts connections. Standard library only.
"""
import http.server
import json
import sys
import urllib.error
import urllib.request

MODES = ("forward-app-key", "drop-no-store", "accept-refused-webhooks")
HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "date", "server"}


def call(method, url, headers, body):
    """One request; the answer (status, headers, body) whatever the status."""
    request = urllib.request.Request(url, data=body if body else None, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, list(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        return error.code, list(error.headers.items()), error.read()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = backend = chia = chia_key = None

    def log_message(self, *args):  # quiet: the suite prints the kit's output
        pass

    def answer(self, status, headers, body):
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in HOP:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        if self.mode == "forward-app-key" and self.command == "POST" and self.path == "/v2/handoff-sessions":
            return self.forward_app_key(headers, body)
        status, answer_headers, answer = call(self.command, self.backend + self.path, headers, body)
        if self.mode == "drop-no-store":
            answer_headers = [(k, v) for k, v in answer_headers if k.lower() not in ("cache-control", "pragma")]
        if self.mode == "accept-refused-webhooks" and self.path.startswith("/webhooks/") and 400 <= status < 500:
            status, answer_headers, answer = 200, [("Content-Type", "application/json")], b'{"status":"accepted"}'
        self.answer(status, answer_headers, answer)

    def forward_app_key(self, headers, body):
        # Authenticate by asking the real backend for the catalog with the same token; a refusal is passed on.
        auth = {k: v for k, v in headers.items() if k.lower() == "authorization"}
        status, answer_headers, answer = call("GET", self.backend + "/v2/catalog", auth, b"")
        if status != 200:
            return self.answer(status, answer_headers, answer)
        upstream = {"Authorization": "Bearer " + self.chia_key, "Content-Type": "application/json"}
        key = headers.get("Idempotency-Key") or headers.get("idempotency-key")
        if key:
            upstream["Idempotency-Key"] = key  # the bug: the app's key, shared by every user of this partner
        status, answer_headers, answer = call("POST", self.chia + "/v2/handoff-sessions", upstream, body)
        kept = [(k, v) for k, v in answer_headers if k.lower() in ("content-type", "idempotent-replayed", "retry-after")]
        if status == 201:
            created = json.loads(answer)
            answer = json.dumps({"url": created["url"], "expiresAt": created["expiresAt"]}).encode()
            kept.append(("Cache-Control", "no-store"))
        self.answer(status, kept, answer)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = handle_any


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in MODES or (sys.argv[1] == "forward-app-key" and len(sys.argv) < 6):
        sys.exit(__doc__)
    Handler.mode, port, Handler.backend = sys.argv[1], int(sys.argv[2]), sys.argv[3].rstrip("/")
    if len(sys.argv) >= 6:
        Handler.chia, Handler.chia_key = sys.argv[4].rstrip("/"), sys.argv[5]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print("listening", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
