#!/usr/bin/env python3
"""An A/B of `baton serve` on SQLite against the size of its database (issue 32, item 3; docs/reliability-history.md, "The decline between rounds, counted").

Each measurement is a new backend process on a copy of a template database: a 2 s warm-up, then wrk -t2 -c64 as
`make bench` runs it, CPU (user + system of the backend process) per share; the conditions alternate within each
round, medians at the end, the load average beside every figure.

    decline_ab.py ROUNDS DURATION NAME=BINARY:TEMPLATE ...   (TEMPLATE: a database file, or `empty`)
    decline_ab.py --fill PATH RECORDS [--other-users]        (a template: RECORDS completed shares of the bench's
                                                              user, or of 10,000 others, beside one real share)
"""
import os
import shutil
import sqlite3
import statistics
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import Cost, wrk
from harness import Harness, free_block

USER = "bench-user"


def copy_database(template, path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(template + suffix):
            shutil.copy(template + suffix, path + suffix)


def remove_database(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def fill(baton, path, records, other_users):
    """One real share through `baton serve` (the schema and a real row to copy), then `records` rows like it."""
    h = Harness(baton, "decline-fill")
    try:
        h.start_sandbox()
        port = free_block(1)
        p = h.start_backend(port, "sqlite:" + path, name="fill", sync_seconds=3600)
        token = h.token(USER)
        h.wait(lambda: h.shareable(port, token), "backend")
        wrk(port, f"Bearer {token}", "1s", connections=2, threads=1)
        p.terminate()
        p.wait(timeout=30)
    finally:
        h.close()
    c = sqlite3.connect(path, isolation_level=None)
    user, fingerprint, sealed, expires, created = c.execute(
        "SELECT user_id, fingerprint, length(sealed_response), response_expires_at, created_at"
        " FROM idempotency_records WHERE state = 'completed' LIMIT 1").fetchone()
    c.execute("BEGIN")
    for i in range(records):
        c.execute("INSERT INTO idempotency_records (user_id, idempotency_key, fingerprint, state, response_status,"
                  " sealed_response, response_expires_at, created_at, updated_at)"
                  " VALUES (?, ?, ?, 'completed', 201, ?, ?, ?, ?)",
                  (f"usr_other_{i % 10000:05d}" if other_users else user, str(uuid.uuid4()), fingerprint,
                   os.urandom(sealed), expires, created - 1000 + i // 100, created))
    c.execute("COMMIT")
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    print(f"{path}: {c.execute('SELECT COUNT(*) FROM idempotency_records').fetchone()[0]} records")


def ab(rounds, duration, conditions):
    h = Harness(conditions[0][1], "decline-ab")
    try:
        h.start_sandbox()
        token = None
        cpu = {name: [] for name, _, _ in conditions}
        for r in range(rounds):
            for name, binary, template in conditions:
                path = os.path.join(h.dir, f"{name}-{r}.sqlite")
                if template != "empty":
                    copy_database(template, path)
                h.baton = binary
                port = free_block(1)
                p = h.start_backend(port, "sqlite:" + path, name=f"{name}-{r}", sync_seconds=3600)
                token = token or h.token(USER)
                h.wait(lambda port=port, token=token: h.shareable(port, token), "backend")
                wrk(port, f"Bearer {token}", "2s")
                h.sandbox_call("POST", "/_sandbox/reset")
                with Cost(p.pid) as cost:
                    w = wrk(port, f"Bearer {token}", duration)
                cpu[name].append(cost.per(w["requests"])[p.pid][0])
                p.terminate()
                p.wait(timeout=30)
                remove_database(path)
                bad = f" non-2xx {w['non2xx']}" if w["non2xx"] else ""
                print(f"round {r + 1} {name}: {cpu[name][-1]:.0f} us/share, {w['rps']:.0f} req/s{bad}, "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
        first = statistics.median(cpu[conditions[0][0]])
        for name, values in cpu.items():
            m = statistics.median(values)
            print(f"median {name}: {m:.0f} us/share ({m / first:.2f}x), rounds {', '.join(f'{v:.0f}' for v in values)}")
    finally:
        h.close()


def main():
    if sys.argv[1] == "--fill":
        fill(os.environ.get("BATON", "baton"), sys.argv[2], int(sys.argv[3]), "--other-users" in sys.argv)
        return
    conditions = [(c.split("=", 1)[0], *c.split("=", 1)[1].rsplit(":", 1)) for c in sys.argv[3:]]
    ab(int(sys.argv[1]), sys.argv[2], conditions)


if __name__ == "__main__":
    main()
