#!/usr/bin/env python3
"""Prints the goals of issue 32 that the scripts/bench-* parts wrote to $BENCH_GOALS (one JSON object a line: goal,
value, unit, target, met) as one table, in the issue's order; a goal no part measured is listed as not measured."""
import json
import sys

# The goals, in its order: (start of the goal's name as written by a part, what it is).
EXPECTED = [
    ("~1,000 taps/s, sqlite: context switches per share", "≤ 3 switches per share at ~1,000 taps/s, SQLite"),
    ("~1,000 taps/s, sqlite: CPU per share", "≤ 250 µs CPU per share at ~1,000 taps/s, SQLite"),
    ("64 connections, sqlite: CPU per share", "≤ 140 µs CPU per share at 64 connections, SQLite"),
    ("64 connections, postgres: CPU per share", "≤ 170 µs CPU per share at 64 connections, PostgreSQL"),
    ("shares / nginx proxy_pass, sqlite", "shares ≥ 0.5× nginx proxy_pass, SQLite"),
    ("shares / nginx proxy_pass, postgres", "shares ≥ 0.35× nginx proxy_pass, PostgreSQL"),
    ("~1,000 taps/s, sqlite: backend-added p99", "backend-added p99 < 1 ms at ~1,000 taps/s, SQLite"),
    ("~1,000 taps/s, postgres: backend-added p99", "backend-added p99 < 2 ms at ~1,000 taps/s, PostgreSQL"),
    ("purge of", "worst backend-added tap during a purge of 1 M records < 100 ms"),
    ("/healthz", "/healthz ≥ 1.2× nginx with an equal access log, three alternating rounds"),
    ("round ", "round 5 within 10 % of round 1 (CPU per share)"),
]


def main():
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    print("== Goals (issue 32): each as measured in this run")
    print("| goal | value | target | |")
    print("|---|---|---|---|")
    used = set()
    for prefix, label in EXPECTED:
        found = [i for i, r in enumerate(rows) if r["goal"].startswith(prefix) and i not in used]
        if not found:
            print(f"| {label} | not measured | | not measured |")
        for i in found:
            used.add(i)
            r = rows[i]
            print(f"| {r['goal']} | {r['value']} {r['unit']} | {r['target']} {r['unit']} | "
                  f"{'met' if r['met'] else '**not met**'} |")
    for i, r in enumerate(rows):
        if i not in used:
            print(f"| {r['goal']} | {r['value']} {r['unit']} | {r['target']} {r['unit']} | "
                  f"{'met' if r['met'] else '**not met**'} |")
    met = sum(1 for r in rows if r["met"])
    print(f"{met} of {len(rows)} measured goals met")


if __name__ == "__main__":
    main()
