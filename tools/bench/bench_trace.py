#!/usr/bin/env python3
"""Cost of the instrumentation (docs/tracing.md): wall time of message-heavy runs of
programs/bench_mpi.c without tracing and with each output on.

    tools/bench/bench_trace.py                        # build-bench, 3 reps
    tools/bench/bench_trace.py --build-dir build-me --reps 5 --np 256 --cases shiftring
    tools/bench/bench_trace.py --base-build DIR       # also: a build without the hooks

The issue's targets: tracing off costs nothing measurable (compare with --base-build, a
build of the commit before the hooks), tracing on stays within 2x of the untraced wall time.
Prints one markdown table: median wall (min-max) per mode and its ratio to "off".
Traces go to a temporary directory (on the same file system as /tmp)."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

MODES = [
    ("off", []),
    ("paje", ["-trace"]),
    ("paje+sizes", ["-trace", "--cfg=tracing/smpi/display-sizes:yes"]),
    ("json", ["-trace", "--cfg=tracing/format:json"]),
    # every message of the collectives' algorithms becomes a link / flow: the worst case
    ("paje+internals", ["-trace", "--cfg=tracing/smpi/internals:yes",
                        "--cfg=tracing/smpi/display-sizes:yes"]),
    ("json+internals", ["-trace", "--cfg=tracing/format:json", "--cfg=tracing/smpi/internals:yes"]),
    ("ti", ["-trace-ti"]),
    ("profile", ["--cfg=smpi/profile:yes"]),
]


def build(build_dir, out):
    cc = os.path.join(build_dir, "tools", "smpicc")
    src = os.path.join(HERE, "programs", "bench_mpi.c")
    subprocess.run([cc, "-O2", src, "-o", out], check=True)


def run_once(build_dir, prog, np_, case, extra, tmp):
    cmd = [os.path.join(build_dir, "tools", "smpirun"), "-np", str(np_), "-platform",
           os.path.join(HERE, "platforms", "cluster_flat.xml"),
           "--cfg=smpi/simulate-computation:no", "--cfg=smpi/privatization:no"] + extra + [
               prog, case]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    size = 0
    for dirpath, _, files in os.walk(tmp):
        for f in files:
            size += os.path.getsize(os.path.join(dirpath, f))
    return wall, size


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--base-build", help="a build without the tracing hooks (for 'off')")
    ap.add_argument("--np", type=int, default=64)
    ap.add_argument("--cases", default="shiftring,alltoall,allreduce")
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    a.build_dir = os.path.abspath(a.build_dir)
    if a.base_build:
        a.base_build = os.path.abspath(a.base_build)
    with tempfile.TemporaryDirectory() as work:
        prog = os.path.join(work, "bench_mpi")
        build(a.build_dir, prog)
        builds = [("", a.build_dir, prog, MODES)]
        if a.base_build:
            base_prog = os.path.join(work, "bench_mpi_base")
            build(a.base_build, base_prog)
            builds.insert(0, ("no hooks", a.base_build, base_prog, MODES[:1]))
        print("np=%d, %d reps, median (min-max) wall seconds of the whole smpirun command\n"
              % (a.np, a.reps))
        print("| case | mode | wall (s) | vs off | trace size |")
        print("|---|---|---|---|---|")
        for case in a.cases.split(","):
            results = {}
            for rep in range(a.reps):
                # alternate the order so that a noisy moment does not hit one mode only
                order = [(lbl, bd, pg, m) for lbl, bd, pg, ms in builds for m in ms]
                if rep % 2:
                    order.reverse()
                for lbl, bd, pg, (mode, extra) in order:
                    name = (lbl + " " + mode).strip() if lbl else mode
                    with tempfile.TemporaryDirectory(dir=work) as tmp:
                        w, s = run_once(bd, pg, a.np, case, extra, tmp)
                    results.setdefault(name, []).append((w, s))
            off = statistics.median(w for w, _ in results["off"])
            for name, rs in results.items():
                ws = [w for w, _ in rs]
                med = statistics.median(ws)
                size = rs[-1][1]
                print("| %s | %s | %.3f (%.3f-%.3f) | %.2fx | %s |" %
                      (case, name, med, min(ws), max(ws), med / off,
                       "%.1f MiB" % (size / 2**20) if size else "-"))


if __name__ == "__main__":
    main()
