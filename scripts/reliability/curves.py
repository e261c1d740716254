#!/usr/bin/env python3
"""scripts/bench-curves' driver: see the header of that script for what is measured. Writes OUT/curves.json (every
figure) and prints the tables docs/reliability.md quotes."""
import argparse
import datetime
import json
import os
import re
import resource
import selectors
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import TAP_CONNECTIONS, TAP_RATE, goal, nginx_proxy, pct, wrk
from harness import Harness, free_block, new_key, request, rss_kb, share

# Issue 32: the worst backend-added time of a share while `baton serve` purges 1 M records.
PURGE_WORST_GOAL_MS = 100


def sizes(name, default):
    return [int(x) for x in os.environ.get(name, default).split(",") if x.strip()]


def hold_connections(port, n, limit=20.0):
    """Opens up to n keep-alive connections, each sending one GET /healthz; (sockets, how many were answered within
    `limit` seconds in all). Past the server's connection limit the rest are closed unanswered or not accepted."""
    socks, failures = [], 0
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            socks.append(s)
        except OSError:
            failures += 1
            if failures > 20:
                break
    answered, waiting = 0, selectors.DefaultSelector()
    for s in socks:
        waiting.register(s, selectors.EVENT_READ)
    deadline = time.monotonic() + limit
    while waiting.get_map() and time.monotonic() < deadline:
        for key, _ in waiting.select(timeout=0.2):
            waiting.unregister(key.fileobj)
            try:
                if key.fileobj.recv(4096).startswith(b"HTTP/1.1 200"):
                    answered += 1
            except OSError:
                pass
    waiting.close()
    return socks, answered


def connection_curve(h, port, auth, nginx, auth_chia, counts, rounds, duration):
    """wrk at each connection count, counts alternating within a round; medians per count."""
    runs = {("baton", c): [] for c in counts}
    runs.update({("nginx", c): [] for c in counts})
    for r in range(rounds):
        for c in counts:
            for name, target, a in (("baton", port, auth), ("nginx", nginx, auth_chia)):
                w = wrk(target, a, duration, connections=c, threads=2)
                runs[(name, c)].append(w)
                print(f"round {r + 1} c={c} {name}: {w['rps']:.0f} req/s p50 {w['p50']:.2f} p99 {w['p99']:.2f} ms"
                      + (f" non-2xx {w['non2xx']}" if w["non2xx"] else "") + (f" {w['socket']}" if w["socket"] else ""))
    out = []
    for c in counts:
        row = {"connections": c}
        for name in ("baton", "nginx"):
            for m in ("rps", "p50", "p99"):
                row[f"{name}_{m}"] = statistics.median(x[m] for x in runs[(name, c)])
            row[f"{name}_rps_range"] = [min(x["rps"] for x in runs[(name, c)]), max(x["rps"] for x in runs[(name, c)])]
        out.append(row)
    return out


def rss_curve(pid, port, counts):
    """RSS with 0 and then each cumulative count of idle keep-alive connections held open."""
    rows = [{"connections": 0, "answered": 0, "rss_kib": rss_kb(pid)}]
    held = []
    for n in counts:
        socks, answered = hold_connections(port, n - len(held))
        held += socks
        time.sleep(0.5)  # let the server finish accepting before reading its RSS
        rows.append({"connections": n, "answered": rows[-1]["answered"] + answered, "rss_kib": rss_kb(pid)})
    for s in held:
        s.close()
    return rows


def sealed_size(db):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        v = c.execute("SELECT avg(length(sealed_response)) FROM idempotency_records "
                      "WHERE sealed_response IS NOT NULL").fetchone()[0]
    return round(v) if v else 400


