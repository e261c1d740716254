#!/usr/bin/env python3
"""scripts/profile-share's driver: where the CPU of `baton serve` goes per share, from `perf record -e cpu-clock`.

One `baton sandbox` and one `baton serve` are started as bench.py starts them (Harness, the same configuration and
rate limits); wrk drives shares through share.lua closed-loop at 64 connections (--regime saturated) or paced at about
1,000 taps/s on 6 connections (--regime paced, bench.py's calibration), or GETs /healthz at 64 connections (--target
healthz). Two passes of --seconds each: the first unprofiled, for CPU (utime+stime) and context switches per request;
the second under `perf record -e cpu-clock -g` on the backend process alone (every thread). Printed: the share of
samples by kind (the leaf frame's library, the Swift runtime split by what it does), by thread and by system call, the
top symbols self and with children, and for the heaviest kinds the functions of Baton's own code they were called
from. --json appends every figure as one line; --summarize prints medians of such lines side by side.
"""
import argparse
import collections
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import TAP_CONNECTIONS, TAP_RATE, Cost, wrk
from harness import Harness, free_block

KERNEL = "kernel"
BATON = "Baton's own code"
# Print order of the kinds; a leaf frame is sorted into the first that matches (kind_of).
KINDS = [KERNEL, "libmicrohttpd", "libsqlite3", "libpq", "libcurl", "libcrypto/libssl", "libc malloc/free",
         "libc other (memcpy, locks, stubs)", "Swift retain/release", "Swift allocation (alloc/dealloc)",
         "Swift runtime other (metadata, casts, exclusivity)", "Swift stdlib code", "Swift concurrency",
         "Swift Synchronization", "libdispatch", "Foundation", "Swift regex", BATON, "other", "unknown"]
LIBRARIES = [("libmicrohttpd", "libmicrohttpd"), ("libsqlite3", "libsqlite3"), ("libpq", "libpq"),
             ("libcurl", "libcurl"), ("libnghttp2", "libcurl"), ("libz.so", "libcurl"),
             ("libcrypto", "libcrypto/libssl"), ("libssl", "libcrypto/libssl"),
             ("libswift_Concurrency", "Swift concurrency"), ("libswiftSynchronization", "Swift Synchronization"),
             ("libdispatch", "libdispatch"), ("libswiftDispatch", "libdispatch"), ("Foundation", "Foundation"),
             ("libswift_StringProcessing", "Swift regex"), ("libswift_RegexParser", "Swift regex")]
MALLOC = re.compile(r"^(__libc_)?(malloc|free|cfree|calloc|realloc|posix_memalign|aligned_alloc|memalign)$"
                    r"|^_int_(malloc|free|realloc|memalign)|^malloc_|^tcache|^unlink_chunk|^sysmalloc|^__malloc")
SWIFT_ALLOCATION = re.compile(r"^_?swift_(allocObject|deallocObject|slowAlloc|slowDealloc|deallocClassInstance"
                              r"|allocBox|deallocBox|allocEmptyBox|deallocUninitializedObject"
                              r"|deallocPartialClassInstance|release_dealloc)")
SWIFT_REFCOUNT = re.compile(r"^swift_\w*([Rr]etain|[Rr]elease|isUniquelyReferenced)")
SYSCALL = re.compile(r"^__(?:x64|ia32)_sys_(\w+)|^__do_sys_(\w+)|^__se_sys_(\w+)")
# Kinds every layer calls into; what calls them is the figure (analyse's "callers").
SHARED = {KERNEL, "libc malloc/free", "libc other (memcpy, locks, stubs)", "Swift retain/release",
          "Swift allocation (alloc/dealloc)", "Swift runtime other (metadata, casts, exclusivity)", "Swift stdlib code",
          "Swift concurrency", "Swift Synchronization", "libdispatch", "other", "unknown"}
