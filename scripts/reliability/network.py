"""A degraded network to the providers, for real (issue 19 item 3). The sandbox runs in a network namespace of the
check's own, joined to this host by a veth pair with a /30 of its own; nftables rules inside the namespace drop 5 %
of packets, then every packet (a partition), then none (healed); then a delaying TCP proxy of the suite's own adds
200 ms ± 100 ms per chunk. The backend reaches each provider through a forwarder on 127.0.0.1 (so its loopback-only
development configuration holds), whose traffic crosses the veth pair:

  baton serve → 127.0.0.1:Q (tcpproxy, this process) → veth 10.x.y.1 ⇄ 10.x.y.2 (namespace, nftables)
              → tcpproxy in the namespace → 127.0.0.1:P in the namespace (baton sandbox)

The namespace, the veth pair and every process in it are created and removed by the check (also on SIGTERM)."""
import collections
import json
import os
import random
import signal
import subprocess
import sys
import time

from harness import Harness, free_block, request, stop
from loadgen import Load, _judge_taps, _pct
from tcpproxy import Proxy

HERE = os.path.dirname(os.path.abspath(__file__))


def _ip(*args, check=True):
    return subprocess.run(["ip"] + list(args), capture_output=True, text=True, check=check, timeout=30)


class Namespace:
    """A network namespace and a veth pair with a /30 nobody else on this host routes."""

    def __init__(self):
        tag = f"{os.getpid() % 10000:04d}{random.randrange(100):02d}"
        self.name, self.host_if, self.ns_if = f"baton-rel{tag}", f"bh{tag}", f"bn{tag}"
        routes = _ip("-4", "route").stdout + _ip("-4", "addr").stdout
        for _ in range(100):
            base = f"10.{random.randrange(200, 250)}.{random.randrange(256)}"
            if f"{base}." not in routes:
                break
        self.host_ip, self.ns_ip = f"{base}.1", f"{base}.2"
        self.created = []
        _ip("netns", "add", self.name)
        self.created.append("netns")
        _ip("link", "add", self.host_if, "type", "veth", "peer", "name", self.ns_if)
        self.created.append("veth")
        _ip("link", "set", self.ns_if, "netns", self.name)
        _ip("addr", "add", f"{self.host_ip}/30", "dev", self.host_if)
        _ip("link", "set", self.host_if, "up")
        _ip("-n", self.name, "addr", "add", f"{self.ns_ip}/30", "dev", self.ns_if)
        _ip("-n", self.name, "link", "set", self.ns_if, "up")
        _ip("-n", self.name, "link", "set", "lo", "up")

    def popen(self, args, **kwargs):
        return subprocess.Popen(["ip", "netns", "exec", self.name] + args, **kwargs)

    def rules(self, verdict):
        """Replaces the namespace's filter: `None` (healed), a loss percentage, or "drop" (partitioned)."""
        match = "" if verdict == "drop" else f"numgen random mod 100 < {verdict} "
        body = "flush ruleset\n"
        if verdict is not None:
            body += (f"table inet baton_faults {{\n"
                     f"  chain input {{ type filter hook input priority 0; policy accept;\n"
                     f"    iifname \"{self.ns_if}\" {match}drop;\n  }}\n"
                     f"  chain output {{ type filter hook output priority 0; policy accept;\n"
                     f"    oifname \"{self.ns_if}\" {match}drop;\n  }}\n}}\n")
        subprocess.run(["ip", "netns", "exec", self.name, "nft", "-f", "-"], input=body, text=True, check=True,
                       capture_output=True, timeout=30)

    def close(self):
        if "veth" in self.created:
            _ip("link", "del", self.host_if, check=False)
        if "netns" in self.created:
            _ip("netns", "del", self.name, check=False)


