"""TEST FIXTURE ONLY: a stand-in for the partner backend's app-facing API (CONTRACTS.md §2), used by the web-shell
browser suite until `baton serve --sandbox` serves /v2/* (branches `backend` and `catalog`).

It serves the shell's real files from Sources/BatonServer/Web/Assets with the exact headers
Conformance/renderer-conformance.v1.json lists (the Swift tests hold the real WebShell handler to the same table),
and a scriptable /v2/* so the interaction cases can force 409/422/429/5xx and dropped connections. It listens on
127.0.0.1 only. It is not the backend and nothing outside scripts/ may use it.
"""

import copy
import json
import re
import secrets
import struct
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", re.I)
ASSET_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".js": "text/javascript; charset=utf-8"}


def png(width, height, rgb):
    """A solid-colour PNG, so the card images are real images without a binary file in the repository."""
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def apply_patch(document, operations):
    document = copy.deepcopy(document)
    for operation in operations:
        keys = operation["path"].split("/")[1:]
        target = document
        for key in keys[:-1]:
            target = target[key]
        if operation["op"] == "remove":
            target.pop(keys[-1], None)
        else:
            target[keys[-1]] = copy.deepcopy(operation["value"])
    return document


class QuietServer(ThreadingHTTPServer):
    """A browser that navigates away mid-response is normal here, not an error worth a traceback."""

    def handle_error(self, request, client_address):
        import sys
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class StandInPartnerBackend:
    """The scriptable stand-in. Tests call reset(), set the projection and queue share answers, then read `log`."""

    def __init__(self, repo, conformance):
        self.assets = Path(repo) / "Sources/BatonServer/Web/Assets"
        self.conformance = conformance
        self.lock = threading.Lock()
        self.server = QuietServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.reset()

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    # ----- test controls -----

    def reset(self):
        with self.lock:
            self.log = []              # every /v2/* and /web/dev-token request: dicts with method, path, headers, body
            self.share_answers = []    # queued answers for POST /v2/handoff-sessions
            self.issued_urls = []      # journey URLs returned, in order
            self.projection = "share"
            self.catalog_override = None
            self.verification_status = "pending"
            self.connect_status = "pending"
            self.connect_sessions = []

    def card(self, name):
        fixtures = self.conformance["fixtures"]
        if name in fixtures["cards"]:
            card = fixtures["cards"][name]
        else:
            derived = fixtures["derived"][name]
            card = apply_patch(fixtures["cards"][derived["card"]], derived["patch"])
        return self.localise(card)

    def localise(self, card):
        """Mirrored images live on the partner backend: substitute this server's origin for the fixture's."""
        card = copy.deepcopy(card)
        partner = self.conformance["fixtures"]["partnerOrigin"]
        image = card.get("image")
        if isinstance(image, dict) and isinstance(image.get("url"), str) and image["url"].startswith(partner):
            image["url"] = self.origin + image["url"][len(partner):]
        return card

    def catalog(self):
        with self.lock:
            if self.catalog_override is not None:
                return [self.localise(card) for card in self.catalog_override]
            names = self.conformance["fixtures"]["projections"][self.projection]
        return [self.card(name) for name in names]

    def api_requests(self, method=None, path=None):
        with self.lock:
            return [entry for entry in self.log
                    if (method is None or entry["method"] == method) and (path is None or entry["path"] == path)]

    # ----- the HTTP side -----

    def _handler(self):
        backend = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def send(self, status, body=b"", content_type="application/json", headers=None):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                # A fresh connection per request: Chromium silently re-sends a request whose reused keep-alive
                # socket was reset, which would hide the dropped-connection cases.
                self.send_header("Connection", "close")
                self.close_connection = True
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def send_json(self, status, value, headers=None):
                self.send(status, json.dumps(value).encode(), headers=headers)

            def problem(self, status, code, headers=None):
                body = json.dumps({"type": "about:blank", "title": code, "status": status, "code": code}).encode()
                self.send(status, body, "application/problem+json", headers)

            def do_GET(self):
                self.route()

            def do_POST(self):
                self.route()

            def route(self):
                parts = urlsplit(self.path)
                path = parts.path
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if path.startswith("/web"):
                    return self.web(path, parts.query, body)
                if path.startswith("/assets/"):
                    colour = (46, 125, 50) if path.startswith("/assets/3") else (40, 53, 147)
                    return self.send(200, png(320, 180, colour), "image/png", {"Cache-Control": "no-cache"})
                if not path.startswith("/v2/"):
                    return self.problem(404, "not_found")
                with backend.lock:
                    backend.log.append({"method": self.command, "path": path, "headers": dict(self.headers),
                                        "body": body, "time": time.monotonic()})
                auth = self.headers.get("Authorization", "")
                if not auth.startswith("Bearer standin."):
                    return self.problem(401, "unauthorized")
                return self.api(path, body)

            def web(self, path, query, body):
                if path == "/web/dev-token" and self.command == "POST":
                    with backend.lock:
                        backend.log.append({"method": "POST", "path": path, "headers": dict(self.headers),
                                            "body": body, "time": time.monotonic()})
                    user = (parse_qs(query).get("user") or [""])[0]
                    if not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", user):
                        return self.problem(400, "invalid_request")
                    return self.send_json(200, {"token": "standin." + user, "expiresAt": "2099-01-01T00:00:00Z"},
                                          {"Cache-Control": "no-store"})
                name = "index.html" if path == "/web/" else path[len("/web/"):]
                file = backend.assets / name
                expected = backend.conformance["headers"]
                asset = expected["assets"].get(path)
                if self.command != "GET" or asset is None or "/" in name or not file.is_file():
                    return self.problem(404, "not_found")
                headers = dict(expected["all"])
                headers.update(asset)
                content_type = headers.pop("content-type")
                self.send(200, file.read_bytes(), content_type, headers)

            def api(self, path, body):
                if path == "/v2/catalog" and self.command == "GET":
                    return self.send_json(200, {"items": backend.catalog()}, {"Cache-Control": "no-store"})
                if path == "/v2/handoff-sessions" and self.command == "POST":
                    return self.share(body)
                if path == "/v2/verification-handoffs" and self.command == "POST":
                    workflow = json.loads(body or b"{}").get("workflow", "")
                    ticket = secrets.token_urlsafe(24).replace("-", "a").replace("_", "b")[:32]
                    url = f"https://privue.test/acme/{workflow}#ticket={ticket}"
                    with backend.lock:
                        backend.issued_urls.append(url)
                    return self.send_json(201, {"url": url, "expiresInSeconds": 120}, {"Cache-Control": "no-store"})
                if path.startswith("/v2/verifications/") and self.command == "GET":
                    workflow = unquote(path[len("/v2/verifications/"):])
                    return self.send_json(200, {"verificationId": "ver_" + workflow,
                                                "status": backend.verification_status})
                if path == "/v2/connect-sessions" and self.command == "POST":
                    session = "cs_" + secrets.token_hex(8)
                    with backend.lock:
                        backend.connect_sessions.append(session)
                    return self.send_json(201, {"sessionId": session, "hostedUrl": f"https://bb.test/connect/{session}",
                                                "callback": {"kind": "https"}}, {"Cache-Control": "no-store"})
                if path.startswith("/v2/connect-sessions/") and self.command == "GET":
                    session = unquote(path[len("/v2/connect-sessions/"):])
                    if session not in backend.connect_sessions:
                        return self.problem(404, "not_found")
                    return self.send_json(200, {"sessionId": session, "status": backend.connect_status})
                return self.problem(404, "not_found")

            def share(self, body):
                key = self.headers.get("Idempotency-Key", "")
                if not UUID4.match(key):
                    return self.problem(400, "idempotency_key_invalid")
                try:
                    request = json.loads(body)
                except ValueError:
                    return self.problem(400, "invalid_request")
                if (not isinstance(request, dict)
                        or set(request) != {"catalogItemId", "disclosureVersion", "affirmed", "affirmedAt"}
                        or request["affirmed"] is not True):
                    return self.problem(400, "invalid_request")
                with backend.lock:
                    answer = backend.share_answers.pop(0) if backend.share_answers else {"status": 201}
                time.sleep(answer.get("delayMs", 0) / 1000)
                if answer.get("transport"):
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return None
                status = answer["status"]
                if 200 <= status < 300:
                    url = "https://chia.test/h/phs_" + secrets.token_hex(16)
                    with backend.lock:
                        backend.issued_urls.append(url)
                    return self.send_json(status, {"url": url, "expiresAt": "2099-01-01T00:15:00Z"},
                                          {"Cache-Control": "no-store"})
                headers = {"Retry-After": answer["retryAfter"]} if "retryAfter" in answer else None
                return self.problem(status, answer.get("code", "error"), headers)

        return Handler