OWNERS = set(KINDS) - SHARED
# What a store thread does, from the functions on its stacks (binaries before 66f65ee name no thread for the kernel).
STORE_WORK = ["SQLiteCheckpointer", "SQLiteWriteQueue", "SQLiteReader", "PostgresPipeline", "PostgresStore"]
# Frames on (nearly) every stack, left out of "with children".
THREAD_ROOTS = {"clone3", "clone", "start_thread", "NSThreadStart(_:)", "Thread.main()", "[unknown]",
                "entry_SYSCALL_64_after_hwframe", "do_syscall_64", "__libc_start_main", "__libc_start_call_main"}
FRAME = re.compile(r"^\s*([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$")


def kind_of(sym, dso, baton):
    """The kind of a leaf frame (symbol, library path), `baton` the backend binary's path."""
    name = os.path.basename(dso)
    if dso.startswith("[kernel") or name.startswith("[vdso"):
        return KERNEL
    if dso == "[unknown]":
        return "unknown"
    if os.path.realpath(dso) == baton or name == os.path.basename(baton):
        return BATON
    if name.startswith(("libc.so", "libc-")):
        return "libc malloc/free" if MALLOC.search(sym) else "libc other (memcpy, locks, stubs)"
    if name.startswith("libswiftCore"):
        if SWIFT_ALLOCATION.search(sym):
            return "Swift allocation (alloc/dealloc)"
        if SWIFT_REFCOUNT.search(sym):
            return "Swift retain/release"
        return "Swift runtime other (metadata, casts, exclusivity)" if sym.startswith(("swift_", "_swift")) \
            else "Swift stdlib code"
    for part, kind in LIBRARIES:
        if part in name:
            return kind
    return "other"


def system_call(frames):
    """The system call a kernel sample is in: named by its libc wrapper (the first frame outside the kernel), else by
    the kernel's `__x64_sys_*` frame; a sample with no system-call entry on its stack is an interrupt or a fault."""
    if not any(s.startswith("entry_SYSCALL") for s, _ in frames):
        return "no system call (interrupt, fault, softirq)"
    user = next(((s, d) for s, d in frames if not d.startswith("[")), None)
    if user and os.path.basename(user[1]).startswith("libc") and not user[0].startswith("["):
        return re.sub(r"^(__GI_)?(__libc_|__)?|(_nocancel\w*|64)$", "", user[0].split("@")[0])
    return next((next(g for g in m.groups() if g) for m in (SYSCALL.match(s) for s, _ in frames) if m), "other")


def demangle(names):
    """{mangled: readable} for the Swift names among `names` (`swift demangle --simplified`), shortened: the generic
    specialization's parameters dropped."""
    swift = sorted(n for n in names if n.startswith(("$s", "_$s")))
    out = {}
    if swift and shutil.which("swift"):
        result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(swift) + "\n",
                                capture_output=True, text=True, check=False).stdout.splitlines()
        if len(result) == len(swift):
            out = dict(zip(swift, result))
    readable = {}
    for n in names:
        r = out.get(n, n)
        r = re.sub(r"^(generic |function signature )?specialization <.*?> of ", "[spec] ", r)
        r = re.sub(r"^merged ", "", r)
        readable[n] = r if len(r) <= 140 else r[:137] + "..."
    return readable


def read_samples(data):
    """[(thread name/tid, period, [(symbol, dso), ...] leaf first)] from a perf.data file."""
    result = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,period,ip,sym,dso", "--no-inline"],
                            capture_output=True, text=True, check=False, errors="replace")
    if result.returncode != 0 or not result.stdout:
        sys.stderr.write(f"perf script failed ({result.returncode}): {result.stderr[-2000:]}\n")
    text = result.stdout
    samples = []
    current = None
    for line in text.splitlines():
        if not line.strip():
            current = None
            continue
        if not line[0].isspace():
            parts = line.split()
            period = int(parts[-1]) if parts[-1].isdigit() else 1
            current = (" ".join(parts[:-2]) + "/" + parts[-2], period, [])
            samples.append(current)
            continue
        m = FRAME.match(line)
        if m and current is not None:
            sym, dso = m.group(2), m.group(3)
            # Stripped libraries (libmicrohttpd, libcurl, libsqlite3's statics) leave frames without a name.
            current[2].append((f"[{os.path.basename(dso)}]" if sym == "[unknown]" else sym, dso))
    return [s for s in samples if s[2]]


