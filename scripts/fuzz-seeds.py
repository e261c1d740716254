#!/usr/bin/env python3
"""Writes the seed corpus of each server fuzz entry point (UntrustedInputFuzzing) into OUT/<entry>/: the inputs the
tests use (share, verification and connect bodies, token payloads, the test configuration, request targets of the
routing tests, the webhook events of WebhookReceiverTests) and the provider responses of a real `baton sandbox`,
captured live on 127.0.0.1. Usage: scripts/fuzz-seeds.py BATON OUT"""
import base64
import hashlib
import hmac
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

if sys.argv[1:2] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0)

baton, out = sys.argv[1], sys.argv[2]
FUZZ_TOKEN_KEY = b"baton-fuzz-token-signing-key-0123456789"
FUZZ_WEBHOOK_KEY = b"baton-fuzz-webhook-key"
NOW = 1_750_000_000
STATUSES = [200, 201, 304, 400, 404, 409, 410, 422, 429, 500, 503]


def seed(entry, data):
    data = data.encode() if isinstance(data, str) else data
    os.makedirs(os.path.join(out, entry), exist_ok=True)
    with open(os.path.join(out, entry, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# body: the request bodies and token payloads of the tests
share = {"catalogItemId": "cat_weight_care", "disclosureVersion": "2025-06-01", "affirmed": True,
         "affirmedAt": "2026-01-01T00:00:00Z"}
for text in (json.dumps(share), json.dumps(share, separators=(",", ":")),
             json.dumps(share)[:-1] + ',"affirmed":false}', '{"affirm\\u0065d":true}', '{"workflow":"merchant-onboarding"}',
             '{"callback":"https"}', '{"callback":"custom-scheme"}',
             '{"aud":"baton","exp":1750000060,"iat":1750000000,"kid":"0123456789abcdef","sub":"alice"}',
             '{"a":"\\ud83d\\ude00","b":-12,"c":null,"d":false}'):
    seed("body", text)

# token: tokens minted with the fuzz entry's key, and user ids to mint for
for user in ("alice", "user/with\"quote", "ünï\u00e7ode", "a\\b"):
    kid = hmac.new(FUZZ_TOKEN_KEY, b"baton token key id", hashlib.sha256).hexdigest()[:16]
    payload = json.dumps({"aud": "baton", "exp": NOW + 60, "iat": NOW, "kid": kid, "sub": user},
                         separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    body = "bt1." + b64url(payload)
    seed("token", body + "." + b64url(hmac.new(FUZZ_TOKEN_KEY, body.encode(), hashlib.sha256).digest()))
    seed("token", user)


# webhook: id, timestamp, signature, then the event body (WebhookReceiverTests' shapes)
def webhook(body, msg="msg_2a0b1c", ts=str(NOW)):
    mac = hmac.new(FUZZ_WEBHOOK_KEY, f"{msg}.{ts}.".encode() + body.encode(), hashlib.sha256).digest()
    seed("webhook", f"{msg}\n{ts}\nv1,{base64.b64encode(mac).decode()}\n{body}")


stamp = "2025-06-15T14:13:20Z"
bb = {"sessionId": "cs_1", "status": "completed", "resultCode": "Ok", "connectionId": "conn_1", "error": None,
      "returnUrl": "https://app.example.com/bb-callback", "createdAt": stamp, "expiresAt": stamp, "updatedAt": stamp}
webhook(json.dumps({"type": "connect_session.updated", "timestamp": stamp, "data": bb}))
webhook(json.dumps({"type": "verification.updated", "timestamp": stamp,
                    "data": {"id": "ver_1", "status": "approved", "updated_at": stamp}}))
webhook(json.dumps({"type": "something.else", "timestamp": stamp, "data": {}}))

# config: the test configuration (TestConfiguration.make) and the reliability suite's
fingerprint = ":".join(["AB"] * 32)
seed("config", json.dumps({
    "development": {"allowLoopbackHTTP": True},
    "server": {"host": "127.0.0.1", "port": 8080, "publicOrigin": "https://partner.example"},
    "chia": {"apiOrigin": "http://127.0.0.1:9", "assetOrigin": "http://127.0.0.1:9"},
    "privue": {"apiOrigin": "http://127.0.0.1:9", "returnURL": "https://app.example.com/kyc/done",
               "workflows": ["merchant-onboarding"]},
    "bb": {"apiOrigin": "http://127.0.0.1:9", "returnURLs": {"https": "https://app.example.com/bb-callback",
                                                              "customScheme": "acmewallet://bb-callback"}},
    "apps": {"apple": {"appIDs": ["ABCDE12345.com.example.wallet"]},
             "android": {"packageName": "com.example.wallet", "sha256CertFingerprints": [fingerprint]}}}))
seed("config", json.dumps({
    "development": {"allowLoopbackHTTP": True, "sandboxEvidence": True},
    "server": {"host": "127.0.0.1", "port": 8080, "publicOrigin": "http://127.0.0.1:8080", "threads": 2},
    "providers": {"timeoutSeconds": 2},
    "chia": {"apiOrigin": "http://127.0.0.1:9001", "assetOrigin": "http://127.0.0.1:9001", "syncIntervalSeconds": 5},
    "privue": {"apiOrigin": "http://127.0.0.1:9002", "returnURL": "https://app.example.com/kyc/done",
               "workflows": ["merchant-onboarding"]},
    "bb": {"apiOrigin": "http://127.0.0.1:9003", "returnURLs": {"https": "https://app.example.com/bb-callback"}}}))

# target: request targets of the routing tests
for target in ("/v2/connect-sessions/cs_1", "/v2/connect-sessions/cs%201?sessionId=a&sessionId=b",
               "/v2/verifications/merchant-onboarding?x=%zz&&=", "/assets/a%2Fb.png", "/healthz?", "//x/../y",
               "/v2/connect-sessions/%F0%9F%98%80/extra"):
    seed("target", target)

# provider: real responses of `baton sandbox`; the first byte selects the status the entry answers with
def free_block(n):
    for _ in range(500):
        p = random.randrange(20000, 60000 - n)
        try:
            for i in range(n):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p + i))
            return p
        except OSError:
            continue
    raise RuntimeError("no free ports")


state = tempfile.mkdtemp(prefix="baton-fuzz-seeds.")  # the sandbox keeps its dev keys here, then they go
proc = subprocess.Popen([baton, "sandbox", "--port", str(free_block(3)), "--state", state, "--json"], stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, text=True)
try:
    info = json.loads(proc.stdout.readline())

    def call(origin, method, path, headers, body=None):
        req = urllib.request.Request(origin + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    chia = {"Authorization": "Bearer " + info["chia"]["apiKey"]}
    privue = {"Authorization": "Bearer " + info["privue"]["apiKey"]}
    bbh = {"X-Api-Key": info["bb"]["apiKey"], "X-Client-Id": info["bb"]["clientId"]}
    answers = [
        call(info["chia"]["origin"], "GET", "/v2/catalog", chia),
        call(info["chia"]["origin"], "POST", "/v2/handoff-sessions",
             dict(chia, **{"Idempotency-Key": "0b5a7c9e-3f1d-4a2b-8c6d-1e2f3a4b5c6d"}),
             share),
        call(info["chia"]["origin"], "GET", "/v2/catalog", {}),
    ]
    status, raw = call(info["privue"]["origin"], "POST", "/verifications", privue,
                       {"user_ref": "u1", "workflow": "merchant-onboarding",
                        "return_url": info["privue"]["returnUrls"][0]})
    answers.append((status, raw))
    verification = json.loads(raw)["id"]
    answers.append(call(info["privue"]["origin"], "POST", f"/verifications/{verification}/handoff", privue))
    answers.append(call(info["privue"]["origin"], "GET", f"/verifications/{verification}", privue))
    status, raw = call(info["bb"]["origin"], "POST", "/v2/connect-sessions", bbh,
                       {"returnUrl": info["bb"]["returnUrls"][0]})
    answers.append((status, raw))
    answers.append(call(info["bb"]["origin"], "GET", f"/v2/connect-sessions/{json.loads(raw)['sessionId']}", bbh))
    answers.append(call(info["bb"]["origin"], "POST", "/v2/connect-sessions", bbh, {"returnUrl": "https://evil/"}))
    for status, raw in answers:
        index = STATUSES.index(status) if status in STATUSES else 0
        seed("provider", bytes([index]) + raw)
finally:
    proc.terminate()
    proc.wait()
    shutil.rmtree(state, ignore_errors=True)
print(f"fuzz-seeds: {sum(len(files) for _, _, files in os.walk(out))} seeds in {out}")
