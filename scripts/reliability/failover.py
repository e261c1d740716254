"""PostgreSQL failover under load (issue 34): a primary and a streaming standby of the check's own on 127.0.0.1, two
`baton serve` sharing them through one libpq multi-host URL, shares and webhooks at a steady rate with the apps' and
the providers' retries; then the primary is killed (`pg_ctl stop -m immediate`) and the standby promoted
(`pg_ctl promote`), once with asynchronous and once with synchronous replication.

Replication goes through the suite's own TCP proxy (tcpproxy.py) with a small steady delay, as between two hosts;
for the last moment before the kill the delay is raised (a congested link), and at the kill the link is cut with
the primary (a lost host: what was on the way never arrives), so an asynchronous standby is measurably behind when
the primary dies. The check counts the records that were lost with it (shares answered 201
and webhooks accepted before the kill that the new primary does not hold) and shows each recovered: the share sent
again with its key and body gets the same journey (the backend's fresh claim calls Chia with the key derived from
user and app key, and Chia replays), the webhook redelivered is stored once. With synchronous replication none may
be lost."""
import collections
import glob
import json
import os
import shutil
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
    retry_wait,
    share,
    share_body,
    sign_webhook,
)
from loadgen import Load, _judge_taps, _latencies, _pct, _readyz, _wait
from tcpproxy import Proxy

USER = "failover-user"