def analyse(samples, baton, callers_of=6):
    """The figures of one profile: shares (percent of the samples' periods) by kind, thread, system call; top symbols
    self and with children; for each kind of >= 2 %, the nearest functions of Baton's own code above its leaf."""
    names = {sym for _, _, frames in samples for sym, _ in frames}
    readable = demangle(names)
    total = sum(p for _, p, _ in samples) or 1
    kinds, threads, calls, weights = (collections.Counter() for _ in range(4))
    roles, hints = collections.defaultdict(collections.Counter), collections.defaultdict(collections.Counter)
    own, children = collections.Counter(), collections.Counter()
    callers = collections.defaultdict(collections.Counter)
    unwound = 0
    for comm, period, frames in samples:
        sym, dso = frames[0]
        kind = kind_of(sym, dso, baton)
        kinds[kind] += period
        # A thread by what it is for: the name it gave the kernel (every thread Baton starts, since 66f65ee: an event
        # loop's "baton.http.N", "baton.sqlite.wr…", "baton.curl"), else Swift's global pool (a libdispatch worker
        # running jobs), else the outermost function of Baton's own code on its stack (older binaries: EventLoop.run,
        # a store thread's runJobs, CurlMulti.run), else its name (libmicrohttpd's own threads); a store thread also
        # by the store work seen on it most.
        name, tid = comm.rsplit("/", 1)
        if name.startswith("baton."):
            root = re.sub(r"\d+$", "N", name)
        elif any(s.startswith(("_dispatch_worker_thread", "_dispatch_root_queue_drain")) for s, _ in frames):
            root = "Swift global pool (libdispatch workers)"
        else:
            root = next((readable[s] for s, d in reversed(frames) if kind_of(s, d, baton) == BATON), None)
        roles[tid][root or re.sub(r"\d+$", "N", name)] += period
        hint = next((h for h in STORE_WORK if any(h in readable[s] for s, _ in frames)), None)
        if hint:
            hints[tid][hint] += period
        weights[tid] += period
        own[readable[sym]] += period
        for name in {readable[s] for s, _ in frames} - THREAD_ROOTS:
            children[name] += period
        if any(kind_of(s, d, baton) == BATON for s, d in frames):
            unwound += period
        # Who asked: for the kernel, libc and the Swift runtime, the nearest frame of a library or of Baton's code
        # (libmicrohttpd's send, SQLite's pwrite, a Baton function's malloc); for a library, the nearest Baton frame.
        wanted = OWNERS if kind in SHARED else {BATON}
        caller = next((readable[s] for s, d in frames[1:] if kind_of(s, d, baton) in wanted), None)
        callers[kind][caller or "(none on the stack)"] += period
        if kind == KERNEL:
            calls[system_call(frames)] += period

    for tid, weight in weights.items():
        role = roles[tid].most_common(1)[0][0]
        if hints[tid] and role.startswith("ThreadExecutor"):
            role += f" ({hints[tid].most_common(1)[0][0]})"
        threads[role] += weight

    def share(counter, n=None):
        return [(k, round(100 * v / total, 2)) for k, v in counter.most_common(n)]

    return {"samples": len(samples), "kinds": dict(share(kinds)), "threads": share(threads, 12),
            "syscalls": share(calls, 12),
            "self": share(own, 25), "children": share(children, 25),
            "callers": {k: share(callers[k], callers_of) for k, v in kinds.items() if v / total >= 0.02},
            "baton_frame_pct": round(100 * unwound / total, 1)}