def store_curves(bench, postgres, records, result, save):
    env = dict(os.environ, CURVE_RECORDS=str(records["records"]), CURVE_SEALED_BYTES=str(records["sealed"]))
    if postgres:
        env["BATON_TEST_POSTGRES_URL"] = postgres
    p = subprocess.Popen([bench, "store-curves"], stdout=subprocess.PIPE, text=True, env=env)
    claims, purges, windows = result["claims"], result["purges"], result["windows"]
    for line in p.stdout:
        if " window " not in line:
            print(line, end="")
        parts = line.split()
        if len(parts) < 3 or parts[0] != "curve":
            continue
        fields = {k: float(v) for k, v in re.findall(r"(\w+)=([-\d.na]+)", line) if v not in ("nan", "-nan")}
        fields["engine"] = parts[1]
        {"claims": claims, "purge": purges, "window": windows}[parts[2]].append(fields)
        if parts[2] != "window":
            save()
    save()
    if p.wait() != 0:
        raise RuntimeError(f"BatonBench store-curves exited {p.returncode}")


class WALWatch:
    """Samples `db`'s WAL every 5 ms in a thread of its own, so that the worst shares can be laid beside what the WAL
    did then, whichever binary runs: the file's size (a TRUNCATE checkpoint empties it) and, from the wal-index
    header in `-shm`, the frames in the log (`mxFrame`: falls when the log starts over) and those checkpointed so far
    (`nBackfill`)."""

    def __init__(self, db):
        self.path, self.samples, self.stop = db, [], threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    @staticmethod
    def dirty():
        """The machine's dirty and writeback memory in KiB (a writer throttled by the kernel shows here)."""
        with open("/proc/meminfo") as f:
            fields = dict(line.split(":", 1) for line in f)
        return int(fields["Dirty"].split()[0]) + int(fields["Writeback"].split()[0])

    def sample(self):
        try:
            size = os.path.getsize(self.path + "-wal")
            with open(self.path + "-shm", "rb") as f:
                header = f.read(100)
            frames, backfilled = int.from_bytes(header[16:20], sys.byteorder), int.from_bytes(header[96:100],
                                                                                                sys.byteorder)
        except (OSError, ValueError):
            return 0, 0, 0
        return size, frames, backfilled

    def run(self):
        while not self.stop.wait(0.005):
            now = self.sample()
            if not self.samples or self.samples[-1][1:4] != now:
                self.samples.append((time.time(), *now, self.dirty()))

    def close(self):
        self.stop.set()
        self.thread.join()

    def events(self, start, end):
        """(truncations, restarts) between `start` and `end`: times at which the file shrank / the log started over."""
        pairs = [(a, b) for a, b in zip(self.samples, self.samples[1:]) if start <= b[0] <= end]
        return ([b[0] for a, b in pairs if b[1] < a[1]], [b[0] for a, b in pairs if b[2] < a[2]])

    def summary(self, start, end):
        inside = [s for s in self.samples if start <= s[0] <= end] or [(0, 0, 0, 0, 0)]
        truncations, restarts = self.events(start, end)
        lag = max(f - b for _, _, f, b, _ in inside)
        return (f"WAL file up to {max(s[1] for s in inside) / 2**20:.0f} MiB, log up to {max(s[2] for s in inside):,} "
                f"frames, {len(truncations)} truncations, {len(restarts)} restarts, checkpoint lag up to {lag:,} frames, "
                f"dirty + writeback up to {max(s[4] for s in inside) / 1024:.0f} MiB")

    def near(self, at, window=0.5):
        """What the WAL did in the `window` seconds before a share ended at `at`."""
        truncations, restarts = self.events(at - window, at + 0.02)
        inside = [s for s in self.samples if at - window <= s[0] <= at] or [(0, 0, 0, 0, 0)]
        return (f"before it: log up to {max(s[2] for s in inside):,} frames, lag up to "
                f"{max(f - b for _, _, f, b, _ in inside):,}, dirty + writeback up to "
                f"{max(s[4] for s in inside) / 1024:.0f} MiB"
                + "".join(f", truncated {at - t:.3f} s before" for t in truncations)
                + "".join(f", restarted {at - t:.3f} s before" for t in restarts))


