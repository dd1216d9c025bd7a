#!/usr/bin/env python3
"""Clock polls run ahead (smpi/wtime-ahead, issue 27, docs/polling.md).

    check.py SMPIRUN AHEAD PLATFORM

ahead.c's phases (ranks polling at equal dates, the shared smpi/iprobe counter, an event
within the timing precision of a poll's date, virtual clocks, computations and an absolute
sleep between polls, OSU's poll-then-test loop, pollers and sleepers at the same dates, ranks
ending after polls) run with
smpi/wtime-ahead:yes (the default) and :no, each with and without inline steps: the printed
dates and the Paje trace of every call (15 decimals) must be identical, and polling ahead
must save the context switches it exists for (fewer than half of :no's).
"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile

smpirun, prog, platform = sys.argv[1:4]
NP, K = 6, 300
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*cfg):
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "trace")
        cmd = [smpirun, "-np", str(NP), "-platform", platform,
               "--cfg=smpi/simulate-computation:no", "--cfg=smpi/display-timing:yes",
               "--cfg=tracing/precision:15", "-trace",
               "-trace-file", trace, "--log=engine.thresh:verbose", *cfg, prog, str(K)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            failures.append("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
            return None
        with open(trace, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()[:16]
    lines = sorted(l for l in p.stdout.splitlines() if l.startswith("ahead:"))
    sim = re.search(r"simulated time: (\S+)", p.stderr)
    st = re.search(r"(\d+) actor switches", p.stderr)
    return {"lines": lines, "trace": sha, "end": sim.group(1) if sim else None,
            "switches": int(st.group(1)) if st else None}


configs = {
    "ahead": [],
    "ahead, no inline steps": ["--cfg=contexts/inline-steps:no"],
    "no ahead": ["--cfg=smpi/wtime-ahead:no"],
    "no ahead, no inline steps": ["--cfg=smpi/wtime-ahead:no", "--cfg=contexts/inline-steps:no"],
}
res = {name: run(*cfg) for name, cfg in configs.items()}
ref = res["no ahead"]
check(ref is not None and len(ref["lines"]) == 6 * NP,
      "reference run printed %d dates" % (len(ref["lines"]) if ref else 0))
if ref:
    for name, r in res.items():
        if r is None or name == "no ahead":
            continue
        diff = [(a, b) for a, b in zip(ref["lines"], r["lines"]) if a != b]
        check(not diff and len(r["lines"]) == len(ref["lines"]),
              "%s: same dates as without%s" % (name, "" if not diff else
                                                ": %s <> %s" % diff[0]))
        check(r["trace"] == ref["trace"], "%s: same trace (%s)" % (name, r["trace"]))
        check(r["end"] == ref["end"], "%s: simulated time %s" % (name, r["end"]))
    a = res["ahead"]
    if a:
        check(a["switches"] is not None and ref["switches"] is not None
              and 2 * a["switches"] < ref["switches"],
              "polling ahead: %s actor switches, %s without" % (a["switches"], ref["switches"]))
bad = subprocess.run([smpirun, "-np", "2", "--cfg=smpi/wtime-ahead:maybe", prog, "1"],
                     capture_output=True, text=True, timeout=60)
check(bad.returncode != 0 and "smpi/wtime-ahead" in bad.stderr,
      "a bad smpi/wtime-ahead value is refused, naming the key")
if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
print("polling_ahead: OK")