def print_profile(p):
    print(f"\n{p['samples']} samples; {p['baton_frame_pct']} % of them have a frame of Baton's own code on the stack "
          "(how far the stacks unwound)")
    print("\n-- share of samples by kind (leaf frame)")
    for kind in KINDS:
        if kind in p["kinds"]:
            print(f"{p['kinds'][kind]:6.2f} %  {kind}")
    print("\n-- by thread: the name it gave the kernel (else Swift's pool, else the outermost function of Baton's own"
          " code on its stacks, else its name); a store thread also by the store work on it")
    for name, pct in p["threads"]:
        print(f"{pct:6.2f} %  {name}")
    print("\n-- kernel samples by system call (share of all samples)")
    for name, pct in p["syscalls"]:
        print(f"{pct:6.2f} %  {name}")
    for title, rows in (("self (leaf)", p["self"]), ("with children (on the stack)", p["children"])):
        print(f"\n-- top symbols, {title}")
        for name, pct in rows:
            print(f"{pct:6.2f} %  {name}")
    print("\n-- where the heaviest kinds are called from: for the kernel, libc and the Swift runtime the nearest frame of"
          " Baton's code or a C library above the leaf; for a library, the nearest Baton function")
    for kind in sorted(p["callers"], key=lambda k: -p["kinds"][k]):
        print(f"{kind} ({p['kinds'][kind]:.2f} %):")
        for name, pct in p["callers"][kind]:
            print(f"  {pct:6.2f} %  {name}")


