"""A TLS front for the landing suite: what the partner's load balancer does in production, on 127.0.0.1.

The sandbox's journeys redirect to the registered return URLs on https://app.example.com; in production that host
reaches `baton serve` through a TLS-terminating proxy. This front does the same for the browser test: a throwaway
certificate for the return host and the open host (made with openssl), TLS on an ephemeral 127.0.0.1 port, every
byte passed on unchanged to `baton serve` on 127.0.0.1. Chromium is pointed at it with --host-resolver-rules and
told to accept exactly this certificate with --ignore-certificate-errors-spki-list.
"""

import base64
import hashlib
import socket
import ssl
import subprocess
import threading
from pathlib import Path


def make_certificate(directory, hosts):
    """A self-signed certificate for `hosts`; returns (certificate, key, base64 SHA-256 of its public key)."""
    certificate, key = Path(directory, "front.pem"), Path(directory, "front.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(certificate), "-days", "1", "-subj", f"/CN={hosts[0]}",
                    "-addext", "subjectAltName=" + ",".join(f"DNS:{h}" for h in hosts)],
                   check=True, capture_output=True)
    public_key = subprocess.run(["openssl", "x509", "-in", str(certificate), "-pubkey", "-noout"],
                                check=True, capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public_key,
                         check=True, capture_output=True).stdout
    return certificate, key, base64.b64encode(hashlib.sha256(der).digest()).decode()


class TLSFront:
    def __init__(self, directory, hosts, backend_port):
        self.certificate, self.key, self.spki = make_certificate(directory, hosts)
        self.backend_port = backend_port
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(self.certificate, self.key)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.running = True
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client):
        try:
            secure = self.context.wrap_socket(client, server_side=True)
        except (ssl.SSLError, OSError):
            client.close()
            return
        upstream = socket.create_connection(("127.0.0.1", self.backend_port))
        threading.Thread(target=self.pipe, args=(upstream, secure), daemon=True).start()
        self.pipe(secure, upstream)

    @staticmethod
    def pipe(source, target):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def stop(self):
        self.running = False
        self.listener.close()
