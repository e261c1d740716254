"""Faults from outside Baton's process (issue 19): PostgreSQL restarting under load, the disk of the SQLite file and
of the log filling up, and providers whose clock is ten minutes off. Each check takes (baton binary, profile) and
returns {"failures", "logs", "secrets", "dir"} like the checks in checks.py. Filesystems and databases are the
check's own (a size-limited tmpfs, a throwaway PostgreSQL cluster), created and removed by the check itself."""
import collections, concurrent.futures, errno, glob, http.client, json, os, shutil, sqlite3, subprocess, tempfile, threading, time

from checks import RETRYABLE, _journey_urls, _metric, _result
from harness import SEALING_KEY, SIGNING_KEY, Harness, free_block, new_key, request, share, share_body, sign_webhook


def _pct(values, p):
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


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
                              capture_output=True, text=True, timeout=60)

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


class Load:
    """Taps at a steady rate (one fresh key each, the app's retry rules, `workers` in flight) on the given ports,
    every attempt recorded with its time and latency, until `stop()`."""

    def __init__(self, ports, token, rate, workers=16):
        self.ports, self.token, self.rate = ports, token, rate
        self.pool = concurrent.futures.ThreadPoolExecutor(workers)
        self.futures, self.keys, self.attempts = [], [], []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _one(self, index, key):
        """One tap with the app's retry rules (as `_tap` in checks.py), each attempt recorded as it is answered:
        (start, seconds to the answer, answer)."""
        answers = []
        body = share_body()
        for attempt in range(400):
            started = time.monotonic()
            try:
                status, headers, raw = share(self.ports[(index + attempt) % len(self.ports)], self.token, key, body,
                                             timeout=30)
                answer = (status, raw, headers)
            except Exception as error:  # transport failure: retry, keeping the key
                answer = ("transport", type(error).__name__)
            with self.lock:
                self.attempts.append((started, time.monotonic() - started, answer))
            answers.append(answer)
            if answer[0] == "transport":
                time.sleep(0.05)
                continue
            if status == 201:
                return (status, raw), answers
            if status in RETRYABLE:
                try:
                    delay = float(headers.get("retry-after", "0.2"))
                except ValueError:
                    delay = 0.2
                time.sleep(min(max(delay, 0.05), 1.0))
                continue
            return (status, raw), answers
        return None, answers

    def _run(self):
        index = 0
        while not self.stopping.wait(1.0 / self.rate):
            key = new_key()
            self.keys.append(key)
            self.futures.append((key, self.pool.submit(self._one, index, key)))
            index += 1

    def stop(self):
        self.stopping.set()
        self.thread.join()
        results = {k: f.result() for k, f in self.futures}
        self.pool.shutdown()
        return results


def _judge_taps(h, results, failures, label):
    """Every tap ends 201 after retryable answers only, and its key has exactly one Chia session."""
    seen = collections.Counter()
    urls = []
    for key, (final, answers) in results.items():
        for a in answers:
            if a[0] == "transport":
                seen["transport"] += 1
                continue
            status, raw, headers = a
            code = None
            if status != 201:
                try:
                    code = json.loads(raw).get("code")
                except ValueError:
                    code = "not-json"
                if status not in RETRYABLE or "retry-after" not in headers:
                    failures.append(f"{label}: answer {status} {code} outside the idempotency table")
            seen[f"{status} {code}" if code else str(status)] += 1
        urls += _journey_urls(answers)
        if final is None or final[0] != 201:
            failures.append(f"{label}: key {key[:8]}… final {final[0] if final else 'none'}")
    sessions = collections.Counter(s["idempotencyKey"] for s in h.chia_sessions())
    dupes = sum(1 for k in results if sessions[k] > 1)
    missing = sum(1 for k in results if sessions[k] == 0)
    if seen.get("transport"):
        failures.append(f"{label}: {seen['transport']} attempts met a transport error (a tap not answered)")
    if dupes or missing:
        failures.append(f"{label}: {dupes} keys with two journeys, {missing} without one")
    return seen, urls, dupes


def _latencies(attempts, windows):
    inside, outside = [], []
    for start, took, _ in attempts:
        (inside if any(a <= start <= b for a, b in windows) else outside).append(took * 1000)
    return inside, outside


def _wait(predicate, limit):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            if predicate():
                return True
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.02)
    return False


