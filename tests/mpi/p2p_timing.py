#!/usr/bin/env python3
"""Compare the simulated dates p2p_timing.c prints under our smpirun with those SimGrid 3.32
printed (p2p_timing_simgrid.txt), scenario by scenario.

Usage:
  p2p_timing.py SMPIRUN PROG [--ref FILE] [--tol REL]   compare (exit 1 on a difference)
  p2p_timing.py --record PROG > p2p_timing_simgrid.txt  rerun SimGrid (PROG built with its
                                                        smpicc; smpirun on the PATH)
Commands run from the repository root; platform tests/data/simgrid-ref/platforms/cluster16.xml.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLATFORM = "tests/data/simgrid-ref/platforms/cluster16.xml"
COMMON = ["--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0",
          "--cfg=smpi/os:0:1e-5:1e-9;65536:2e-5:1e-10",
          "--cfg=smpi/or:0:2e-5:2e-9;65536:3e-5:2e-10",
          "--cfg=smpi/ois:0:5e-6:1e-10"]
MODES = ["send", "ssend", "rsend", "bsend", "isend", "issend", "irsend", "ibsend",
         "send_init", "ssend_init", "bsend_init", "rsend_init"]

# (scenario argument, ranks, extra options)
SCENARIOS = []
for m in MODES:
    for n in (1, 100000):
        for late in ("", "_late"):
            SCENARIOS.append((f"mode{m}_{n}{late}", 2, []))
for m in ("send", "isend", "ssend"):
    SCENARIOS.append((f"mode{m}_10_late", 2, ["--cfg=smpi/async-small-thresh:64"]))
    SCENARIOS.append((f"mode{m}_10", 2, ["--cfg=smpi/async-small-thresh:64"]))
for n in (1, 100000):
    SCENARIOS.append((f"sendrecv_{n}", 2, []))
    SCENARIOS.append((f"sendrecv_replace_{n}", 2, []))
SCENARIOS.append(("selfsendrecv", 1, []))
# (no MPI_Request_get_status scenario: SimGrid 3.32 answers flag = 1 for a request still in
# progress, which we do not reproduce)
for p in ("test", "iprobe", "testany", "testall", "testsome", "waitsome", "probe"):
    SCENARIOS.append((p, 3, []))
SCENARIOS.append(("test", 3, ["--cfg=smpi/grow-injected-times:no"]))
SCENARIOS.append(("iprobe", 3, ["--cfg=smpi/grow-injected-times:no", "--cfg=smpi/iprobe:3e-4"]))
SCENARIOS.append(("waitall_or", 5, []))
SCENARIOS.append(("mixed", 3, []))


def key(sc, np, extra):
    return " ".join([sc, str(np)] + extra)


def run(smpirun, prog, sc, np, extra, simgrid):
    cmd = [smpirun, "-np", str(np), "-platform", PLATFORM] + COMMON + extra
    if simgrid:
        cmd += ["--log=root.thresh:critical"]
    cmd += [prog, sc]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stderr[-2000:]}")
    vals = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            vals[parts[0]] = float(parts[1])
    return vals


def record(prog):
    print("# p2p_timing.c under SimGrid 3.32 (libsimgrid-dev 3.32-2+b2), one run per scenario:")
    print(f"# smpirun -np NP -platform {PLATFORM} {' '.join(repr(c) for c in COMMON)} EXTRA"
          " --log=root.thresh:critical p2p_timing SCENARIO")
    print("# (p2p_timing built with SimGrid's smpicc; tests/mpi/p2p_timing.py --record)")
    for sc, np, extra in SCENARIOS:
        print(f"scenario {key(sc, np, extra)}")
        for k, v in sorted(run("smpirun", prog, sc, np, extra, True).items()):
            print(f"{k} {v!r}")


def load(path):
    ref, cur = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            if line.startswith("scenario "):
                cur = ref.setdefault(line[len("scenario "):].strip(), {})
            elif line.strip():
                k, v = line.split()
                cur[k] = float(v)
    return ref


def main():
    a = sys.argv[1:]
    if a and a[0] == "--record":
        record(os.path.abspath(a[1]))
        return 0
    if len(a) < 2:
        raise SystemExit(__doc__)
    smpirun, prog = os.path.abspath(a[0]), os.path.abspath(a[1])
    refpath = os.path.join(os.path.dirname(os.path.abspath(__file__)), "p2p_timing_simgrid.txt")
    tol = 1e-9
    i = 2
    while i < len(a):
        if a[i] == "--ref":
            refpath, i = a[i + 1], i + 2
        elif a[i] == "--tol":
            tol, i = float(a[i + 1]), i + 2
        else:
            raise SystemExit(f"unknown argument {a[i]}")
    ref = load(refpath)
    bad = 0
    for sc, np, extra in SCENARIOS:
        k = key(sc, np, extra)
        want = ref.get(k)
        if want is None:
            print(f"{k}: no reference")
            bad += 1
            continue
        got = run(smpirun, prog, sc, np, extra, False)
        diffs = []
        for label in sorted(set(want) | set(got)):
            w, g = want.get(label), got.get(label)
            if w is None or g is None:
                diffs.append(f"{label}: SimGrid {w}, ours {g}")
            elif abs(w - g) > tol * max(abs(w), 1e-6):
                diffs.append(f"{label}: SimGrid {w:.9f}, ours {g:.9f}")
        if diffs:
            bad += 1
            print(f"{k}: DIFFERS")
            for d in diffs:
                print("   ", d)
        else:
            print(f"{k}: ok ({len(want)} dates)")
    print(f"{len(SCENARIOS) - bad} of {len(SCENARIOS)} scenarios match SimGrid 3.32")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
