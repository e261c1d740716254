#!/usr/bin/env python3
"""A small TCP forwarder of the reliability suite's own, with an adjustable delay.

  tcpproxy.py LISTEN_HOST:PORT=TARGET_HOST:PORT …     (as a process: runs until SIGTERM)

Each accepted connection is joined to a new connection to its target; bytes are copied both ways. With a delay,
every chunk is passed on `delay ± jitter` ms after it arrived: chunks of one connection keep their order (a byte
stream cannot be reordered without corrupting it), while requests and answers of different connections overtake
each other — the reordering an app-facing backend can meet. Listens where it is told only; the suite gives it
127.0.0.1 or the address of a veth pair it created itself."""
import queue
import random
import signal
import socket
import sys
import threading
import time


class Proxy:
    def __init__(self, listen, target, delay_ms=0.0, jitter_ms=0.0, seed=1):
        self.target = target
        self.delay_ms, self.jitter_ms = delay_ms, jitter_ms
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.server = socket.create_server(listen, reuse_port=False)
        self.server.settimeout(0.2)
        self.closed = threading.Event()
        self.sockets = set()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def set_delay(self, delay_ms, jitter_ms):
        with self.lock:
            self.delay_ms, self.jitter_ms = delay_ms, jitter_ms

    def _hold(self):
        with self.lock:
            if not self.delay_ms:
                return 0.0
            return max(0.0, self.delay_ms + self.rng.uniform(-self.jitter_ms, self.jitter_ms)) / 1000

    def _accept(self):
        while not self.closed.is_set():
            try:
                client, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._join, args=(client,), daemon=True).start()

    def _join(self, client):
        try:
            upstream = socket.create_connection(self.target, timeout=60)
        except OSError:
            client.close()
            return
        with self.lock:
            self.sockets |= {client, upstream}
        pending = [2]
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(a, b, pending), daemon=True).start()

    def _pump(self, source, sink, pending):
        """Copies source to sink, each chunk passed on `delay ± jitter` ms after it arrived, in order, however many
        follow it (the reader never waits for the writer, so the delay does not cap the throughput at one chunk per
        delay); at the end of source, half-closes sink; the second pump to end closes both. No Nagle delay, as
        PostgreSQL and libcurl set on their own sockets: with it, delayed ACKs add ~40 ms to small answers."""
        held = queue.Queue()
        for s in (source, sink):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def writer():
            how = socket.SHUT_WR
            due = 0.0
            try:
                while True:
                    item = held.get()
                    if item is None or item is OSError:
                        how = socket.SHUT_RDWR if item is OSError else how
                        break
                    arrived, hold, chunk = item
                    # Order is kept: a chunk never overtakes the one before it on its connection.
                    due = max(due, arrived + hold)
                    time.sleep(max(0.0, due - time.monotonic()))
                    sink.sendall(chunk)
            except OSError:
                how = socket.SHUT_RDWR
            try:
                sink.shutdown(how)
            except OSError:
                pass
            with self.lock:
                pending[0] -= 1
                last = pending[0] == 0 or how == socket.SHUT_RDWR
                if last:
                    self.sockets -= {source, sink}
            if last:
                for s in (source, sink):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    s.close()

        threading.Thread(target=writer, daemon=True).start()
        try:
            while True:
                chunk = source.recv(65536)
                if not chunk:
                    break
                held.put((time.monotonic(), self._hold(), chunk))
        except OSError:
            held.put(OSError)
            return
        held.put(None)

    def close(self):
        self.closed.set()
        self.server.close()
        with self.lock:
            for s in list(self.sockets):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def _address(text):
    host, port = text.rsplit(":", 1)
    return host, int(port)


if __name__ == "__main__":
    proxies = [Proxy(_address(a), _address(b)) for a, b in (arg.split("=") for arg in sys.argv[1:])]
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    print("ready", flush=True)
    while not done.wait(0.5):
        pass
    for p in proxies:
        p.close()