def purge_under_shares(h, proc, port, db, auth, bench, records, sealed, seconds):
    """Stops the backend, adds `records` expired records to its database, starts it again (its maintenance purges at
    start, then every 30 s) and at once sends ~1,000 shares/s (as bench-backend's latency run) for `seconds`: the
    backend-added time (duration_ms - upstream_ms) of the shares answered while the purge ran, against the others."""
    proc.terminate()
    proc.wait(timeout=30)
    started = time.monotonic()
    subprocess.run([bench, "store-fill", db, str(records), str(sealed)], check=True)
    fill_seconds = time.monotonic() - started
    log = os.path.join(h.dir, "backend-sqlite.log")
    offset = os.path.getsize(log)
    proc = h.start_backend(port, "sqlite:" + db, name="backend-sqlite", sync_seconds=3600)
    h.wait(lambda: request(port, "GET", "/healthz", timeout=1)[0] == 200, "backend after the fill")
    cycle_ms = TAP_CONNECTIONS * 1000 / TAP_RATE
    wal = WALWatch(db)

    def read_log():
        purges, shares, slow = [], [], []
        with open(log) as f:
            f.seek(offset)
            for line in f:
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if "ts" not in e:
                    continue
                at = datetime.datetime.fromisoformat(e["ts"]).timestamp()
                if e.get("event") == "idempotency_purged":
                    purges.append((at - e["duration_ms"] / 1000, at, e))
                elif e.get("event") == "request" and e.get("route") == "/v2/handoff-sessions" and "upstream_ms" in e:
                    shares.append((at, e["duration_ms"] - e["upstream_ms"], e["duration_ms"]))
                elif e.get("event") == "sqlite_slow_write":
                    slow.append((at - e["duration_ms"] / 1000, at, e))
        return purges, shares, slow

    # Chunks of `seconds` until the purge has logged its line, then one more (shares after it, for comparison).
    rates, deadline = [], time.monotonic() + int(os.environ.get("CURVE_PURGE_LIMIT", "900"))
    while True:
        w = wrk(port, auth, f"{seconds}s", connections=TAP_CONNECTIONS, threads=1, delay_ms=int(cycle_ms / 2))
        rates.append(w["rps"])
        purges, shares, slow = read_log()
        if purges or time.monotonic() > deadline:
            break
    if purges:
        rates.append(wrk(port, auth, f"{seconds}s", connections=TAP_CONNECTIONS, threads=1,
                         delay_ms=int(cycle_ms / 2))["rps"])
        purges, shares, slow = read_log()
    wal.close()
    w = {"rps": statistics.median(rates)}
    if not purges:
        return {"records": records, "error": "no idempotency_purged line"}, proc
    start, end, line = max(purges, key=lambda p: p[2]["records_deleted"])
    print(f"during the purge: {wal.summary(start, end)}")
    print(f"after it: {wal.summary(end, time.time())}")
    for t, added, total in sorted((s for s in shares if start <= s[0] <= end), key=lambda s: -s[1])[:5]:
        print(f"worst share {t - start:8.2f} s into the purge: backend-added {added:.1f} ms; {wal.near(t)}")
        # The writer's batches of 20 ms or more (`sqlite_slow_write`) that overlapped this share.
        for _, _, e in (w for w in slow if w[0] <= t and w[1] >= t - total / 1000):
            print(f"    the writer: {'a purge batch' if e['housekeeping'] else str(e['writes']) + ' writes'} held it "
                  f"{e['duration_ms']:.1f} ms (statements {e['statements_ms']:.1f}, commit {e['commit_ms']:.1f}; "
                  f"CPU {e['cpu_ms']:.1f} ms, {e['blocks_read']} blocks read, {e['waits']} waits, "
                  f"{e['preemptions']} preemptions)")
    during_slow = [e for a, _, e in slow if start <= a <= end]
    print(f"the writer's batches of 20 ms or more during the purge: {len(during_slow)} "
          f"({sum(e['housekeeping'] for e in during_slow)} purge batches), "
          f"{sum(e['blocks_read'] for e in during_slow)} blocks read in them")
    during = sorted(a for t, a, _ in shares if start <= t <= end)
    other = sorted(a for t, a, _ in shares if not start <= t <= end)
    during_total = sorted(d for t, _, d in shares if start <= t <= end)
    return {"records": records, "deleted": line["records_deleted"], "batches": line["batches"],
            "seconds": line["duration_ms"] / 1000, "fill_seconds": fill_seconds, "rate": w["rps"],
            "during": len(during), "during_p50": pct(during, 0.5), "during_p99": pct(during, 0.99),
            "during_max": during[-1] if during else float("nan"), "during_total_p99": pct(during_total, 0.99),
            "other": len(other), "other_p50": pct(other, 0.5), "other_p99": pct(other, 0.99),
            "share_times": [(t - start, a) for t, a, _ in shares]}, proc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baton")
    ap.add_argument("--bench")
    ap.add_argument("--postgres")
    ap.add_argument("--out")
    a = ap.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    counts = sizes("CURVE_CONNECTIONS", "16,64,256,1024")
    idle = sizes("CURVE_IDLE", "1000,4000")
    rounds = int(os.environ.get("CURVE_ROUNDS", "3"))
    duration = os.environ.get("CURVE_DURATION", "5s")
    records = int(os.environ.get("CURVE_RECORDS", "1000000"))
    # CURVE_PARTS=share-purge runs the share-level purge alone (iterating on it), without the tables of the others.
    parts = set(os.environ.get("CURVE_PARTS", "rss,connections,share-purge,store").split(","))
    result = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": os.getloadavg()}
    os.makedirs(a.out, exist_ok=True)

    def save():  # after every part, so an interrupted run still leaves what it measured
        with open(os.path.join(a.out, "curves.json"), "w") as f:
            json.dump(result, f, indent=1)
    h = Harness(a.baton, "curves")
    try:
        sb = h.start_sandbox()
        auth_chia = f"Bearer {sb['chia']['apiKey']}"
        nginx = nginx_proxy(h, sb["port"], sb["chia"]["apiKey"])
        port = free_block(1)
        db = os.path.join(h.dir, "curves.sqlite")
        proc = h.start_backend(port, "sqlite:" + db, name="backend-sqlite", sync_seconds=3600)
        token = h.token("bench-user")
        h.wait(lambda: h.shareable(port, token), "backend")
        auth = f"Bearer {token}"
        for _ in range(20):
            assert share(port, token, new_key())[0] == 201
        sealed = sealed_size(db)

        if "rss" in parts:
            print(f"== RSS of `baton serve` (SQLite) with idle keep-alive connections: 0, {idle}")
            result["rss"] = rss_curve(proc.pid, port, idle)
            for row in result["rss"]:
                print(f"{row['connections']:>6} held ({row['answered']} answered): {row['rss_kib'] / 1024:.1f} MiB")
            save()

        if "connections" in parts:
            print(f"\n== shares (SQLite, sandbox external) at {counts} connections, {rounds} rounds of {duration}")
            result["connections"] = connection_curve(h, port, auth, nginx, auth_chia, counts, rounds, duration)
            save()
        if "share-purge" in parts:
            purge_seconds = int(os.environ.get("CURVE_PURGE_SECONDS", "10"))
            print(f"\n== shares at ~{TAP_RATE:,}/s while `baton serve` purges {records:,} expired records at start")
            result["share_purge"], proc = purge_under_shares(h, proc, port, db, auth, a.bench, records, sealed,
                                                             purge_seconds)
            sp = result["share_purge"]
            print({k: v for k, v in sp.items() if k != "share_times"})
            if "deleted" in sp:
                print(f"worst backend-added time of a share during the purge: {sp['during_max']:.1f} ms "
                      f"(goal < {PURGE_WORST_GOAL_MS} ms), p99 {sp['during_p99']:.2f} ms, at {sp['rate']:.0f} shares/s")
            worst = sp.get("during_max", float("nan"))
            goal(f"purge of {records:,} records under shares: worst backend-added ms ({sp.get('during', 0)} shares)",
                 round(worst, 1), f"< {PURGE_WORST_GOAL_MS}", worst < PURGE_WORST_GOAL_MS, "ms")
        result.update(sealed_bytes=sealed, records=records, claims=[], purges=[], windows=[])
        save()

        if "store" in parts:
            print(f"\n== store curves (BatonBench store-curves): {records:,} records, sealed responses of {sealed} B")
            store_curves(a.bench, a.postgres, {"records": records, "sealed": sealed}, result, save)
    finally:
        h.close()
        # Its databases and logs are hundreds of MB a run; BENCH_KEEP=1 keeps them to look at.
        if not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(h.dir, ignore_errors=True)
    save()
    print_tables(result)


