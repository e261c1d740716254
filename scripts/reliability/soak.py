"""The mixed soak (issue 19 item 5): a steady load of all three flows on three backends while faults 1–4 cycle,
sampled over time, charted under artifacts/. Bounded by the profile's `soak_seconds`.

  instances A and B on one PostgreSQL of the check's own  (fault 1: pg_ctl stop -m fast / immediate, start)
  instance C on SQLite on a 64 MiB tmpfs of its own        (fault 2: the disk filled, then freed)
  the providers in a network namespace behind a veth pair  (fault 3: 5 % loss, a partition, 200 ± 100 ms)
  webhooks signed with timestamps 10 minutes off           (fault 4: refused and counted; the polls still finish)

Load: shares (a fresh key each, the app's retry rules) round-robin over A, B, C; BB connect sessions and Privue
verification handoffs created and polled; BB webhooks for those sessions delivered, signed as BB signs them. Every
`soak_sample` seconds: RSS of each instance, database sizes, p99 of the answers in the window. Charts (RSS, p99, DB
size over time) are written with matplotlib from .venv when it is there, else the figures are kept as CSV only."""
import collections
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

from faults import Postgres, SmallDisk
from harness import Harness, free_block, request, rss_kb, sign_webhook, stop
from loadgen import Load, _judge_taps, _pct
from network import HERE, Namespace, sandbox_behind_proxies

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# The configuration's `retention` the soak's backends run with: each kind at its floor (docs/CONTRACTS.md,
# *Retention*), maintenance every 15 s, so the database stops growing within the hour. SOAK_RETENTION=default runs
# the contract's defaults instead (the database then grows throughout: the "database size flat" check fails).
RETENTION = {"idempotencyRecordsSeconds": 900, "connectSessionsSeconds": 1800, "webhookEventsSeconds": 600,
             "rateLimitBucketsSeconds": 60, "maintenanceIntervalSeconds": 15}
# The "database size flat" check looks only past this warm-up: the longest retention above and 5 minutes for the
# purge to catch up (SOAK_DB_WARMUP, in seconds, shortens it — only to show the check failing on a short run).
DB_WARMUP = float(os.environ.get("SOAK_DB_WARMUP", RETENTION["connectSessionsSeconds"] + 300))
# Past the warm-up, the largest size in the later half may exceed the largest in the earlier half by this factor.
DB_GROWTH = 1.10
# Answers begun within this many seconds after a fault ended count with the fault (held retries, reconnects).
QUIET_SETTLE = 10.0


def db_flat(samples, key, warmup=None, growth=DB_GROWTH):
    """The "database size flat" rule on samples[key] after the warm-up: the later half's maximum is at most `growth`
    times the earlier half's. Returns (verdict, text): verdict None when fewer than 8 samples lie past the warm-up
    (the run was too short to judge), else True/False."""
    warmup = DB_WARMUP if warmup is None else warmup
    sizes = [s[key] for s in samples if s["t"] >= warmup and s.get(key)]
    if len(sizes) < 8:
        return None, f"{key}: not judged, {len(sizes)} samples past the {warmup:.0f} s warm-up (needs 8)"
    half = len(sizes) // 2
    early, late = max(sizes[:half]), max(sizes[half:])
    text = (f"{key}: past {warmup:.0f} s, max {early / 2**20:.2f} MiB in the earlier half, "
            f"{late / 2**20:.2f} MiB in the later ({late / early:.3f}×, limit {growth:.2f}×)")
    return late <= growth * early, text


