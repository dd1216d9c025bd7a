#!/usr/bin/env python3
"""The automatic selector (smpi/coll-selector:automatic) runs, at every call, every
algorithm of the collective that can serve the call and reports the quickest on rank 0.

At 8 ranks (a power of two, 8 = 2 x 4 = 2 x 2 x 2, one rank per host, MPI_SUM) every
algorithm `smpirun -help-coll` lists for the collective fits except those needing exactly 2
ranks, and count >= 8 for the count ones (the 8-byte allreduce is one double): so many must
be tried, the reported quickest must be one of them, and the call must cost at least as
much as the default's choice times 3 (all the runs add up, with a Barrier and a Reduce
each). Usage: automatic.py SMPIRUN COLL_TIMING
"""
import re
import subprocess
import sys

COLLS = ["bcast", "allreduce", "alltoall", "allgather"]


def algorithms(smpirun):
    out = subprocess.run([smpirun, "-help-coll"], capture_output=True, text=True,
                         timeout=60).stdout
    algos, coll = {}, None
    for line in out.splitlines():
        m = re.match(r"MPI_\w+ \(--cfg=smpi/(\w+):", line)
        if m:
            coll = m.group(1)
            algos[coll] = []
            continue
        m = re.match(r"  (\S+)\s{2,}(.*)", line)
        if m and coll and not line.startswith("  picks"):
            algos[coll].append((m.group(1), m.group(2)))
    return algos


def span(smpirun, exe, coll, extra):
    p = subprocess.run([smpirun, "-np", "8", "--cfg=smpi/simulate-computation:no",
                        "--cfg=smpi/wtime:0"] + extra + [exe, "-s", "8", coll],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (coll, p.stderr[-500:]))
    rows = [l.split() for l in p.stdout.splitlines() if l.startswith(coll + " ")]
    return float(rows[0][3]), p.stderr


def main():
    smpirun, exe = sys.argv[1], sys.argv[2]
    algos = algorithms(smpirun)
    bad = []
    for coll in COLLS:
        fit = [a for a, d in algos[coll]
               if "needs 2 ranks" not in d and "count >=" not in d
               and "picks" not in a]
        t_def, _ = span(smpirun, exe, coll, [])
        t_auto, err = span(smpirun, exe, coll, ["--cfg=smpi/coll-selector:automatic"])
        m = re.search(r"\(automatic\): (\d+) algorithms tried, the quickest was (\S+):", err)
        if not m:
            bad.append("%s: no report of the automatic selector" % coll)
            continue
        tried, best = int(m.group(1)), m.group(2)
        print("%-10s %2d tried (expected %2d), quickest %-22s default %.3e s, automatic %.3e s"
              % (coll, tried, len(fit), best, t_def, t_auto))
        if tried != len(fit):
            bad.append("%s: %d algorithms tried, %d fit" % (coll, tried, len(fit)))
        if best not in fit:
            bad.append("%s: quickest '%s' is not one of its algorithms" % (coll, best))
        if t_auto < 3 * t_def:
            bad.append("%s: automatic took %g s, not the sum of its runs (default %g s)"
                       % (coll, t_auto, t_def))
    for b in bad:
        print("FAIL", b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