class Replicated:
    """A primary and one streaming standby (pg_basebackup -R), the standby fed through a delaying proxy."""

    def __init__(self, synchronous, lag_ms):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: [int(x) for x in p.split("/")[4].split(".")])
        if not bins:
            raise RuntimeError("PostgreSQL server not installed (scripts/install-deps)")
        self.bin = bins[-1]
        self.dir = tempfile.mkdtemp(prefix="baton-pgfailover.")
        self.runas = []
        if os.getuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            os.chmod(self.dir, 0o700)
            self.runas = ["runuser", "-u", "postgres", "--"]
        self.primary_port, self.standby_port, proxy_port = free_block(1), free_block(1), free_block(1)
        self.primary, self.standby = f"{self.dir}/primary", f"{self.dir}/standby"
        self.proxy = None
        try:
            self._set_up(synchronous, lag_ms, proxy_port)
        except BaseException:
            self.close()  # what was started before the failure (a primary, the proxy) is stopped and removed
            raise
        self.url = f"postgres://postgres@127.0.0.1:{self.primary_port},127.0.0.1:{self.standby_port}/postgres"

    def _set_up(self, synchronous, lag_ms, proxy_port):
        self.run("initdb", "-D", self.primary, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
        sync = "-c synchronous_standby_names=standby1 " if synchronous else ""
        self.start(self.primary, self.primary_port, sync)
        self.proxy = Proxy(("127.0.0.1", proxy_port), ("127.0.0.1", self.primary_port), lag_ms, 0)
        self.run("pg_basebackup", "-D", self.standby, "-h", "127.0.0.1", "-p", str(self.primary_port), "-U", "postgres",
                 "-X", "stream", "-R", "--no-sync")
        # -R wrote primary_conninfo for the primary's own port: the standby streams through the proxy instead.
        with open(f"{self.standby}/postgresql.auto.conf", "a") as f:
            f.write(f"primary_conninfo = 'host=127.0.0.1 port={proxy_port} user=postgres "
                    f"application_name=standby1'\n")
        self.start(self.standby, self.standby_port, "")
        want = "sync" if synchronous else "async"
        if not _wait(lambda: self.psql(self.primary_port, "SELECT sync_state FROM pg_stat_replication WHERE "
                                       "state = 'streaming'").strip() == want, 30):
            raise RuntimeError(f"the standby is not streaming ({want}) after 30 s")

    def run(self, tool, *args):
        r = subprocess.run(self.runas + [f"{self.bin}/{tool}"] + list(args), capture_output=True, text=True,
                           timeout=120, check=False)
        if r.returncode != 0:
            raise RuntimeError(f"{tool}: {r.stderr.strip()[:300]}")
        return r

    def start(self, data, port, extra):
        self.run("pg_ctl", "-D", data, "-l", f"{data}.log", "-w", "-o",
                 f"-p {port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off -c max_connections=100 {extra}",
                 "start")

    def kill_primary(self):
        self.run("pg_ctl", "-D", self.primary, "-m", "immediate", "-w", "stop")

    def promote(self):
        self.run("pg_ctl", "-D", self.standby, "-w", "promote")

    def psql(self, port, sql):
        return subprocess.run(["psql", f"postgres://postgres@127.0.0.1:{port}/postgres", "-Atc", sql],
                              capture_output=True, text=True, check=True, timeout=30).stdout

    def close(self):
        if self.proxy:
            self.proxy.close()
        for data in (self.primary, self.standby):
            if os.path.exists(f"{data}/postmaster.pid"):
                subprocess.run(self.runas + [f"{self.bin}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                               capture_output=True, timeout=60, check=False)
        shutil.rmtree(self.dir, ignore_errors=True)


class KeyedLoad(Load):
    """The fault checks' load, also remembering each key's 201 (when it was answered, and its journey URL)."""

    def __init__(self, *args, **kwargs):
        self.answered = {}
        super().__init__(*args, **kwargs)

    def _one(self, index, key):
        final, answers = super()._one(index, key)
        if final and final[0] == 201:
            with self.lock:
                # The last attempt is the 201: its start plus its duration is when the app had its journey.
                start, took, *_ = next(a for a in reversed(self.attempts) if a[2] is answers[-1])
                self.answered[key] = (start + took, json.loads(final[1])["url"], start)
        return final, answers


def metrics(*ports):
    """503 answers by route and share outcomes, summed over the instances' `/metrics`."""
    counted = collections.Counter()
    for port in ports:
        for line in request(port, "GET", "/metrics")[2].decode().splitlines():
            value = int(float(line.rsplit(" ", 1)[1])) if line.startswith("baton_") else 0
            if line.startswith("baton_http_requests_total{") and 'status="503"' in line:
                counted["503 " + line.split('route="')[1].split('"')[0]] += value
            elif line.startswith("baton_idempotency_outcomes_total{"):
                counted[line.split('outcome="')[1].split('"')[0]] += value
    return counted


def failover(baton, profile, synchronous):
    mode = "synchronous" if synchronous else "asynchronous"
    h = Harness(baton, "failover-" + mode[:4])
    failures, urls = [], []
    pg = None
    try:
        pg = Replicated(synchronous, profile["fo_lag_ms"])
        sb = h.start_sandbox()
        # The asynchronous run gives the URL as docs/production.md advises; the synchronous one leaves
        # target_session_attrs out, so the backend's own default (read-write) is what keeps it off the standby.
        url = pg.url if synchronous else pg.url + "?target_session_attrs=read-write"
        procs, (a, b), token = h.start_pair(url, USER)
        _, hook_body = h.connect_session_webhook(a, token)
        prefix = f"msg_fo{mode[:4]}"

        def deliver(msg, n, attempts=200):
            """A provider's delivery of one webhook: redelivered (same id and body) until a 2xx. Returns the answers."""
            answers = []
            for attempt in range(attempts):
                started = time.monotonic()
                ts = str(int(time.time()))
                headers = {"webhook-id": msg, "webhook-timestamp": ts,
                           "webhook-signature": sign_webhook(sb["bb"]["webhookSecret"], msg, ts, hook_body)}
                try:
                    st, hd, rb = request((a, b)[(n + attempt) % 2], "POST", "/webhooks/bb", hook_body, headers,
                                         timeout=10)
                    answer = json.loads(rb).get("code") or json.loads(rb).get("status")
                except (OSError, ValueError):
                    st, hd, answer = "transport", {}, None
                answers.append((time.monotonic(), st, answer, started))
                if st == 200:
                    return answers
                time.sleep(retry_wait(hd) if st != "transport" else 0.05)
            return answers

        hooks = {}
        readiness = []
        stop = threading.Event()

        def webhook_sender():
            n = 0
            while not stop.wait(1.0 / profile["fo_hook_rate"]):
                n += 1
                msg = f"{prefix}{n:010d}"
                hooks[msg] = deliver(msg, n)

        def ready_poller():
            while not stop.wait(0.05):
                began = time.monotonic()
                answers = (_readyz(a), _readyz(b))
                readiness.append((began, time.monotonic()) + answers)

        threads = [threading.Thread(target=f, daemon=True) for f in (webhook_sender, ready_poller)]
        for t in threads:
            t.start()
        load = KeyedLoad([a, b], token, rate=profile["fo_rate"])
        time.sleep(profile["fo_steady"])
        before_kill = metrics(a, b)
        # The link to the standby slows down just before the primary is lost.
        stalled = time.monotonic()
        pg.proxy.set_delay(profile["fo_stall_ms"], 0)
        time.sleep(profile["fo_stall_ms"] / 1000)
        killed = time.monotonic()
        # The primary's host is lost with its link: WAL still on the way to the standby never arrives.
        pg.proxy.close()
        pg.kill_primary()
        # Until `pg_ctl stop` returns, the old primary may still commit (and answer) what the standby never gets: a
        # request that started before this may be lost with it, one that started after cannot be.
        dead = time.monotonic()
        probe = {}

        def prober():
            """A fresh share every 20 ms, alternating instances, until one is answered 201: when service returned,
            apart from the pacing of the apps' retries (Retry-After)."""
            n = 0
            while not stop.is_set() and "at" not in probe:
                n += 1
                try:
                    if share((a, b)[n % 2], token, new_key(), timeout=10)[0] == 201:
                        probe["at"] = time.monotonic()
                except OSError:
                    pass
                time.sleep(0.02)

        threads.append(threading.Thread(target=prober, daemon=True))
        threads[-1].start()
        gap_503 = _wait(lambda: _readyz(a) == 503 and _readyz(b) == 503, 15)
        time.sleep(profile["fo_gap"])
        promoting = time.monotonic()
        pg.promote()
        promoted = time.monotonic()
        recovered = _wait(lambda: _readyz(a) == 200 and _readyz(b) == 200, 30)
        time.sleep(profile["fo_after"])
        results = load.stop()
        stop.set()
        for t in threads:
            t.join()
        pg.proxy.close()
        # Polls begun half a second after the kill and answered before the promotion began.
        ready_in_gap = [r[2:] for r in readiness if killed + 0.5 <= r[0] and r[1] <= promoting]
        seen, urls, _dupes = _judge_taps(h, results, failures, f"failover-{mode[:4]}", USER)
        first_201 = min((s + t for s, t, ans, _ in load.attempts if ans[0] == 201 and s >= killed), default=None)
        inside, _outside = _latencies(load.attempts, [(killed, promoted + 1.0)])
        # Attempts answered before the link slowed down: what the replication mode costs a share in steady state.
        steady = [t * 1000 for s, t, *_ in load.attempts if s + t < stalled]

        # -- what the new primary holds ----------------------------------------------------------------------------
        stored_keys = set(pg.psql(pg.standby_port, f"SELECT idempotency_key FROM idempotency_records WHERE user_id = "
                                                   f"'{USER}'").split())
        done_before = {k: v for k, v in load.answered.items() if v[2] < dead}
        lost_shares = sorted(k for k in done_before if k not in stored_keys)
        recovered_shares, share_problems = 0, []
        for n, key in enumerate(lost_shares):
            # The app sends the tap again with its key and body (its answer lost on the way, say): the record is
            # gone, so the backend claims afresh and calls Chia with the key derived from (user, key); Chia replays.
            st, _, rb = share((a, b)[n % 2], token, key, share_body(), timeout=30)
            again = json.loads(rb).get("url") if st == 201 else None
            if again is not None:
                urls.append(again)
            if st == 201 and again == done_before[key][1]:
                recovered_shares += 1
            else:
                share_problems.append(f"lost share {key[:8]}… sent again: {st}, same journey: {again == done_before[key][1]}")
        sessions = collections.Counter(s["idempotencyKey"] for s in h.chia_sessions())
        # Every key the sandbox saw, the probe's and the recovery re-sends' included.
        two = sum(1 for n in sessions.values() if n > 1)

        def stored_hooks():
            return collections.Counter(pg.psql(pg.standby_port, f"SELECT webhook_id FROM webhook_events WHERE "
                                                                f"provider = 'bb' AND webhook_id LIKE '{prefix}%'").split())

        counts = stored_hooks()
        accepted = {m: ans for m, ans in hooks.items() if ans and ans[-1][1] == 200}
        unanswered = [m for m, ans in hooks.items() if not ans or ans[-1][1] != 200]
        lost_hooks = sorted(m for m, ans in accepted.items() if counts[m] == 0 and ans[-1][3] < dead)
        for n, msg in enumerate(lost_hooks):
            deliver(msg, n, attempts=20)
        counts = stored_hooks()
        not_once = [m for m in accepted if counts[m] != 1]

        counted = metrics(a, b)
        counted.subtract(before_kill)
        counted = {k: v for k, v in counted.items() if v}
        lines = {n: read_text(os.path.join(h.dir, f"{n}.log")) for n in ("instance-a", "instance-b")}
        outage = {n: [json.loads(l).get("reason") for l in t.splitlines() if '"event":"store_unavailable"' in l]
                  for n, t in lines.items()}
        back = {n: t.count('"event":"store_recovered"') for n, t in lines.items()}
        print(f"   {mode} replication, standby {profile['fo_lag_ms']} ms behind ({profile['fo_stall_ms']} ms for the "
              f"last {profile['fo_stall_ms'] / 1000:.1f} s): {len(results)} taps at {profile['fo_rate']}/s over two "
              f"instances; attempts by answer: {dict(seen)}")
        print(f"   kill → promote {(promoting - killed) * 1000:.0f} ms (pg_ctl promote returned after "
              f"{(promoted - promoting) * 1000:.0f} ms); kill → first 201 "
              + (f"{(first_201 - killed) * 1000:.0f} ms for the load (its retries paced by Retry-After)"
                 if first_201 else "NONE")
              + (f", {(probe['at'] - killed) * 1000:.0f} ms for a probe share every 20 ms (promote called → "
                 f"{(probe['at'] - promoting) * 1000:.0f} ms)" if "at" in probe else ", NONE for the probe"))
        print(f"   /readyz 503 on both during the gap: {gap_503} ({sum(200 in r for r in ready_in_gap)}"
              f" of {len(ready_in_gap)} polls ready); both ready again after promote: {recovered}")
        print(f"   attempt latency p50/p99: before the stall {_pct(steady, .5):.1f}/{_pct(steady, .99):.1f} ms, "
              f"across the failover {_pct(inside, .5):.1f}/{_pct(inside, .99):.1f} ms; keys with two journeys: "
              f"{two} (of {len(results)} + {len(lost_shares)} sent again)")
        print(f"   records lost with the primary: {len(lost_shares)} of {len(done_before)} shares whose 201 started before "
              f"the old primary was gone, each sent again: {recovered_shares} same journey through Chia's dedupe; "
              f"{len(lost_hooks)} of {sum(ans[-1][3] < dead for ans in accepted.values())} webhooks accepted "
              f"that started before the old primary was gone, redelivered")
        print(f"   webhooks: {len(hooks)} sent, {len(accepted)} answered 200, stored once {len(accepted) - len(not_once)}"
              f"; store_unavailable {outage}, store_recovered {back}")
        print(f"   /metrics of both instances, from just before the stall to the end: {counted}")
        described = ("no target_session_attrs (the backend asks for read-write)" if synchronous
                     else "target_session_attrs=read-write")
        print(f"   database URL: two hosts, {described}")

        if not gap_503:
            failures.append("/readyz did not answer 503 on both instances while no primary answered")
        if any(200 in r for r in ready_in_gap):
            failures.append("/readyz answered 200 while no primary answered")
        if not recovered or first_201 is None or "at" not in probe:
            failures.append("the instances did not serve shares again after the promotion without a restart")
        if two:
            failures.append(f"{two} keys with two journeys at the sandbox")
        if synchronous and (lost_shares or lost_hooks):
            failures.append(f"synchronous replication lost {len(lost_shares)} shares and {len(lost_hooks)} webhooks")
        failures += share_problems[:10]
        if unanswered:
            failures.append(f"{len(unanswered)} webhooks never answered 200")
        if not_once:
            failures.append(f"{len(not_once)} webhooks answered 200 not stored exactly once after redelivery")
        if not steady:
            failures.append("no share answered before the kill")
        for n, p in zip(("instance-a", "instance-b"), procs):
            if p.poll() is not None:
                failures.append(f"{n} exited ({p.returncode}) during the failover")
        failures = failures[:20]
    finally:
        h.close()
        if pg:
            pg.close()
    return _result(h, failures, urls)


CHECKS = {"failover-async": lambda baton, profile: failover(baton, profile, False),
          "failover-sync": lambda baton, profile: failover(baton, profile, True)}
