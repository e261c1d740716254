"""Draws scripts/bench-curves' figures (OUT/curves.json, written by curves.py) as PNG charts in OUT: shares by
connections, claim latency by stored records, share writes during a purge, RSS by idle connections. Runs under
.venv's python (matplotlib from PyPI, scripts/requirements.txt). Usage: curve_charts.py OUT"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

out = sys.argv[1]
with open(os.path.join(out, "curves.json")) as f:
    r = json.load(f)
note = f"make bench, {r['date']}, load average {r['load'][0]:.1f} at start"
written = []


def save(fig, name):
    fig.suptitle(note, fontsize=7, x=0.99, ha="right")
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=110)
    plt.close(fig)
    written.append(os.path.join(out, name))


if r.get("connections"):
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
    xs = [row["connections"] for row in r["connections"]]
    for name, label in (("baton", "baton serve (SQLite)"), ("nginx", "nginx proxy_pass")):
        left.plot(xs, [row[f"{name}_rps"] for row in r["connections"]], marker="o", label=label)
        right.plot(xs, [row[f"{name}_p99"] for row in r["connections"]], marker="o", label=label)
    for ax, label in ((left, "shares per second (median)"), (right, "p99 (ms, median)")):
        ax.set_xscale("log", base=2)
        ax.set_xticks(xs, [str(x) for x in xs])
        ax.set_xlabel("connections (wrk -t2)", fontsize=8)
        ax.set_ylabel(label, fontsize=8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    right.set_yscale("log")
    save(fig, "curves-connections.png")

if r.get("claims"):
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
    for engine in sorted({c["engine"] for c in r["claims"]}):
        rows = [c for c in r["claims"] if c["engine"] == engine]
        xs = [c["records"] for c in rows]
        left.plot(xs, [c["p50_ms"] for c in rows], marker="o", label=f"{engine} p50")
        left.plot(xs, [c["p99_ms"] for c in rows], marker="o", linestyle="--", label=f"{engine} p99")
        right.plot(xs, [c["bytes"] / 2**20 for c in rows], marker="o", label=engine)
    left.set_ylabel("claim latency (ms)", fontsize=8)
    right.set_ylabel("database size (MiB)", fontsize=8)
    for ax in (left, right):
        ax.set_xlabel(f"stored idempotency records (sealed responses of {r['sealed_bytes']} B)", fontsize=8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    left.set_ylim(bottom=0)
    save(fig, "curves-claims.png")

if r.get("windows"):
    engines = sorted({w["engine"] for w in r["windows"]})
    fig, axes = plt.subplots(1, len(engines), figsize=(5 * len(engines), 3.6), squeeze=False)
    for ax, engine in zip(axes[0], engines):
        rows = [w for w in r["windows"] if w["engine"] == engine and w.get("writes") and "max_ms" in w]
        ax.scatter([w["t"] for w in rows], [w["max_ms"] for w in rows], s=3,
                   label="slowest claim + complete started in each 100 ms")
        purge = next(p for p in r["purges"] if p["engine"] == engine)
        ax.axvspan(0, purge["seconds"], color="grey", alpha=0.2,
                   label=f"purge of {int(purge['deleted']):,} records")
        ax.set_yscale("log")
        ax.set_xlabel(f"{engine}: seconds since the purge started", fontsize=8)
        ax.set_ylabel("claim + complete (ms)", fontsize=8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    save(fig, "curves-purge.png")

sp = r.get("share_purge", {})
if sp.get("share_times"):
    fig, ax = plt.subplots(figsize=(9, 3.6))
    ax.scatter([t for t, _ in sp["share_times"]], [max(a, 0.01) for _, a in sp["share_times"]], s=2)
    ax.axvspan(0, sp["seconds"], color="grey", alpha=0.2,
               label=f"purge of {sp['deleted']:,} records, {sp['batches']} batches")
    ax.set_yscale("log")
    ax.set_xlabel(f"seconds since `baton serve` (SQLite) started purging; shares at ~{sp['rate']:.0f}/s", fontsize=8)
    ax.set_ylabel("backend-added time per share (ms)", fontsize=8)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    save(fig, "curves-share-purge.png")

if r.get("rss"):
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.plot([x["connections"] for x in r["rss"]], [x["rss_kib"] / 1024 for x in r["rss"]], marker="o")
    for x in r["rss"]:
        ax.annotate(f"{x['answered']:,} answered", (x["connections"], x["rss_kib"] / 1024), fontsize=7)
    ax.set_xlabel("idle keep-alive connections opened", fontsize=8)
    ax.set_ylabel("baton serve RSS (MiB)", fontsize=8)
    ax.grid(alpha=0.3)
    save(fig, "curves-rss.png")

print("wrote " + ", ".join(written))
