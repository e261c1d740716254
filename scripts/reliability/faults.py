"""Faults from outside Baton's process (issue 19): PostgreSQL restarting under load, and the disk of the SQLite file
and of the log filling up. Each check takes (baton binary, profile) and returns {"failures", "logs", "secrets",
"dir"} like the checks in checks.py. Filesystems and databases are the check's own (a size-limited tmpfs, a
throwaway PostgreSQL cluster), created and removed by the check itself."""
import collections
import errno
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time

from checks import _result
from harness import (
    Harness,
    free_block,
    new_key,
    read_text,
    request,
    share,
    sign_webhook,
)
from loadgen import Load, _judge_taps, _latencies, _pct, _readyz, _wait
from outages import judge, timeline


class Postgres:
    """A PostgreSQL cluster of the check's own on 127.0.0.1, which the check stops and starts at will."""

    def __init__(self):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: [int(x) for x in p.split("/")[4].split(".")])
        if not bins:
            raise RuntimeError("PostgreSQL server not installed (scripts/install-deps)")
        self.bin = bins[-1]
        self.dir = tempfile.mkdtemp(prefix="baton-pgfault.")
        self.runas = []
        if os.getuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            os.chmod(self.dir, 0o700)
            self.runas = ["runuser", "-u", "postgres", "--"]
        self.port = free_block(1)
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        subprocess.run(self.runas + [f"{self.bin}/initdb", "-D", f"{self.dir}/data", "-U", "postgres", "-A", "trust",
                                     "-E", "UTF8", "--locale=C", "--no-sync"], check=True, capture_output=True)
        self.start()

    def ctl(self, *args):
        return subprocess.run(self.runas + [f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data"] + list(args),
                              capture_output=True, check=False, text=True, timeout=60)

    def start(self):
        r = self.ctl("-l", f"{self.dir}/log", "-w", "-o",
                     f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off -c max_connections=100",
                     "start")
        if r.returncode != 0:
            raise RuntimeError(f"pg_ctl start: {r.stderr.strip()[:200]}")

    def stop(self, mode):
        r = self.ctl("-m", mode, "-w", "stop")
        if r.returncode != 0:
            raise RuntimeError(f"pg_ctl stop -m {mode}: {r.stderr.strip()[:200]}")

    def psql(self, sql):
        return subprocess.run(["psql", self.url, "-Atc", sql], capture_output=True, text=True, check=True,
                              timeout=30).stdout

    def close(self):
        self.ctl("-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


# -- PostgreSQL restarts ----------------------------------------------------------------------------------------
def pg_restart(baton, profile):
    """Two `baton serve` on one PostgreSQL at a steady tap rate with webhook deliveries; PostgreSQL stopped with
    `-m fast` and `-m immediate` in turn and started again, several times. During each outage: retryable 503s and
    `/readyz` 503 on both; after it: both serve again without being restarted, no key with two journeys, every
    accepted webhook stored once."""
    h = Harness(baton, "pgrestart")
    failures, urls = [], []
    pg = None
    try:
        pg = Postgres()
        sb = h.start_sandbox()
        procs, (a, b), token = h.start_pair(pg.url, "pg-user")
        _, body = h.connect_session_webhook(a, token)
        hooks = collections.Counter()
        accepted = []
        readiness = []
        stop = threading.Event()

        def webhook_sender():
            n = 0
            while not stop.wait(0.1):
                n += 1
                msg = f"msg_pgrestart{n:012d}"
                ts = str(int(time.time()))
                headers = {"webhook-id": msg, "webhook-timestamp": ts,
                           "webhook-signature": sign_webhook(sb["bb"]["webhookSecret"], msg, ts, body)}
                try:
                    st, _, rb = request((a, b)[n % 2], "POST", "/webhooks/bb", body, headers, timeout=10)
                    answer = json.loads(rb).get("code") or json.loads(rb).get("status")
                except (OSError, ValueError):
                    st, answer = "transport", None
                hooks[f"{st} {answer}"] += 1
                if st == 200 and answer == "accepted":
                    accepted.append(msg)

        def ready_poller():
            while not stop.wait(0.05):
                readiness.append((time.monotonic(), _readyz(a), _readyz(b)))

        threads = [threading.Thread(target=f, daemon=True) for f in (webhook_sender, ready_poller)]
        for t in threads:
            t.start()
        load = Load([a, b], token, rate=profile["pg_rate"])
        windows, recoveries, not_ready, outages = [], [], [], []
        modes = ("fast", "immediate")
        for cycle in range(profile["pg_cycles"]):
            time.sleep(profile["pg_steady"])
            mode = modes[cycle % 2]
            down, stopping = time.monotonic(), time.time()
            pg.stop(mode)
            both_503 = _wait(lambda: _readyz(a) == 503 and _readyz(b) == 503, 15)
            not_ready.append(both_503)
            time.sleep(profile["pg_hold"])
            starting = time.time()
            pg.start()
            up = time.monotonic()
            outages.append((stopping, starting, time.time()))
            recovered = _wait(lambda: _readyz(a) == 200 and _readyz(b) == 200
                              and share(a, token, new_key(), timeout=5)[0] == 201
                              and share(b, token, new_key(), timeout=5)[0] == 201, 30)
            windows.append((down, time.monotonic()))
            recoveries.append((time.monotonic() - up) * 1000 if recovered else None)
            print(f"   cycle {cycle + 1}: stop -m {mode}, /readyz 503 on both: {both_503}; "
                  f"outage {(up - down) * 1000:.0f} ms, recovered "
                  f"{f'in {recoveries[-1]:.0f} ms after start' if recovered else 'NOT within 30 s'}")
        time.sleep(profile["pg_steady"])
        results = load.stop()
        stop.set()
        for t in threads:
            t.join()
        seen, urls, dupes = _judge_taps(h, results, failures, "pg-restart", "pg-user")
        # The probe shares of the recovery wait have keys of their own: they must not have two journeys either.
        sessions = collections.Counter(s["idempotencyKey"] for s in h.chia_sessions())
        if any(n > 1 for n in sessions.values()):
            failures.append(f"{sum(n > 1 for n in sessions.values())} keys with more than one Chia session")
        inside, outside = _latencies(load.attempts, windows)
        stored = pg.psql("SELECT webhook_id FROM webhook_events WHERE provider = 'bb' AND webhook_id LIKE "
                         "'msg_pgrestart%'").split()
        counts = collections.Counter(stored)
        missing_hooks = [m for m in accepted if counts[m] != 1]
        lines = {n: read_text(os.path.join(h.dir, f"{n}.log")) for n in ("instance-a", "instance-b")}
        down_lines = {n: t.count('"event":"store_unavailable"') for n, t in lines.items()}
        up_lines = {n: t.count('"event":"store_recovered"') for n, t in lines.items()}
        print(f"   {len(results)} taps at {profile['pg_rate']}/s across both instances, "
              f"{profile['pg_cycles']} outages; attempts by answer: {dict(seen)}")
        print(f"   attempt latency p50/p99: outside outages {_pct(outside, .5):.1f}/{_pct(outside, .99):.1f} ms, "
              f"during {_pct(inside, .5):.1f}/{_pct(inside, .99):.1f} ms; keys with two journeys: {dupes}")
        print(f"   webhooks: {dict(hooks)}; accepted {len(accepted)}, stored once {len(accepted) - len(missing_hooks)}")
        print(f"   store_unavailable lines {down_lines}, store_recovered lines {up_lines}")
        if not all(not_ready):
            failures.append(f"/readyz stayed ready during {not_ready.count(False)} outages")
        if None in recoveries:
            failures.append(f"{recoveries.count(None)} outages not recovered without restarting baton")
        for n, text in lines.items():
            wrong = judge(n, text, outages)
            failures += wrong
            if wrong:
                print("\n".join(timeline(n, text, outages)))
        if missing_hooks:
            failures.append(f"{len(missing_hooks)} accepted webhooks not stored exactly once")
        for n, p in zip(("instance-a", "instance-b"), procs):
            if p.poll() is not None:
                failures.append(f"{n} exited ({p.returncode}) during the restarts")
        failures = failures[:20]
    finally:
        h.close()
        if pg:
            pg.close()
    return _result(h, failures, urls)


# -- the disk fills ---------------------------------------------------------------------------------------------
class SmallDisk:
    """A size-limited tmpfs of the check's own, and a file that fills it."""

    def __init__(self, path, megabytes):
        os.makedirs(path)
        self.path = path
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m,mode=0755", "tmpfs", path],
                           capture_output=True, check=False, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"cannot mount a tmpfs (root needed): {r.stderr.strip()[:200]}")
        self.filler = os.path.join(path, "filler")

    def fill(self):
        chunk = b"\0" * (64 << 10)
        # Unbuffered: a buffered file keeps the chunk ENOSPC refused and fails again when closed.
        with open(self.filler, "ab", buffering=0) as f:
            try:
                while True:
                    f.write(chunk)
                    f.flush()
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
        # Small writes still fit in the last partial page: take those too.
        with open(self.filler, "ab", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 512)
            except OSError:
                pass

    def free(self):
        os.remove(self.filler)

    def close(self):
        subprocess.run(["umount", "-l", self.path], capture_output=True, check=False)


def disk_full(baton, profile):
    """SQLite on a 24 MiB tmpfs filled during steady load: shares refused `503 service_unavailable` with
    `Retry-After`, one log line saying why, no corrupt database, and service resumes by itself when space returns."""
    h = Harness(baton, "diskfull")
    failures, urls, disk = [], [], None
    try:
        disk = SmallDisk(os.path.join(h.dir, "disk"), 24)
        path = os.path.join(disk.path, "baton.sqlite")
        h.start_sandbox()
        port = free_block(1)
        proc = h.start_backend(port, "sqlite:" + path, name="backend")
        token = h.token("disk-user")
        h.wait(lambda: h.shareable(port, token), "backend")
        load = Load([port], token, rate=profile["disk_rate"], workers=8)
        time.sleep(1)
        started = time.monotonic()
        disk.fill()
        refused = _wait(lambda: any(x[2][0] == 503 and x[0] >= started for x in list(load.attempts)), 30)
        full_at = time.monotonic()
        time.sleep(profile["disk_hold"])
        ready_when_full = _readyz(port)
        disk.free()
        freed = time.monotonic()
        resumed = _wait(lambda: share(port, token, new_key(), timeout=5)[0] == 201, 30)
        resumed_ms = (time.monotonic() - freed) * 1000
        time.sleep(1)
        results = load.stop()
        seen, urls, _ = _judge_taps(h, results, failures, "disk-full", "disk-user")
        inside, outside = _latencies(load.attempts, [(started, time.monotonic() - 1)])
        h.close()
        with sqlite3.connect(path) as db:
            integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        text = read_text(os.path.join(h.dir, "backend.log"))
        down = [l for l in text.splitlines() if '"event":"store_unavailable"' in l]
        up = text.count('"event":"store_recovered"')
        print(f"   {len(results)} taps at {profile['disk_rate']}/s; first 503 "
              f"{full_at - started:.1f} s after the fill; attempts by answer: {dict(seen)}")
        print(f"   during the fill p50/p99 {_pct(inside, .5):.1f}/{_pct(inside, .99):.1f} ms, outside "
              f"{_pct(outside, .5):.1f}/{_pct(outside, .99):.1f} ms; /readyz while full: {ready_when_full}")
        print(f"   service resumed {resumed_ms:.0f} ms after space returned; integrity_check: {integrity}; "
              f"store_unavailable lines {len(down)} ({down[0][down[0].find('reason'):][:30] if down else ''}…), "
              f"store_recovered lines {up}")
        if not refused:
            failures.append("no share was refused 503 while the disk was full")
        if not resumed:
            failures.append("service did not resume within 30 s of space returning")
        if integrity != "ok":
            failures.append(f"PRAGMA integrity_check: {integrity}")
        if len(down) != 1 or '"reason":"disk_full"' not in down[0]:
            failures.append(f"{len(down)} store_unavailable lines (expected one, reason disk_full)")
        if up != 1:
            failures.append(f"{up} store_recovered lines (expected one)")
        if proc.returncode not in (0, None):
            failures.append(f"the backend exited {proc.returncode}")
        failures = failures[:20]
    finally:
        h.close()
        if disk:
            disk.close()
    return _result(h, failures, urls)


def log_full(baton, profile):
    """The log destination (the backend's standard output and error, redirected to a file on a 2 MiB tmpfs) fills
    during load, for longer than the catalog sync interval (whose progress lines go to standard output):
    shares keep being answered, the backend keeps running, and once space returns one line says how many lines were
    lost and why."""
    h = Harness(baton, "logfull")
    failures, urls, disk = [], [], None
    try:
        disk = SmallDisk(os.path.join(h.dir, "logdisk"), 2)
        h.start_sandbox()
        port = free_block(1)
        log = os.path.join(disk.path, "backend.log")
        h.logs.append(log)
        cfg = h.config(port, sync_seconds=5)  # a catalog sync line on stdout every 5 s: written while full
        with open(log, "a") as out:
            proc = subprocess.Popen(
                [baton, "serve", "--config", cfg, "--database", "sqlite:" + os.path.join(h.dir, "baton.sqlite")],
                stdout=out, stderr=subprocess.STDOUT, cwd=h.dir, env=h.env())
        h.procs.append(proc)
        token = h.token("log-user")
        h.wait(lambda: h.shareable(port, token), "backend")
        load = Load([port], token, rate=profile["disk_rate"], workers=8)
        time.sleep(0.5)
        disk.fill()
        time.sleep(profile["log_hold"])
        alive_when_full = proc.poll() is None
        disk.free()
        logged = alive_when_full and _wait(lambda: "log_lines_lost" in read_text(log), 20)
        results = load.stop(abort=not alive_when_full)
        seen, urls, _ = _judge_taps(h, results, failures, "log-full", "log-user")
        lost = [l for l in read_text(log).splitlines() if "log_lines_lost" in l]
        print(f"   {len(results)} taps at {profile['disk_rate']}/s, attempts by answer: {dict(seen)}; backend alive "
              f"while the log disk was full: {alive_when_full}; after space returned: {lost[:2]}")
        if not alive_when_full or proc.poll() is not None:
            failures.insert(0, f"the backend stopped when its log destination filled (exit {proc.poll()})")
        if not logged or '"reason":"no_space"' not in lost[0]:
            failures.append("no log_lines_lost line with reason no_space once space returned")
        h.close()
        out.close()
        # Keep the log for the secret scan after the tmpfs goes.
        shutil.copy(log, os.path.join(h.dir, "backend.log"))
        h.logs[h.logs.index(log)] = os.path.join(h.dir, "backend.log")
        failures = failures[:20]
    finally:
        h.close()
        if disk:
            disk.close()
    return _result(h, failures, urls)


CHECKS = {"pg-restart": pg_restart, "disk-full": disk_full, "log-full": log_full}
