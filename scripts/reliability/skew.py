"""Providers whose clock is ten minutes off (issue 19 item 4), with `baton sandbox --clock-offset`."""
import json
import os
import subprocess
import threading

from checks import _metric
from harness import Harness, free_block, new_key, read_text, request, share
from loadgen import _wait


# -- clock skew -------------------------------------------------------------------------------------------------
def clock_skew(baton, profile):
    """The providers' clock 10 minutes ahead of, then behind, the backend's (`baton sandbox --clock-offset`): the
    providers' webhooks are refused, counted and logged with the skew, and the polled result path still reaches the
    right final state for BB and Privue; a share still gets its journey."""
    failures, logs, secrets, dirs = [], [], [], []
    for offset in (600, -600):
        h = Harness(baton, f"skew{offset:+d}")
        try:
            port = free_block(1)
            sb = start_skewed_sandbox(h, offset, port)
            h.start_backend(port, "sqlite:" + os.path.join(h.dir, "baton.sqlite"))
            token = h.token("skew-user")
            auth = {"Authorization": f"Bearer {token}"}
            h.wait(lambda h=h, port=port, token=token: h.shareable(port, token), "backend")
            share_status = share(port, token, new_key())[0]
            # BB: a connect session completed on the provider; its webhook is refused; the poll finds the outcome.
            _, _, raw = request(port, "POST", "/v2/connect-sessions", json.dumps({"callback": "https"}), auth)
            session_id = json.loads(raw)["sessionId"]
            bb_port = int(sb["bb"]["origin"].rsplit(":", 1)[1])
            request(bb_port, "POST", f"/_sandbox/journeys/{session_id}/complete", '{"resultCode":"Ok"}')
            # Privue: the same for a verification.
            _, _, raw = request(port, "POST", "/v2/verification-handoffs", json.dumps({"workflow": "merchant-onboarding"}),
                                auth)
            _, _, raw2 = request(port, "GET", "/v2/verifications/merchant-onboarding", headers=auth)
            verification = json.loads(raw2)["verificationId"]
            pv_port = int(sb["privue"]["origin"].rsplit(":", 1)[1])
            request(pv_port, "POST", f"/_sandbox/journeys/{verification}/complete", '{"status":"approved"}')
            rejected = lambda port=port: _metric(port, "baton_webhook_verifications_total", provider="bb",
                                       result="timestamp_out_of_tolerance") >= 1 and _metric(
                port, "baton_webhook_verifications_total", provider="privue", result="timestamp_out_of_tolerance") >= 1
            counted = _wait(rejected, 20)
            bb_state = json.loads(request(port, "GET", f"/v2/connect-sessions/{session_id}", headers=auth)[2])
            pv_state = json.loads(request(port, "GET", "/v2/verifications/merchant-onboarding", headers=auth)[2])
            accepted = sum(_metric(port, "baton_webhook_verifications_total", provider=p, result="accepted")
                           for p in ("bb", "privue"))
            h.close()
            lines = [l for l in read_text(os.path.join(h.dir, "backend.log")).splitlines()
                     if '"event":"webhook_rejected"' in l]
            skews = sorted({json.loads(l).get("skew_seconds") for l in lines})
            print(f"   providers {offset:+d} s: share {share_status}; webhooks refused and counted: {counted}, "
                  f"accepted {accepted}; rejection lines {len(lines)} with skew_seconds {skews}; polled BB "
                  f"{bb_state.get('status')}, Privue {pv_state.get('status')}")
            if share_status != 201:
                failures.append(f"{offset:+d} s: share answered {share_status}")
            if not counted or accepted:
                failures.append(f"{offset:+d} s: webhooks not refused as out of tolerance (accepted {accepted})")
            if not lines or any(s is None or abs(s - offset) > 5 for s in skews):
                failures.append(f"{offset:+d} s: rejection lines {len(lines)} with skews {skews}")
            if bb_state.get("status") != "ok" or not bb_state.get("connectionId"):
                failures.append(f"{offset:+d} s: BB polled state {bb_state}")
            if pv_state.get("status") != "approved":
                failures.append(f"{offset:+d} s: Privue polled state {pv_state}")
        finally:
            h.close()
        logs += h.logs
        secrets += h.secrets
        dirs.append(h.dir)
    return {"failures": failures, "logs": logs, "secrets": secrets, "dirs": dirs}


def start_skewed_sandbox(h, offset, webhook_port):
    """`baton sandbox --clock-offset` delivering its webhooks to the backend on `webhook_port`."""
    port = free_block(3)
    args = [h.baton, "sandbox", "--port", str(port), "--state", os.path.join(h.dir, "sandbox-state"), "--json",
            "--clock-offset", str(offset),
            "--privue-webhook", f"http://127.0.0.1:{webhook_port}/webhooks/privue",
            "--bb-webhook", f"http://127.0.0.1:{webhook_port}/webhooks/bb"]
    log = os.path.join(h.dir, "sandbox.log")
    h.logs.append(log)
    out = open(log, "w")  # noqa: SIM115 -- kept open: a thread copies the rest of stdout into it
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=out, text=True)
    h.procs.append(p)
    info = json.loads(p.stdout.readline())
    threading.Thread(target=lambda: [out.write(l) for l in p.stdout], daemon=True).start()
    info["port"] = port
    h.adopt_sandbox(info)
    h.wait(lambda: request(port, "GET", "/_sandbox/state")[0] == 200, "sandbox")
    return info


CHECKS = {"clock-skew": clock_skew}