def quiet_latencies(attempts, faulted, instances, settle=QUIET_SETTLE):
    """p50/p99 of the answers begun outside the faults (and `settle` seconds after each), pooled over the run, per
    instance: the SQLite instance is the control the PostgreSQL ones are read against, as the same load generator and
    machine stand behind all three (a window's p99 over ~300 answers is their 4th slowest, and moves between runs).
    `attempts` are (start, seconds, answer, port); `instances` names each port."""
    def quiet(start):
        return not any(a <= start <= b + settle for a, b in faulted)

    took = {name: [t * 1000 for s, t, _, p in attempts if p == port and quiet(s)] for port, name in instances.items()}
    head = f"outside the faults (and {settle:.0f} s after each), p50 / p99 by instance: "
    if not any(took.values()):
        # A short run can be faults and their settling throughout: say so rather than print 0 ms.
        return head + "no answers (the run was faults and their settling throughout)"
    return head + ", ".join(f"{name} {_pct(v, .5):.1f} / {_pct(v, .99):.1f} ms ({len(v)})" if v else f"{name}: no answers"
                            for name, v in took.items())


def _flows(ports, token, sandbox, halt, record, skew):
    """BB connect sessions and Privue handoffs, created and polled, and BB's webhook for each session delivered
    (with the current `skew` in seconds added to its timestamp)."""
    auth = {"Authorization": f"Bearer {token}"}
    bb = sandbox["bb"]
    n = 0
    while not halt.wait(0.2):
        n += 1
        port = ports[n % len(ports)]
        started = time.monotonic()
        try:
            s, _, raw = request(port, "POST", "/v2/connect-sessions", json.dumps({"callback": "https"}), auth, 15)
            record("connect", s, started, port)
            if s == 201:
                session = json.loads(raw)["sessionId"]
                now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                data = {"sessionId": session, "status": "completed", "resultCode": "Ok", "connectionId": f"conn_{n}",
                        "error": None, "returnUrl": bb["returnUrls"][0], "createdAt": now, "expiresAt": now,
                        "updatedAt": now}
                body = json.dumps({"type": "connect_session.updated", "timestamp": now, "data": data}).encode()
                # Read the skew once: the label must name the timestamp sent, not a phase begun during the call.
                offset = skew[0]
                msg, ts = f"msg_soak{n:012d}", str(int(time.time()) + offset)
                headers = {"webhook-id": msg, "webhook-timestamp": ts,
                           "webhook-signature": sign_webhook(bb["webhookSecret"], msg, ts, body)}
                s, _, _ = request(port, "POST", "/webhooks/bb", body, headers, 15)
                record("webhook" if not offset else "webhook-skewed", s)
                s, _, _ = request(port, "GET", f"/v2/connect-sessions/{session}", headers=auth, timeout=15)
                record("connect-poll", s)
            started = time.monotonic()
            s, _, _ = request(port, "POST", "/v2/verification-handoffs",
                              json.dumps({"workflow": "merchant-onboarding"}), auth, 15)
            record("verification", s, started, port)
            s, _, _ = request(port, "GET", "/v2/verifications/merchant-onboarding", headers=auth, timeout=15)
            record("verification-poll", s)
        except OSError:
            record("transport", "transport", started, port)


