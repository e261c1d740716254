#!/usr/bin/env python3
"""A model of a share's SQLite writes (issue 32, item 3: the decline between rounds), for counting what the database
size costs without the rest of the backend: docs/reliability-history.md, "The decline between rounds, counted".

The schema and statements are `SQLSchema`'s (migrations 1-4, idempotency and rate-limit tables) and `StoreSQL`'s, run
as the writer runs them: `BATCH` shares per `BEGIN IMMEDIATE` (group commit), each the token and the claim's insert,
the batch's completions (the sealed response stored) in the next transaction, `synchronous=NORMAL`, WAL, and a PASSIVE
checkpoint on a second connection every 50 commits (SQLiteCheckpointer's role). Prints CPU per share (noisy on a shared
machine) and WAL frames per share; run it under `strace -f -c -e trace=pread64,pwrite64` or
`valgrind --tool=callgrind` (the real interpreter, not a pyenv shim) for counts that do not depend on the load.

    decline_model.py VARIANT PREFILL SHARES
      VARIANT: base (the statements as shipped), rowid (the claim returns its rowid; the completion updates by it),
               digest (rowid, and the unique index on a 64-bit digest of (user, key) instead of the text key)
      PREFILL: completed records of the same user before the run (a copy of a cached file per run)
    Environment: ORDERED=1 time-ordered keys instead of UUIDv4; CACHE=<pragma cache_size>; BATCH (default 8).
"""
import hashlib
import os
import shutil
import sqlite3
import struct
import sys
import time
import uuid

RECORDS = """CREATE TABLE idempotency_records (
 user_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, fingerprint TEXT NOT NULL,
 state TEXT NOT NULL, lease_owner TEXT, lease_expires_at BIGINT,
 response_status INTEGER, sealed_response BLOB, response_expires_at BIGINT,
 created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL{extra})"""
COMMON = [
    "CREATE INDEX idempotency_records_created_at ON idempotency_records (created_at)",
    ("CREATE INDEX idempotency_records_sealed_expiry ON idempotency_records (response_expires_at)"
     " WHERE sealed_response IS NOT NULL"),
    "CREATE TABLE rate_limit_buckets (bucket TEXT PRIMARY KEY, tokens BIGINT NOT NULL, updated_at BIGINT NOT NULL)",
    "CREATE INDEX rate_limit_buckets_updated_at ON rate_limit_buckets (updated_at)",
]
SCHEMA = {
    "base": [RECORDS.format(extra=", PRIMARY KEY (user_id, idempotency_key)")] + COMMON,
    "digest": [RECORDS.format(extra=", key_digest BIGINT NOT NULL"),
               "CREATE UNIQUE INDEX idempotency_records_digest ON idempotency_records (key_digest)"] + COMMON,
}
SCHEMA["rowid"] = SCHEMA["base"]

TOKEN = """INSERT INTO rate_limit_buckets AS b (bucket, tokens, updated_at) VALUES (?1, ?2 - 1000, ?4)
 ON CONFLICT (bucket) DO UPDATE SET tokens = min(?2, b.tokens + (?4 - b.updated_at) * ?3 / 60) - 1000,
 updated_at = ?4 WHERE 1 RETURNING tokens"""
CLAIM = """INSERT INTO idempotency_records (user_id, idempotency_key, fingerprint, state, lease_owner,
 lease_expires_at, created_at, updated_at) VALUES (?1, ?2, ?3, 'in_progress', ?4, ?5, ?6, ?6)
 ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING {returning}"""
CLAIM_DIGEST = """INSERT INTO idempotency_records (user_id, idempotency_key, fingerprint, state, lease_owner,
 lease_expires_at, created_at, updated_at, key_digest) VALUES (?1, ?2, ?3, 'in_progress', ?4, ?5, ?6, ?6, ?7)
 ON CONFLICT (key_digest) DO NOTHING RETURNING rowid"""
COMPLETE = """UPDATE idempotency_records SET state = 'completed', lease_owner = NULL, lease_expires_at = NULL,
 response_status = ?4, sealed_response = ?5, response_expires_at = ?6, updated_at = ?7
 WHERE {row}user_id = ?1 AND idempotency_key = ?2 AND state = 'in_progress' AND lease_owner = ?3 RETURNING state"""

USER = "bench-user"
SEALED = 146  # bytes of a sealed share response, as `baton serve` stores it


def digest(user, key):
    return struct.unpack(">q", hashlib.sha256(f"{user}\0{key}".encode()).digest()[:8])[0]


def connect(path):
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA synchronous=NORMAL")
    c.execute("PRAGMA wal_autocheckpoint=0")
    if os.environ.get("CACHE"):
        c.execute(f"PRAGMA cache_size={int(os.environ['CACHE'])}")
    return c


def fill(path, variant, n):
    c = connect(path)
    for statement in SCHEMA[variant]:
        c.execute(statement)
    c.execute("BEGIN")
    for i in range(n):
        key = str(uuid.uuid4())
        row = [USER, key, "f" * 64, os.urandom(SEALED), 1_700_000_000_000 + i]
        if variant == "digest":
            c.execute("INSERT INTO idempotency_records VALUES (?1,?2,?3,'completed',NULL,NULL,201,?4,?5,?5,?5,?6)",
                      [*row, digest(USER, key)])
        else:
            c.execute("INSERT INTO idempotency_records VALUES (?1,?2,?3,'completed',NULL,NULL,201,?4,?5,?5,?5)", row)
    c.execute("COMMIT")
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()


def run(path, variant, shares, batch):
    writer, checkpointer = connect(path), connect(path)
    claim = {"base": CLAIM.format(returning="state"), "rowid": CLAIM.format(returning="rowid"),
             "digest": CLAIM_DIGEST}[variant]
    complete = COMPLETE.format(row="" if variant == "base" else "rowid = ?8 AND ")
    now = 1_800_000_000_000
    pending, frames, commits, done = [], 0, 0, 0
    started = time.process_time()
    while done < shares:
        writer.execute("BEGIN IMMEDIATE")
        for key, owner, rowid in pending:
            arguments = [USER, key, owner, 201, os.urandom(SEALED), now + 3_600_000, now]
            writer.execute(complete, arguments + ([] if variant == "base" else [rowid])).fetchall()
        pending = []
        for _ in range(batch):
            now += 1
            key = f"{now:020d}" if os.environ.get("ORDERED") else str(uuid.uuid4())
            owner = f"instance/{done}"
            writer.execute(TOKEN, ("user:" + USER, 10**12, 10**9, now)).fetchall()
            arguments = [USER, key, "f" * 64, owner, now + 30_000, now]
            if variant == "digest":
                arguments.append(digest(USER, key))
            rows = writer.execute(claim, arguments).fetchall()
            pending.append((key, owner, rows[0][0]))
            done += 1
        writer.execute("COMMIT")
        commits += 1
        if commits % 50 == 0:
            frames += checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0][1]
    return (time.process_time() - started) / max(1, done) * 1e6, frames / max(1, done)


def main():
    variant, prefill, shares = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    template = f"/tmp/decline-model-{variant}-{prefill}.sqlite"
    if not os.path.exists(template):
        fill(template, variant, prefill)
    work = template + ".work"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(work + suffix):
            os.remove(work + suffix)
    shutil.copy(template, work)
    cpu, frames = run(work, variant, shares, int(os.environ.get("BATCH", "8")))
    print(f"{variant} prefill={prefill} shares={shares} cpu/share={cpu:.1f}us walframes/share={frames:.2f}")


if __name__ == "__main__":
    main()