def _readyz(port):
    try:
        return request(port, "GET", "/readyz", timeout=2)[0]
    except OSError:
        return "transport"


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
        a, b = free_block(1), free_block(1)
        procs = [h.start_backend(a, pg.url, name="instance-a"), h.start_backend(b, pg.url, name="instance-b")]
        token = h.token("pg-user")
        for port in (a, b):
            h.wait(lambda: h.shareable(port, token), f"instance on {port}")
        s, _, raw = request(a, "POST", "/v2/connect-sessions", json.dumps({"callback": "https"}),
                            {"Authorization": f"Bearer {token}"})
        assert s == 201, (s, raw)
        session_id = json.loads(raw)["sessionId"]
        bb = sb["bb"]
        bb_port = int(bb["origin"].rsplit(":", 1)[1])
        state = json.loads(request(bb_port, "GET", f"/v2/connect-sessions/{session_id}",
                                   headers={"X-Api-Key": bb["apiKey"], "X-Client-Id": bb["clientId"]})[2])
        body = json.dumps({"type": "connect_session.updated", "timestamp": state["updatedAt"], "data": state},
                          sort_keys=True).encode()
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
                           "webhook-signature": sign_webhook(bb["webhookSecret"], msg, ts, body)}
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
        windows, recoveries, not_ready = [], [], []
        modes = ("fast", "immediate")
        for cycle in range(profile["pg_cycles"]):
            time.sleep(profile["pg_steady"])
            mode = modes[cycle % 2]
            down = time.monotonic()
            pg.stop(mode)
            both_503 = _wait(lambda: _readyz(a) == 503 and _readyz(b) == 503, 15)
            not_ready.append(both_503)
            time.sleep(profile["pg_hold"])
            pg.start()
            up = time.monotonic()
            recovered = _wait(lambda: _readyz(a) == 200 and _readyz(b) == 200
                              and share(a, token, new_key(), timeout=5)[0] == 201
                              and share(b, token, new_key(), timeout=5)[0] == 201, 30)
            windows.append((down, time.monotonic()))
            recoveries.append((time.monotonic() - up) * 1000 if recovered else None)
            print(f"   cycle {cycle + 1}: stop -m {mode}, /readyz 503 on both: {both_503}; "
                  f"outage {(up - down) * 1000:.0f} ms, recovered "
                  f"{'in %.0f ms after start' % recoveries[-1] if recovered else 'NOT within 30 s'}")
        time.sleep(profile["pg_steady"])
        results = load.stop()
        stop.set()
        for t in threads:
            t.join()
        seen, urls, dupes = _judge_taps(h, results, failures, "pg-restart")
        # The probe shares of the recovery wait have keys of their own: they must not have two journeys either.
        sessions = collections.Counter(s["idempotencyKey"] for s in h.chia_sessions())
        if any(n > 1 for n in sessions.values()):
            failures.append(f"{sum(n > 1 for n in sessions.values())} keys with more than one Chia session")
        inside, outside = _latencies(load.attempts, windows)
        stored = pg.psql("SELECT webhook_id FROM webhook_events WHERE provider = 'bb' AND webhook_id LIKE "
                         "'msg_pgrestart%'").split()
        counts = collections.Counter(stored)
        missing_hooks = [m for m in accepted if counts[m] != 1]
        lines = {n: open(os.path.join(h.dir, f"{n}.log")).read() for n in ("instance-a", "instance-b")}
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
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"cannot mount a tmpfs (root needed): {r.stderr.strip()[:200]}")
        self.filler = os.path.join(path, "filler")

    def fill(self):
        chunk = b"\0" * (64 << 10)
        with open(self.filler, "ab") as f:
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
        subprocess.run(["umount", "-l", self.path], capture_output=True)


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
        seen, urls, dupes = _judge_taps(h, results, failures, "disk-full")
        inside, outside = _latencies(load.attempts, [(started, time.monotonic() - 1)])
        h.close()
        with sqlite3.connect(path) as db:
            integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        text = open(os.path.join(h.dir, "backend.log")).read()
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
    """The log destination (the backend's standard error, redirected to a file on a 2 MiB tmpfs) fills during load:
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
        out = open(log, "a")
        cfg = h.config(port)
        proc = subprocess.Popen(
            [baton, "serve", "--config", cfg, "--database", "sqlite:" + os.path.join(h.dir, "baton.sqlite")],
            stdout=out, stderr=subprocess.STDOUT, cwd=h.dir, env=h.env())
        h.procs.append(proc)
        token = h.token("log-user")
        h.wait(lambda: h.shareable(port, token), "backend")
        load = Load([port], token, rate=profile["disk_rate"], workers=8)
        time.sleep(0.5)
        disk.fill()
        time.sleep(profile["disk_hold"])
        alive_when_full = proc.poll() is None
        disk.free()
        logged = _wait(lambda: "log_lines_lost" in open(log, errors="replace").read(), 20)
        results = load.stop()
        seen, urls, _ = _judge_taps(h, results, failures, "log-full")
        lost = [l for l in open(log, errors="replace").read().splitlines() if "log_lines_lost" in l]
        print(f"   {len(results)} taps at {profile['disk_rate']}/s, attempts by answer: {dict(seen)}; backend alive "
              f"while the log disk was full: {alive_when_full}; after space returned: {lost[:2]}")
        if not alive_when_full or proc.poll() is not None:
            failures.append(f"the backend stopped when its log destination filled (exit {proc.poll()})")
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


# -- clock skew -------------------------------------------------------------------------------------------------
def clock_skew(baton, profile):
    """The providers' clock 10 minutes ahead of, then behind, the backend's (`baton sandbox --clock-offset`): the
    providers' webhooks are refused, counted and logged with the skew, and the polled result path still reaches the
    right final state for BB and Privue; a share still gets its journey."""
    failures, logs, secrets, dirs = [], [], [], []
    for offset in (600, -600):
        h = Harness(baton, f"skew{offset:+d}")
        try:
            port = free_block(1)
            sb = start_skewed_sandbox(h, offset, port)
            h.start_backend(port, "sqlite:" + os.path.join(h.dir, "baton.sqlite"))
            token = h.token("skew-user")
            auth = {"Authorization": f"Bearer {token}"}
            h.wait(lambda: h.shareable(port, token), "backend")
            share_status = share(port, token, new_key())[0]
            # BB: a connect session completed on the provider; its webhook is refused; the poll finds the outcome.
            s, _, raw = request(port, "POST", "/v2/connect-sessions", json.dumps({"callback": "https"}), auth)
            session_id = json.loads(raw)["sessionId"]
            bb_port = int(sb["bb"]["origin"].rsplit(":", 1)[1])
            request(bb_port, "POST", f"/_sandbox/journeys/{session_id}/complete", '{"resultCode":"Ok"}')
            # Privue: the same for a verification.
            s, _, raw = request(port, "POST", "/v2/verification-handoffs", json.dumps({"workflow": "merchant-onboarding"}),
                                auth)
            s2, _, raw2 = request(port, "GET", "/v2/verifications/merchant-onboarding", headers=auth)
            verification = json.loads(raw2)["verificationId"]
            pv_port = int(sb["privue"]["origin"].rsplit(":", 1)[1])
            request(pv_port, "POST", f"/_sandbox/journeys/{verification}/complete", '{"status":"approved"}')
            rejected = lambda: _metric(port, "baton_webhook_verifications_total", provider="bb",
                                       result="timestamp_out_of_tolerance") >= 1 and _metric(
                port, "baton_webhook_verifications_total", provider="privue", result="timestamp_out_of_tolerance") >= 1
            counted = _wait(rejected, 20)
            bb_state = json.loads(request(port, "GET", f"/v2/connect-sessions/{session_id}", headers=auth)[2])
            pv_state = json.loads(request(port, "GET", "/v2/verifications/merchant-onboarding", headers=auth)[2])
            accepted = sum(_metric(port, "baton_webhook_verifications_total", provider=p, result="accepted")
                           for p in ("bb", "privue"))
            h.close()
            lines = [l for l in open(os.path.join(h.dir, "backend.log")).read().splitlines()
                     if '"event":"webhook_rejected"' in l]
            skews = sorted({json.loads(l).get("skew_seconds") for l in lines})
            print(f"   providers {offset:+d} s: share {share_status}; webhooks refused and counted: {counted}, "
                  f"accepted {accepted}; rejection lines {len(lines)} with skew_seconds {skews}; polled BB "
                  f"{bb_state.get('status')}, Privue {pv_state.get('status')}")
            if share_status != 201:
                failures.append(f"{offset:+d} s: share answered {share_status}")
            if not counted or accepted:
                failures.append(f"{offset:+d} s: webhooks not refused as out of tolerance (accepted {accepted})")
            if not lines or any(s is None or abs(s - offset) > 5 for s in skews):
                failures.append(f"{offset:+d} s: rejection lines {len(lines)} with skews {skews}")
            if bb_state.get("status") != "ok" or not bb_state.get("connectionId"):
                failures.append(f"{offset:+d} s: BB polled state {bb_state}")
            if pv_state.get("status") != "approved":
                failures.append(f"{offset:+d} s: Privue polled state {pv_state}")
        finally:
            h.close()
        logs += h.logs
        secrets += h.secrets
        dirs.append(h.dir)
    return {"failures": failures, "logs": logs, "secrets": secrets, "dirs": dirs}


def start_skewed_sandbox(h, offset, webhook_port):
    """`baton sandbox --clock-offset` delivering its webhooks to the backend on `webhook_port`."""
    port = free_block(3)
    args = [h.baton, "sandbox", "--port", str(port), "--json", "--clock-offset", str(offset),
            "--privue-webhook", f"http://127.0.0.1:{webhook_port}/webhooks/privue",
            "--bb-webhook", f"http://127.0.0.1:{webhook_port}/webhooks/bb"]
    log = os.path.join(h.dir, "sandbox.log")
    h.logs.append(log)
    out = open(log, "w")
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=out, text=True)
    h.procs.append(p)
    info = json.loads(p.stdout.readline())
    threading.Thread(target=lambda: [out.write(l) for l in p.stdout], daemon=True).start()
    info["port"] = port
    h.sandbox = info
    for k in ("chia", "privue", "bb"):
        h.secrets.append(info[k]["apiKey"])
    for k in ("privue", "bb"):
        h.secrets += [info[k]["webhookSecret"], info[k]["webhookSecret"][len("whsec_"):]]
    h.secrets += [info["bb"]["clientId"], SIGNING_KEY, SEALING_KEY]
    h.wait(lambda: request(port, "GET", "/_sandbox/state")[0] == 200, "sandbox")
    return info


CHECKS = {"pg-restart": pg_restart, "disk-full": disk_full, "log-full": log_full, "clock-skew": clock_skew}
