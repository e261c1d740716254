"""`baton doctor --live` against a real https server.

A throwaway CA and a server certificate for the configured hosts are made with Debian's openssl in a temporary
directory; a Python https server on 127.0.0.1 answers the well-known URLs by Host header from a scenario table. The
doctor is run as the built binary with `--live https://127.0.0.1:PORT --ca-file ca.pem` (each configured host is
asked by name at that address, the certificate verified against the test CA). Prints one line per case and ends with
"N passed, N failed".
"""

import base64
import json
import os
import ssl
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BATON = REPO / ".build/debug/baton"
APP_ID = "ABCDE12345.com.example.wallet"
PACKAGE = "com.example.wallet"
FINGERPRINT = ":".join(["AB"] * 32)
RETURN_HOST = "app.example.test"
OPEN_HOST = "open.app.example.test"
HOSTS = [RETURN_HOST, OPEN_HOST]
AASA = "/.well-known/apple-app-site-association"
ASSETLINKS = "/.well-known/assetlinks.json"

GOOD_AASA = {"applinks": {"apps": [], "details": [{"appIDs": [APP_ID],
                                                   "components": [{"/": "/bb-callback"}, {"/": "/kyc/done"}]}]},
             "webcredentials": {"apps": [APP_ID]}}
GOOD_ASSETLINKS = [{"relation": ["delegate_permission/common.handle_all_urls"],
                    "target": {"namespace": "android_app", "package_name": PACKAGE,
                               "sha256_cert_fingerprints": [FINGERPRINT]}}]

CONFIGURATION = {
    "server": {"publicOrigin": f"https://{RETURN_HOST}"},
    # Unreachable provider origins: the doctor warns about them and goes on (never a failure).
    "chia": {"apiOrigin": "https://127.0.0.1:1", "assetOrigin": "https://127.0.0.1:1"},
    "privue": {"apiOrigin": "https://127.0.0.1:1", "returnURL": f"https://{RETURN_HOST}/kyc/done",
               "workflows": ["merchant-onboarding"]},
    "bb": {"apiOrigin": "https://127.0.0.1:1",
           "returnURLs": {"https": f"https://{RETURN_HOST}/bb-callback", "customScheme": "acmewallet://bb-callback"}},
    "apps": {"apple": {"appIDs": [APP_ID]},
             "android": {"packageName": PACKAGE, "sha256CertFingerprints": [FINGERPRINT]}},
    "returnLanding": {"openHost": OPEN_HOST, "storeFallbackText": "Get Acme Wallet from your app store."},
}


def random_text(size=32):
    return base64.urlsafe_b64encode(os.urandom(size)).decode().rstrip("=")


ENVIRONMENT = {
    "BATON_TOKEN_SIGNING_KEY": random_text(),
    "BATON_SEALING_KEY": base64.b64encode(os.urandom(32)).decode(),
    "BATON_CHIA_API_KEY": "chia_live_" + random_text(),
    "BATON_PRIVUE_API_KEY": "pv_live_" + random_text(),
    "BATON_PRIVUE_WEBHOOK_SECRET": "whsec_" + base64.b64encode(os.urandom(32)).decode(),
    "BATON_BB_API_KEY": "bb_live_" + random_text(),
    "BATON_BB_CLIENT_ID": "client-live",
    "BATON_BB_WEBHOOK_SECRET": "whsec_" + base64.b64encode(os.urandom(32)).decode(),
}


def openssl(*arguments, cwd):
    subprocess.run(["openssl", *arguments], cwd=cwd, check=True, capture_output=True)


def make_certificates(directory):
    """A CA and a server certificate for both hosts, signed by it; valid for one day."""
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1",
            "-subj", "/CN=Baton doctor-live test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=directory)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
            "-subj", f"/CN={RETURN_HOST}", cwd=directory)
    Path(directory, "server.ext").write_text(
        "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n"
        f"subjectAltName=DNS:{RETURN_HOST},DNS:{OPEN_HOST}\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.pem", "-days", "1", "-extfile", "server.ext", cwd=directory)


class Deployment:
    """What the https server answers: (host, path) -> (status, headers, body)."""

    def __init__(self):
        self.answers = {}
        self.requests = []
        self.reset()

    def reset(self):
        self.answers.clear()
        for host in HOSTS:
            self.set(host, AASA, GOOD_AASA)
            self.set(host, ASSETLINKS, GOOD_ASSETLINKS)

    def set(self, host, path, document, status=200, content_type="application/json", headers=None):
        body = document if isinstance(document, bytes) else json.dumps(document).encode()
        self.answers[(host, path)] = (status, {"Content-Type": content_type, **(headers or {})}, body)


