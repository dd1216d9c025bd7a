#!/usr/bin/env python3
"""smpi-sweep's overhead per point (docs/sweeps.md): the 1000-point study of
tests/sweep/sweep_1000.sh (a 4-rank ring, 10 sizes x 10 bandwidths x 10 latencies) run with
each backend, and the CPU time of everything that ran (smpi-sweep, GNU parallel, smpirun,
the simulations: getrusage of the children) against the sum of the points' own CPU time
(their cpu_time column). The difference over the number of points is the tool's cost per
point; the wall time is printed too, with the machine's load (on a shared machine the wall
time says little; the CPU difference is the steadier figure).

Usage: tools/bench/sweep_overhead.py BUILD_DIR [--backends local,parallel] [--jobs 2] [--repeat 2]
"""
import argparse
import csv
import os
import resource
import subprocess
import sys
import tempfile
import time

STUDY = """program: {ring}
args: ["{{size}}", 2, 1e5]
np: 4
platform-set: ["cluster[default]/bw={{bw}}", "cluster[default]/lat={{lat}}"]
cfg: ["smpi/simulate-computation:no"]
params:
  size: {{log: [1000, 1000000, 10]}}
  bw: {{log: [1Gbps, 100Gbps, 10]}}
  lat: {{log: [0.1us, 100us, 10]}}
"""


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--backends", default="local,parallel")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    sweep = os.path.join(build, "tools", "sweep", "smpi-sweep")
    ring = os.path.join(build, "tests", "sweep", "ring")
    with tempfile.TemporaryDirectory() as tmp:
        study = os.path.join(tmp, "thousand.yaml")
        with open(study, "w") as f:
            f.write(STUDY.format(ring=ring))
        print("backend   points  wall(s)  cpu_all(s)  cpu_points(s)  overhead_ms/point  load")
        for rep in range(a.repeat):
            for backend in a.backends.split(","):
                out = os.path.join(tmp, "%s-%d" % (backend, rep))
                c0, t0 = children_cpu(), time.monotonic()
                r = subprocess.run([sweep, "run", study, "-o", out, "-j", str(a.jobs),
                                    "--backend", backend, "-q"])
                wall, cpu = time.monotonic() - t0, children_cpu() - c0
                rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
                own = sum(float(x["cpu_time"] or 0) for x in rows)
                ok = sum(x["status"] == "ok" for x in rows)
                print("%-9s %6d  %7.2f  %10.2f  %13.2f  %17.2f  %s" % (
                    backend, ok, wall, cpu, own, 1e3 * (cpu - own) / len(rows),
                    open("/proc/loadavg").read().split()[0]), flush=True)
                if r.returncode != 0:
                    return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
