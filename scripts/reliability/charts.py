"""Draws the mixed soak's figures (OUT/soak.csv, written by soak.py) as PNG charts: RSS, p99 and database size over
time, with each fault's window marked. Runs under .venv's python (matplotlib from PyPI, scripts/requirements.txt).
Usage: charts.py OUT"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

out = sys.argv[1]
with open(os.path.join(out, "soak.csv")) as f:
    rows = list(csv.DictReader(f))


def column(name, scale=1.0):
    return [float(r[name]) / scale if r.get(name) else None for r in rows]


t = column("t")
charts = {
    "soak-rss.png": ("RSS (MiB)", [("instance A, PostgreSQL", column("rss_A")), ("instance B, PostgreSQL",
                                   column("rss_B")), ("instance C, SQLite", column("rss_C"))]),
    "soak-p99.png": ("p99 of the app-visible answers per window (ms)", [("all flows", column("p99_ms"))]),
    "soak-db.png": ("database size (MiB)", [("PostgreSQL (pg_database_size)", column("pg_bytes", 2**20)),
                                           ("SQLite (file + WAL + shm)", column("sqlite_bytes", 2**20))]),
}
for name, (label, series) in charts.items():
    fig, ax = plt.subplots(figsize=(9, 3.6))
    for legend, values in series:
        ax.plot(t, values, label=legend, linewidth=1.2)
    for row, x in zip(rows, t):
        if row["fault"]:
            ax.axvline(x, color="grey", alpha=0.25, linewidth=0.8)
    ax.set_xlabel("seconds (grey lines: end of a fault: " + ", ".join(sorted({r["fault"] for r in rows if r["fault"]}))
                  + ")", fontsize=7)
    ax.set_ylabel(label, fontsize=8)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=110)
    plt.close(fig)
print("wrote " + ", ".join(os.path.join("artifacts", n) for n in charts))