def soak_mixed(baton, profile):
    h = Harness(baton, "soak")
    failures, urls = [], []
    pg = disk = ns = None
    proxies, ns_procs = [], []
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        pg = Postgres()
        disk = SmallDisk(os.path.join(h.dir, "disk"), 64)
        ns = Namespace()
        info, proxies = sandbox_behind_proxies(h, ns, baton, ns_procs)
        ports = [free_block(1) for _ in range(3)]
        retention = None if os.environ.get("SOAK_RETENTION") == "default" else RETENTION
        print(f"   retention: {json.dumps(retention) if retention else 'the contract defaults'}")
        sqlite_path = os.path.join(disk.path, "baton.sqlite")
        procs = {
            "A (PostgreSQL)": h.start_backend(ports[0], pg.url, name="instance-a", timeout_seconds=1,
                                              retention=retention),
            "B (PostgreSQL)": h.start_backend(ports[1], pg.url, name="instance-b", timeout_seconds=1,
                                              retention=retention),
            "C (SQLite)": h.start_backend(ports[2], "sqlite:" + sqlite_path, name="instance-c", timeout_seconds=1,
                                          retention=retention),
        }
        token = h.token("soak-user")
        for port in ports:
            h.wait(lambda port=port: h.shareable(port, token), f"instance on {port}")

        answers = collections.Counter()
        window = []
        # Every timed flow answer, as the load's attempts: (start, seconds to the answer, status, port).
        timed = []
        lock = threading.Lock()

        def record(flow, status, started=None, port=None):
            """Counts an answer; one begun at `started` on `port` is timed. The window's p99 has counted an untimed
            answer (a webhook, a poll) as 0 ms since the soak began: kept, so its figures compare with earlier runs."""
            with lock:
                answers[f"{flow} {status}"] += 1
                took = 0.0 if started is None else time.monotonic() - started
                window.append(took * 1000)
                if started is not None:
                    timed.append((started, took, status, port))

        halt = threading.Event()
        skew = [0]
        flows = threading.Thread(target=_flows, args=(ports, token, info, halt, record, skew), daemon=True)
        flows.start()
        load = Load(ports, token, rate=profile["soak_rate"], workers=48)
        samples = []
        began = time.monotonic()

        def sample(fault):
            with lock:
                taken = list(window)
                window.clear()
            with load.lock:
                # The share attempts answered since the previous sample (a held one counts where it ends).
                since = samples[-1]["at"] if samples else began
                recent = [t * 1000 for s, t, *_ in load.attempts if s + t >= since]
            try:
                pg_bytes = int(pg.psql("SELECT pg_database_size('postgres')").strip())
            except Exception:  # noqa: BLE001 - a missed sample repeats the last one
                pg_bytes = samples[-1]["pg_bytes"] if samples else 0
            sqlite_bytes = sum(os.path.getsize(sqlite_path + s) for s in ("", "-wal", "-shm")
                               if os.path.exists(sqlite_path + s))
            samples.append({"at": time.monotonic(), "t": time.monotonic() - began, "fault": fault, "p99_ms": _pct(recent + taken, .99),
                            "answers": len(recent) + len(taken), "pg_bytes": pg_bytes, "sqlite_bytes": sqlite_bytes,
                            **{f"rss_{n[0]}": rss_kb(p.pid) / 1024 for n, p in procs.items() if p.poll() is None}})

        cycle = ["pg-restart", "disk-full", "network-loss", "network-partition", "network-delay", "clock-skew"]
        end = began + profile["soak_seconds"]
        turn = 0
        faulted = []  # (start, end) of each fault
        while time.monotonic() < end:
            fault = cycle[turn % len(cycle)]
            turn += 1
            hold = profile["soak_fault"]
            fault_began = time.monotonic()
            if fault == "pg-restart":
                pg.stop(("fast", "immediate")[turn // len(cycle) % 2])
                time.sleep(hold)
                pg.start()
            elif fault == "disk-full":
                disk.fill()
                time.sleep(hold)
                disk.free()
            elif fault.startswith("network-"):
                if fault == "network-delay":
                    for p in proxies:
                        p.set_delay(200, 100)
                else:
                    ns.rules(5 if fault == "network-loss" else "drop")
                time.sleep(hold)
                ns.rules(None)
                for p in proxies:
                    p.set_delay(0, 0)
            else:
                skew[0] = 600 if turn // len(cycle) % 2 == 0 else -600
                time.sleep(hold)
                skew[0] = 0
            faulted.append((fault_began, time.monotonic()))
            sample(fault)
            quiet = time.monotonic() + profile["soak_quiet"]
            while time.monotonic() < min(quiet, end):
                time.sleep(min(profile["soak_sample"], max(0.0, min(quiet, end) - time.monotonic())))
                sample("")
        results = load.stop()
        halt.set()
        flows.join()
        seen, urls, dupes = _judge_taps(h, results, failures, "soak", "soak-user")
        for name, p in procs.items():
            if p.poll() is not None:
                failures.append(f"instance {name} exited ({p.returncode})")
        if answers.get("transport transport"):
            failures.append(f"{answers['transport transport']} flow requests met a transport error")
        bad = {k: v for k, v in answers.items()
               if not k.startswith("transport") and int(k.rsplit(" ", 1)[1]) >= 500
               and int(k.rsplit(" ", 1)[1]) not in (502, 503)}
        if bad:
            failures.append(f"answers outside the contract: {bad}")
        if answers.get("webhook-skewed 200"):
            failures.append(f"{answers['webhook-skewed 200']} webhooks 10 minutes off were accepted")
        rss = {k: [s[k] for s in samples if k in s] for k in ("rss_A", "rss_B", "rss_C")}
        growth = {k: (v[-1] - v[len(v) // 4]) if len(v) > 4 else 0 for k, v in rss.items()}
        for k, g in growth.items():
            if g > 64:
                failures.append(f"{k}: RSS grew {g:.0f} MiB from the first quarter to the end")
        print(f"   {time.monotonic() - began:.0f} s, {turn} faults ({', '.join(cycle)} in turn), "
              f"{len(results)} shares at {profile['soak_rate']}/s over 3 instances; keys with two journeys {dupes}")
        print(f"   share attempts by answer: {dict(seen)}")
        print(f"   other flows by answer: {dict(sorted(answers.items()))}")
        print("   RSS MiB first → last: " + ", ".join(f"{k} {v[0]:.1f} → {v[-1]:.1f}" for k, v in rss.items() if v))
        print(f"   DB size first → last: PostgreSQL {samples[0]['pg_bytes'] / 2**20:.1f} → "
              f"{samples[-1]['pg_bytes'] / 2**20:.1f} MiB, SQLite {samples[0]['sqlite_bytes'] / 2**20:.1f} → "
              f"{samples[-1]['sqlite_bytes'] / 2**20:.1f} MiB")
        for key in ("pg_bytes", "sqlite_bytes"):
            flat, text = db_flat(samples, key)
            print(f"   database size flat: {text}")
            if flat is False:
                failures.append(f"database size not flat: {text}")
        print(f"   p99 per {profile['soak_sample']:.0f} s window: max {max(s['p99_ms'] for s in samples):.0f} ms, "
              f"median {_pct([s['p99_ms'] for s in samples], .5):.0f} ms")
        print("   " + quiet_latencies(load.attempts + timed, faulted, dict(zip(ports, procs))))
        h.close()
        integrity = sqlite3.connect(sqlite_path).execute("PRAGMA integrity_check").fetchone()[0]
        print(f"   SQLite integrity_check after the run: {integrity}")
        if integrity != "ok":
            failures.append(f"SQLite integrity_check: {integrity}")
        _charts(samples)
        failures = failures[:20]
    finally:
        h.close()
        for p in proxies:
            p.close()
        stop(ns_procs, timeout=10)
        for thing in (ns, disk, pg):
            if thing:
                thing.close()
        signal.signal(signal.SIGTERM, previous)
    return {"failures": failures, "logs": list(h.logs), "secrets": list(h.secrets) + urls, "dir": h.dir}


def _charts(samples):
    """artifacts/soak.csv, and artifacts/soak-{rss,p99,db}.png drawn by .venv's matplotlib."""
    out = os.path.join(ROOT, "artifacts")
    os.makedirs(out, exist_ok=True)
    keys = ["t", "fault", "answers", "p99_ms", "rss_A", "rss_B", "rss_C", "pg_bytes", "sqlite_bytes"]
    with open(os.path.join(out, "soak.csv"), "w") as f:
        f.write(",".join(keys) + "\n")
        f.writelines(",".join(str(s.get(k, "")) for k in keys) + "\n" for s in samples)
    python = os.path.join(ROOT, ".venv", "bin", "python")
    if not os.path.exists(python):
        print("   charts: .venv has no python (scripts/install-deps); kept artifacts/soak.csv only")
        return
    r = subprocess.run([python, os.path.join(HERE, "charts.py"), out], capture_output=True, check=False, text=True, timeout=120)
    print(f"   charts: {r.stdout.strip() or r.stderr.strip()[-300:]}")


CHECKS = {"soak-mixed": soak_mixed}
