#!/usr/bin/env python3
"""Reliability suites against real `baton` processes on 127.0.0.1 (see docs/reliability.md).

  run.py [--profile test|soak] [--only NAME,…]

Each check prints its figures and PASS/FAIL; the run ends with "N passed, N failed" and exits 1 on any failure.
Scale-out needs BATON_TEST_POSTGRES_URL (scripts/with-postgres); without it that check fails, it is never skipped.
"""
import argparse
import os
import shutil
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks
import failover
import faults
import loadgen
import network
import skew
import soak

CHECKS = {**checks.CHECKS, **faults.CHECKS, **failover.CHECKS, **skew.CHECKS, **network.CHECKS, **soak.CHECKS}
# The mixed soak runs only when named (`scripts/soak` runs it after the others, for SOAK_TIMEOUT seconds).
ORDER = checks.ORDER + list(faults.CHECKS) + list(failover.CHECKS) + list(skew.CHECKS) + list(network.CHECKS)

SOAK_SECONDS = float(os.environ.get("SOAK_MIXED_SECONDS", "1800"))
PROFILES = {
    "test": {"crash_keys": 100, "scale_rounds": 20, "fault_taps": 1000, "slow_clients": 20, "bad_repeats": 1,
             "drip_steps": 40, "pg_cycles": 4, "pg_rate": 20, "pg_steady": 1.0, "pg_hold": 1.0, "disk_rate": 30,
             "disk_hold": 2.0, "log_hold": 6.0, "net_rate": 20, "net_phase": 3.0, "net_partition": 6.0,
             "fo_rate": 20, "fo_hook_rate": 5, "fo_lag_ms": 20, "fo_stall_ms": 1000, "fo_steady": 3.0, "fo_gap": 1.0,
             "fo_after": 3.0},
    "soak": {"crash_keys": 1000, "scale_rounds": 100, "fault_taps": 10000, "slow_clients": 200, "bad_repeats": 20,
             "drip_steps": 300, "pg_cycles": 20, "pg_rate": 40, "pg_steady": 5.0, "pg_hold": 3.0, "disk_rate": 50,
             "disk_hold": 20.0, "log_hold": 20.0, "net_rate": 40, "net_phase": 30.0, "net_partition": 30.0,
             "fo_rate": 40, "fo_hook_rate": 10, "fo_lag_ms": 20, "fo_stall_ms": 1000, "fo_steady": 60.0, "fo_gap": 5.0,
             "fo_after": 30.0,
             "soak_seconds": SOAK_SECONDS, "soak_rate": 20, "soak_sample": min(15.0, SOAK_SECONDS / 30),
             "soak_fault": min(30.0, SOAK_SECONDS / 12), "soak_quiet": min(60.0, SOAK_SECONDS / 12)},
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", default="test", choices=PROFILES)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    # `timeout` ends a run with SIGTERM: unwind, so every check's cleanup (mounts, namespaces, clusters) runs.
    signal.signal(signal.SIGTERM, lambda *_: (loadgen.ABORT.set(), sys.exit(1)))
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    baton = os.environ.get("BATON", os.path.join(root, ".build/debug/baton"))
    profile = PROFILES[args.profile]
    selected = [n for n in CHECKS if n in args.only.split(",")] if args.only else ORDER
    passed = failed = 0
    logs, secrets, dirs = [], [], []
    for name in selected:
        started = time.monotonic()
        print(f"-- {name}", flush=True)
        try:
            result = CHECKS[name](baton, profile)
            logs += result.get("logs", [])
            secrets += result.get("secrets", [])
            ok = not result["failures"]
            own = ([result["dir"]] if result.get("dir") else []) + result.get("dirs", [])
            for line in result["failures"]:
                print(f"   FAIL {line}")
            # A failed check's logs and databases are kept for a look afterwards (said now: `timeout` may end the run).
            if ok:
                dirs += own
            else:
                print(f"   kept {', '.join(own)}", flush=True)
        except Exception:  # noqa: BLE001 - a check that raises fails; the run goes on to the next
            traceback.print_exc()
            ok = False
        print(f"   {'PASS' if ok else 'FAIL'} {name} ({time.monotonic() - started:.1f} s)", flush=True)
        passed, failed = passed + ok, failed + (not ok)
    if "secrets" not in args.only or not args.only:
        print("-- secrets in logs", flush=True)
        leaks = checks.scan_logs(logs, secrets)
        for leak in leaks[:10]:
            print(f"   FAIL {leak}")
        ok = not leaks
        print(f"   {'PASS' if ok else 'FAIL'} secrets")
        passed, failed = passed + ok, failed + (not ok)
    for d in dirs:
        if os.environ.get("RELIABILITY_KEEP"):
            print(f"kept {d}")
        else:
            shutil.rmtree(d, ignore_errors=True)
    print(f"reliability ({args.profile}): {passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()