def serve(deployment, directory):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            host = (self.headers.get("Host") or "").split(":")[0].lower()
            deployment.requests.append((host, self.path))
            status, headers, body = deployment.answers.get((host, self.path), (404, {}, b"not found"))
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *arguments):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(Path(directory, "server.pem"), Path(directory, "server.key"))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def doctor(directory, port, ca_file=True):
    arguments = [str(BATON), "doctor", "--config", str(Path(directory, "baton.json")), "--timeout", "2",
                 "--live", f"https://127.0.0.1:{port}"]
    if ca_file:
        arguments += ["--ca-file", str(Path(directory, "ca.pem"))]
    result = subprocess.run(arguments, capture_output=True, check=False, text=True, timeout=120,
                            env={"PATH": os.environ.get("PATH", ""), **ENVIRONMENT})
    return result.returncode, result.stdout, result.stderr


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def case_generated_files_pass(deployment, run):
    code, out, err = run()
    lines = [line for line in out.splitlines() if " live https://" in line]
    check(code == 0, f"exit {code}: {out}{err}")
    check(len(lines) == 4 and all(line.startswith("ok live https://") for line in lines), "\n".join(lines))
    check({request[0] for request in deployment.requests} == set(HOSTS), f"asked {deployment.requests}")


def case_missing_webcredentials(deployment, run):
    document = json.loads(json.dumps(GOOD_AASA))
    del document["webcredentials"]
    deployment.set(OPEN_HOST, AASA, document)
    code, out, _ = run()
    expected = f"fail live https://{OPEN_HOST}{AASA}: has no webcredentials entry beside applinks"
    check(code == 1, f"exit {code}")
    check(expected in out.splitlines(), out)
    check(not any(line.startswith(f"fail live https://{RETURN_HOST}") for line in out.splitlines()), out)


def case_wrong_app_id(deployment, run):
    text = json.dumps(GOOD_AASA).replace(APP_ID, "ZZZZZ99999.com.example.wallet")
    deployment.set(RETURN_HOST, AASA, json.loads(text))
    code, out, _ = run()
    check(code == 1, f"exit {code}")
    check(f"fail live https://{RETURN_HOST}{AASA}: applinks does not list the app id {APP_ID}" in out.splitlines(), out)


def case_redirecting_well_known_url(deployment, run):
    # The redirect target serves a valid file: the doctor must not follow it.
    deployment.set(RETURN_HOST, AASA, b"", status=301,
                   headers={"Location": f"https://{OPEN_HOST}{AASA}"})
    code, out, _ = run()
    check(code == 1, f"exit {code}")
    check(f"fail live https://{RETURN_HOST}{AASA}: redirects (HTTP 301 to https://{OPEN_HOST}{AASA})"
          in out.splitlines(), out)
    check(deployment.requests.count((OPEN_HOST, AASA)) == 1, f"followed the redirect: {deployment.requests}")


def case_wrong_content_type(deployment, run):
    deployment.set(OPEN_HOST, ASSETLINKS, GOOD_ASSETLINKS, content_type="text/html")
    code, out, _ = run()
    check(code == 1, f"exit {code}")
    check(f"fail live https://{OPEN_HOST}{ASSETLINKS}: is served as text/html, not application/json"
          in out.splitlines(), out)


def case_oversized_file(deployment, run):
    document = json.loads(json.dumps(GOOD_AASA))
    document["padding"] = "x" * (130 * 1024)
    deployment.set(RETURN_HOST, AASA, document)
    code, out, _ = run()
    check(code == 1, f"exit {code}")
    check(f"fail live https://{RETURN_HOST}{AASA}: is larger than 128 KiB" in out.splitlines(), out)


def case_untrusted_certificate(deployment, run):
    code, out, _ = run(ca_file=False)
    check(code == 1, f"exit {code}")
    check(f"fail live https://{RETURN_HOST}{AASA}: the TLS handshake or certificate check failed"
          in out.splitlines(), out)


def case_usage_errors(deployment, run, directory):
    for arguments in (["--live", "http://127.0.0.1:1"], ["--ca-file", "x.pem"]):
        result = subprocess.run([str(BATON), "doctor", "--config", str(Path(directory, "baton.json")), *arguments],
                                capture_output=True, check=False, text=True, env={**ENVIRONMENT})
        check(result.returncode == 2 and result.stdout == "", f"{arguments}: {result.returncode} {result.stdout}")


CASES = [
    ("the generated files on both hosts pass", case_generated_files_pass),
    ("a missing webcredentials entry fails", case_missing_webcredentials),
    ("a wrong app id fails", case_wrong_app_id),
    ("a redirecting well-known URL fails and is not followed", case_redirecting_well_known_url),
    ("a file not served as application/json fails", case_wrong_content_type),
    ("a file over 128 KiB fails", case_oversized_file),
    ("without the test CA the certificate is not trusted (verification stays on)", case_untrusted_certificate),
]


def main():
    if not BATON.exists():
        subprocess.run(["swift", "build", "--product", "baton"], cwd=REPO, check=True)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="doctor-live-") as directory:
        make_certificates(directory)
        Path(directory, "baton.json").write_text(json.dumps(CONFIGURATION))
        deployment = Deployment()
        server = serve(deployment, directory)
        port = server.server_address[1]
        try:
            cases = CASES + [("usage: --live must be https, --ca-file needs --live",
                              lambda d, r: case_usage_errors(d, r, directory))]
            for name, function in cases:
                deployment.reset()
                deployment.requests.clear()
                try:
                    function(deployment, lambda ca_file=True: doctor(directory, port, ca_file))
                    passed += 1
                    print(f"ok   {name}", flush=True)
                except Exception as error:  # noqa: BLE001 - every failure is reported, the run goes on
                    failed += 1
                    print(f"FAIL {name}: {error}", flush=True)
        finally:
            server.shutdown()
    print(f"{passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