def fresh_database(url):
    """A new, empty database on the PostgreSQL server of `url`; answers (its URL, a function that drops it)."""
    name = f"profile_{uuid.uuid4().hex[:12]}"
    subprocess.run(["psql", url, "-q", "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    base, _, query = url.partition("?")
    fresh = base.rsplit("/", 1)[0] + "/" + name + (f"?{query}" if query else "")

    def drop():
        subprocess.run(["psql", url, "-q", "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False,
                       capture_output=True)
    return fresh, drop


def drive(a, port, auth, duration, delay):
    """One wrk run of the regime and target chosen."""
    if a.target == "healthz":
        return wrk(port, auth, duration, path="/healthz", script=None)
    if a.regime == "paced":
        return wrk(port, auth, duration, connections=TAP_CONNECTIONS, threads=1, delay_ms=delay)
    return wrk(port, auth, duration)


def run(a):
    h = Harness(a.baton, "profile", sandbox_baton=a.sandbox_baton)
    drop = None
    try:
        h.start_sandbox()
        if a.engine == "postgres":
            db, drop = fresh_database(a.postgres)
        else:
            db = "sqlite:" + os.path.join(h.dir, "profile.sqlite")
        for pair in a.backend_env:
            key, _, value = pair.partition("=")
            os.environ[key] = value
        port = free_block(1)
        proc = h.start_backend(port, db, name="backend", sync_seconds=3600)
        token = h.token("profile-user")
        h.wait(lambda: h.shareable(port, token), "backend")
        auth = f"Bearer {token}"
        delay = None
        if a.target == "share" and a.regime == "paced":
            # bench.py's calibration: a short run at half the cycle, then the delay that makes ~TAP_RATE taps/s.
            cycle_ms = TAP_CONNECTIONS * 1000 / TAP_RATE
            probe = wrk(port, auth, "2s", connections=TAP_CONNECTIONS, threads=1, delay_ms=round(cycle_ms / 2))
            delay = max(0, int(cycle_ms - probe["p50"]))
        else:
            drive(a, port, auth, "2s", delay)  # warm-up
        if a.mallocs:
            count_mallocs(a, proc.pid, port, auth, delay)
            return
        load = os.getloadavg()
        with Cost(proc.pid) as cost:
            w = drive(a, port, auth, f"{a.seconds}s", delay)
        cpu, vol, invol = cost.per(w["requests"])[proc.pid]
        data = os.path.join(h.dir, "perf.data")
        graph = ["-g"] if a.call_graph == "fp" else ["--call-graph", a.call_graph]
        profiled = {}
        with Cost(proc.pid) as pcost:
            t = threading.Thread(target=lambda: profiled.update(drive(a, port, auth, f"{a.seconds + 2}s", delay)))
            t.start()
            time.sleep(1.0)
            subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", str(a.frequency), *graph, "-p",
                            str(proc.pid), "-o", data, "--", "sleep", str(a.seconds)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t.join()
        pcpu = pcost.per(profiled["requests"])[proc.pid][0]
        load_after = os.getloadavg()
        started = time.monotonic()
        profile = analyse(read_samples(data), os.path.realpath(a.baton))
        if a.keep:
            shutil.copy(data, a.keep)
        what = "GET /healthz" if a.target == "healthz" else f"shares, {a.regime}"
        print(f"== {a.label or a.baton}: {what}, {a.engine}" + (f", paced delay {delay} ms" if delay is not None else "")
              + (f", backend env {' '.join(a.backend_env)}" if a.backend_env else ""))
        print(f"load average {load[0]:.2f} before, {load_after[0]:.2f} after (2 cores, shared)")
        print(f"unprofiled {a.seconds} s: {w['rps']:.0f} req/s, p50 {w['p50']:.2f} ms, p99 {w['p99']:.2f} ms, "
              f"backend CPU {cpu:.0f} us/request (user+system), context switches {vol:.2f} voluntary + "
              f"{invol:.2f} involuntary per request" + (f", non-2xx {w['non2xx']}" if w["non2xx"] else ""))
        print(f"profiled ({a.call_graph} stacks, {a.frequency} Hz, perf attached {a.seconds} of {a.seconds + 2} s): "
              f"{profiled['rps']:.0f} req/s, backend CPU {pcpu:.0f} us/request; perf script took "
              f"{time.monotonic() - started:.0f} s")
        print_profile(profile)
        if a.json:
            row = {"label": a.label or a.baton, "target": a.target, "regime": a.regime, "engine": a.engine,
                   "call_graph": a.call_graph, "load": [round(load[0], 2), round(load_after[0], 2)], "delay_ms": delay,
                   "rps": w["rps"], "p50": w["p50"], "p99": w["p99"], "cpu_us": round(cpu, 1),
                   "switches": round(vol + invol, 2), "voluntary": round(vol, 2), "involuntary": round(invol, 2),
                   "profiled_rps": profiled["rps"], "profiled_cpu_us": round(pcpu, 1), **profile}
            with open(a.json, "a") as f:
                f.write(json.dumps(row) + "\n")
    finally:
        h.close()
        if drop:
            drop()
        shutil.rmtree(h.dir, ignore_errors=True)


def count_mallocs(a, pid, port, auth, delay):
    """--mallocs: glibc `malloc` and `free` calls per request (uprobes counted by `perf stat` over one pass), then
    where the `malloc`s come from (`perf record` of the uprobe with stacks over a second pass; perf drops some of
    them, so each origin's share of the recorded ones is scaled to the counted total)."""
    with open(f"/proc/{pid}/maps") as maps:
        paths = [line.split()[-1] for line in maps if len(line.split()) >= 6]
    libc = next((p for p in paths if os.path.basename(p).startswith("libc.so")), None)
    if libc is None:
        sys.exit("profile-share: the backend has no libc.so mapped")
    probes = ["probe_libc:baton_malloc", "probe_libc:baton_free"]
    subprocess.run(["perf", "probe", "-q", "-d", "probe_libc:baton_*"], capture_output=True, check=False)
    made = subprocess.run(["perf", "probe", "-q", "-x", libc, "-a", "baton_malloc=malloc", "-a", "baton_free=free"],
                          capture_output=True, text=True, check=False)
    if made.returncode != 0:
        sys.exit(f"profile-share: perf probe on {libc} failed (uprobes need root and a kernel with them): "
                 f"{made.stderr.strip()[-500:]}")
    scratch = tempfile.mkdtemp(prefix="baton-mallocs-")
    try:
        # Counted over the whole pass: a uprobe slows the process only while it is enabled, so a window inside the
        # pass would see fewer requests than its share of the pass's time.
        stat = subprocess.Popen(["perf", "stat", "-x", ",", "-e", ",".join(probes), "-p", str(pid)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)
        done = drive(a, port, auth, f"{a.seconds}s", delay)
        stat.send_signal(signal.SIGINT)
        _, stat_output = stat.communicate()
        requests = done["requests"]
        counts = {}
        for line in stat_output.splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[0].isdigit():
                counts[fields[2]] = int(fields[0]) / requests
        per_share = counts.get(probes[0], 0.0)
        print(f"== {a.label or a.baton}: malloc and free per request, "
              + ("GET /healthz" if a.target == "healthz" else f"shares, {a.regime}") + f", {a.engine}")
        print(f"{done['rps']:.0f} req/s while counted; per request: malloc {per_share:.1f}, "
              f"free {counts.get(probes[1], 0.0):.1f} (free also returns calloc, realloc and aligned blocks)")
        data = os.path.join(scratch, "malloc.data")
        t = threading.Thread(target=lambda: drive(a, port, auth, "4s", delay))
        t.start()
        time.sleep(1.0)
        subprocess.run(["perf", "record", "-q", "-e", probes[0], "--call-graph", "dwarf,16384", "-p", str(pid),
                        "-o", data, "--", "sleep", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        t.join()
        print_malloc_origins(read_samples(data), os.path.basename(os.path.realpath(a.baton)), per_share)
        if a.keep:
            shutil.copy(data, a.keep)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        subprocess.run(["perf", "probe", "-q", "-d", "probe_libc:baton_*"], capture_output=True, check=False)


def print_malloc_origins(samples, baton, per_share, top=30):
    """The recorded `malloc`s by the library that called the allocator, and by the first two frames of Baton's own
    code (the standard library's specialised helpers compiled into the binary, `$ss…`, skipped)."""
    if not samples:
        print("no malloc was recorded (perf record found no samples)")
        return
    scale = per_share / len(samples)
    by_library = collections.Counter()
    by_code = collections.Counter()
    for _, _, frames in samples:
        caller = next(((s, d) for s, d in frames if not os.path.basename(d).startswith("libc.so")
                       and not SWIFT_ALLOCATION.search(s)), ("?", "?"))
        kind = kind_of(caller[0], caller[1], baton)
        by_library["Swift runtime and standard library" if kind.startswith("Swift ") and kind not in
                   ("Swift concurrency", "Swift Synchronization", "Swift regex") else kind] += 1
        own = [s for s, d in frames if os.path.basename(d) == baton and not s.startswith(("$ss", "_$ss"))][:2]
        by_code[tuple(own)] += 1
    print(f"where they come from ({len(samples)} recorded, scaled to {per_share:.1f} per request)")
    print("  by the code that called the allocator:")
    for kind, n in by_library.most_common():
        print(f"  {n * scale:7.1f}  {kind}")
    names = demangle({s for key in by_code for s in key})
    print("  by the first frames of Baton's own code (innermost first):")
    for key, n in by_code.most_common(top):
        print(f"  {n * scale:7.1f}  {' <- '.join(names.get(s, s) for s in key) or '(no frame of Baton)'}")


def summarize(path):
    """Medians of the lines of a --json file, one column per label, per target/regime/engine."""
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    groups = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        groups[(r["target"], r["regime"] if r["target"] == "share" else "saturated", r["engine"])][r["label"]].append(r)
    for (target, regime, engine), by_label in groups.items():
        labels = list(by_label)
        print(f"\n== {target}, {regime}, {engine}: medians of " + ", ".join(f"{lb} ({len(by_label[lb])} runs)"
                                                                         for lb in labels))
        print("| | " + " | ".join(labels) + " |")
        print("|---" * (len(labels) + 1) + "|")

        def line(title, value, fmt="{:.1f}", by_label=by_label, labels=labels):
            print(f"| {title} | " + " | ".join(fmt.format(statistics.median(value(r) for r in by_label[lb]))
                                               for lb in labels) + " |")
        line("req/s (unprofiled)", lambda r: r["rps"], "{:.0f}")
        line("CPU per request, µs", lambda r: r["cpu_us"], "{:.0f}")
        line("context switches per request", lambda r: r["switches"], "{:.2f}")
        line("load average at start", lambda r: r["load"][0], "{:.1f}")
        kinds = [k for k in KINDS if any(k in r["kinds"] for rs in by_label.values() for r in rs)]
        for kind in kinds:
            line(f"{kind}, % of samples", lambda r, kind=kind: r["kinds"].get(kind, 0.0))
        for field, title in (("threads", "thread"), ("syscalls", "system call")):
            seen = collections.Counter()
            for rs in by_label.values():
                for r in rs:
                    for name, pct in r[field]:
                        seen[name] = max(seen[name], pct)
            for name, _ in seen.most_common(8):
                line(f"{title}: {name}, % of samples",
                     lambda r, name=name, field=field: dict(map(tuple, r[field])).get(name, 0.0))


def main():
    ap = argparse.ArgumentParser(prog="scripts/profile-share", description=__doc__.split("\n\n")[0])
    ap.add_argument("--baton", help="the baton binary to profile (release build)")
    ap.add_argument("--sandbox-baton", help="the binary `baton sandbox` runs from (default: --baton); hold it fixed "
                    "for an A/B")
    ap.add_argument("--regime", choices=("saturated", "paced"), default="saturated",
                    help="closed loop wrk -t2 -c64, or ~1,000 taps/s on 6 paced connections (default: saturated)")
    ap.add_argument("--target", choices=("share", "healthz"), default="share",
                    help="POST /v2/handoff-sessions (share.lua), or GET /healthz at 64 connections")
    ap.add_argument("--engine", choices=("sqlite", "postgres"), default="sqlite")
    ap.add_argument("--postgres", default=os.environ.get("BATON_TEST_POSTGRES_URL"),
                    help="a PostgreSQL server URL; each run creates and drops its own database on it")
    ap.add_argument("--seconds", type=int, default=8, help="length of each pass, unprofiled and profiled")
    ap.add_argument("--frequency", type=int, default=999, help="perf record -F")
    ap.add_argument("--call-graph", default="dwarf", help="perf's dwarf[,size] (default: Swift, libc and the "
                    "C libraries unwind), or fp (frame pointers, perf -g: stacks end at any libc leaf)")
    ap.add_argument("--backend-env", action="append", default=[], metavar="KEY=VALUE",
                    help="environment of `baton serve` only (e.g. BATON_HTTP_EXECUTION=pool for ff6ae71's pool)")
    ap.add_argument("--label", help="the name of this binary in the output and in --json")
    ap.add_argument("--json", help="append this run's figures as one JSON line to this file")
    ap.add_argument("--keep", help="copy perf.data here")
    ap.add_argument("--mallocs", action="store_true", help="instead of the CPU profile: glibc malloc and free "
                    "calls per request (perf probe uprobes, root) and where the mallocs come from")
    ap.add_argument("--summarize", metavar="JSONL", help="print medians of a --json file's runs and exit")
    ap.add_argument("--analyse", metavar="PERF_DATA", help="print the tables of a kept perf.data of --baton and exit")
    a = ap.parse_args()
    if a.summarize:
        summarize(a.summarize)
        return
    if a.analyse and a.baton:
        print_profile(analyse(read_samples(a.analyse), os.path.realpath(a.baton)))
        return
    if not a.baton:
        ap.error("--baton is required")
    if a.engine == "postgres" and not a.postgres:
        ap.error("--engine postgres needs --postgres or BATON_TEST_POSTGRES_URL (scripts/profile-share starts one)")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    run(a)


if __name__ == "__main__":
    main()