def print_tables(r):
    print(f"\n== tables (load average at start {r['load'][0]:.1f}; {r['date']})")
    print("| connections | Baton req/s | Baton p50 / p99 ms | nginx proxy_pass req/s | nginx p50 / p99 ms | ratio |")
    print("|---|---|---|---|---|---|")
    for row in r.get("connections", []):
        print(f"| {row['connections']:,} | {row['baton_rps']:,.0f} | {row['baton_p50']:.2f} / {row['baton_p99']:.2f} | "
              f"{row['nginx_rps']:,.0f} | {row['nginx_p50']:.2f} / {row['nginx_p99']:.2f} | "
              f"{row['baton_rps'] / row['nginx_rps']:.2f}× |")
    print("\n| engine | stored records | claim p50 / p99 ms | database bytes | bytes per million records |")
    print("|---|---|---|---|---|")
    for c in r["claims"]:
        print(f"| {c['engine']} | {int(c['records']):,} | {c['p50_ms']:.3f} / {c['p99_ms']:.3f} | "
              f"{int(c['bytes']):,} | {int(c['bytes_per_million']) / 2**20:,.0f} MiB |")
    print("\n| engine | purged | seconds | share writes p50 / p99 / max ms before | … during the purge |")
    print("|---|---|---|---|---|")
    for p in r["purges"]:
        print(f"| {p['engine']} | {int(p['deleted']):,} | {p['seconds']:.2f} | {p['before_p50_ms']:.2f} / "
              f"{p['before_p99_ms']:.2f} / {p['before_max_ms']:.1f} | {p.get('during_p50_ms', float('nan')):.2f} / "
              f"{p.get('during_p99_ms', float('nan')):.2f} / {p.get('during_max_ms', float('nan')):.1f} "
              f"({int(p['during_writes'])} writes) |")
    sp = r.get("share_purge", {})
    if "deleted" in sp:
        print(f"\nshares at {sp['rate']:.0f}/s while `baton serve` purged {sp['deleted']:,} records in {sp['seconds']:.2f} s "
              f"({sp['batches']} batches): backend-added p50 / p99 / max {sp['during_p50']:.2f} / {sp['during_p99']:.2f} / "
              f"{sp['during_max']:.1f} ms over {sp['during']} shares (whole share p99 {sp['during_total_p99']:.1f} ms); "
              f"the other {sp['other']} shares {sp['other_p50']:.2f} / {sp['other_p99']:.2f} ms")
    print("\n| idle keep-alive connections | answered | RSS MiB | KiB per connection since 0 |")
    print("|---|---|---|---|")
    base = r["rss"][0]["rss_kib"] if r.get("rss") else 0
    for row in r.get("rss", []):
        per = (row["rss_kib"] - base) / row["answered"] if row["answered"] else 0
        print(f"| {row['connections']:,} | {row['answered']:,} | {row['rss_kib'] / 1024:.1f} | {per:.1f} |")


if __name__ == "__main__":
    main()