def sandbox_behind_proxies(h, ns, baton, ns_procs):
    """`baton sandbox` inside namespace `ns`, reached from the host through one fault proxy per provider (Chia,
    Privue, BB, in that order): adopted by `h` with the proxies' origins, its processes appended to `ns_procs`.
    Returns its `--json` description (as adopted) and the proxies."""
    sandbox_port = free_block(3)
    log = os.path.join(h.dir, "sandbox.log")
    h.logs.append(log)
    with open(log, "w") as err:
        sb_proc = ns.popen([baton, "sandbox", "--port", str(sandbox_port), "--state",
                            os.path.join(h.dir, "sandbox-state"), "--json"], stdout=subprocess.PIPE,
                           stderr=err, text=True)
    ns_procs.append(sb_proc)
    info = json.loads(sb_proc.stdout.readline())
    forward = [f"{ns.ns_ip}:{sandbox_port + i}=127.0.0.1:{sandbox_port + i}" for i in range(3)]
    inner = ns.popen([sys.executable, os.path.join(HERE, "tcpproxy.py")] + forward, stdout=subprocess.PIPE,
                     text=True)
    ns_procs.append(inner)
    assert inner.stdout.readline().strip() == "ready"
    outer = free_block(3)
    proxies = [Proxy(("127.0.0.1", outer + i), (ns.ns_ip, sandbox_port + i), seed=i + 1) for i in range(3)]
    for i, name in enumerate(("chia", "privue", "bb")):
        # The sandbox writes journey and neutral-page URLs on its own origin inside the namespace, not the proxy's:
        # unpinned, the backend refuses its journeys and hides every catalog item.
        info[name]["journeyHosts"] = [info[name]["origin"].split("://", 1)[1], f"{ns.ns_ip}:{sandbox_port + i}"]
        info[name]["origin"] = f"http://127.0.0.1:{outer + i}"
    info["port"] = outer
    h.adopt_sandbox(info)
    h.wait(lambda: request(outer, "GET", "/_sandbox/state")[0] == 200, "sandbox through the veth pair")
    return info, proxies


def network(baton, profile):
    """Taps at a steady rate while the path to the providers loses 5 % of its packets, is cut for a while, heals,
    then is slowed by 200 ± 100 ms per chunk: every tap answered (201 or a retryable problem with Retry-After),
    the p99 of the answers stated per condition, and no key with two journeys once healed."""
    h = Harness(baton, "network")
    failures, urls = [], []
    ns, proxies, ns_procs = None, [], []
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # run the cleanup below on timeout's SIGTERM
    try:
        ns = Namespace()
        _, proxies = sandbox_behind_proxies(h, ns, baton, ns_procs)
        port = free_block(1)
        proc = h.start_backend(port, "sqlite:" + os.path.join(h.dir, "baton.sqlite"), timeout_seconds=1)
        # The contract's bound on one app-visible answer: 3 attempts of `timeoutSeconds` (1 s) and the 0.2 + 0.4 s
        # backoffs between them (ProviderCallPolicy.worstCaseDuration), plus 2 s for everything else.
        bound_ms = (3 * 1 + 0.6 + 2) * 1000
        token = h.token("net-user")
        h.wait(lambda: h.shareable(port, token), "backend")

        load = Load([port], token, rate=profile["net_rate"], workers=48)
        phases = []

        def phase(name, seconds, setup):
            setup()
            start = time.monotonic()
            time.sleep(seconds)
            phases.append((name, start, time.monotonic()))

        phase("clean", profile["net_phase"], lambda: None)
        phase("5 % loss", profile["net_phase"], lambda: ns.rules(5))
        phase("partition", profile["net_partition"], lambda: ns.rules("drop"))
        phase("healed", profile["net_phase"], lambda: ns.rules(None))
        phase("200 ± 100 ms", profile["net_phase"], lambda: [p.set_delay(200, 100) for p in proxies])
        for p in proxies:
            p.set_delay(0, 0)
        results = load.stop()
        seen, urls, dupes = _judge_taps(h, results, failures, "network", "net-user")
        print(f"   namespace {ns.name}, veth {ns.host_if} {ns.host_ip} ⇄ {ns.ns_if} {ns.ns_ip}; "
              f"{len(results)} taps at {profile['net_rate']}/s; attempts by answer: {dict(seen)}")
        for name, start, end in phases:
            answered = [(took * 1000, a[0]) for s, took, a, _ in load.attempts if start <= s < end]
            codes = collections.Counter(a for _, a in answered)
            lat = [t for t, _ in answered]
            print(f"   {name:13s} {end - start:4.1f} s: {len(answered)} attempts {dict(codes)}, "
                  f"p50 {_pct(lat, .5):.0f} ms, p99 {_pct(lat, .99):.0f} ms, max {max(lat, default=0):.0f} ms")
            if lat and max(lat) > bound_ms:
                failures.append(f"{name}: an answer took {max(lat):.0f} ms, over the {bound_ms:.0f} ms bound")
        print(f"   keys with two journeys after healing: {dupes}; bound on one answer {bound_ms:.0f} ms")
        if proc.poll() is not None:
            failures.append(f"the backend exited ({proc.returncode})")
        failures = failures[:20]
    finally:
        h.close()
        for p in proxies:
            p.close()
        stop(ns_procs, timeout=10)
        if ns:
            ns.close()
        signal.signal(signal.SIGTERM, previous)
    return {"failures": failures, "logs": list(h.logs), "secrets": list(h.secrets) + urls, "dir": h.dir}


CHECKS = {"network": network}
