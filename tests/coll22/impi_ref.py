#!/usr/bin/env python3
"""The impi selector against SimGrid 3.32's simulated times under it.

Usage: impi_ref.py SMPIRUN COLL_TIMING REF_FILE...

Each REF_FILE (tests/data/simgrid-ref/coll_flat256_<np>_impi*.txt, recorded with
tools/simgrid-ref/record_coll.py --selector impi, 1 to 16 ranks per host) holds rows
`<collective> impi <size> <ranks> <span> <mean>`. Every collective runs once per file
with all its sizes (coll_timing <collective>:impi forces the selector), with the selector's
debug log on, which names what the table picked for each call. A row whose pick is an
algorithm or selector this build lacks (`smpirun -help-coll` does not list it; none since
the last SimGrid names arrived) runs the default selector's choice instead and is reported
as pending, not compared; a row whose pick is a known difference of that algorithm (KNOWN
below) is reported as known; every other row must agree within 1 % on span and mean. At
least one row per file must be compared.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "mpi"))
from coll_timing_ref import parse, rel, TOL, FOLD  # noqa: E402

REDUCTIONS = {"reduce", "allreduce", "reduce_scatter"}

# (collective, the table's pick, hostfile): why smpi's time differs from SimGrid's there,
# at every size of the file (tests/mpi/coll_timing_ref.py lists the algorithm's difference
# at the sizes it measures)
KNOWN = {
    ("bcast", "SMP_linear", "coll_hosts256.txt"):
        "one rank per host: SimGrid's SMP_linear sends every message twice (coll_timing_ref.py)",
}


def available(smpirun):
    """{collective: names of its algorithms}, and the selectors, from -help-coll"""
    out = subprocess.run([smpirun, "-help-coll"], capture_output=True, text=True,
                         check=True).stdout
    algos, sels, coll, in_sel = {}, set(), None, False
    for line in out.splitlines():
        m = re.match(r"MPI_\w+ \(--cfg=smpi/(\w+):", line)
        if m:
            coll, in_sel = m.group(1), False
            algos[coll] = set()
            continue
        if line.startswith("Selectors:"):
            in_sel = True
            continue
        m = re.match(r"  (\S+)\s{2,}\S", line)
        if m and in_sel:
            sels.add(m.group(1))
        elif m and coll:
            algos[coll].add(m.group(1))
    return algos, sels


def impi_bytes(coll, size, np_):
    """the size the impi tables look at for coll_timing's call of `size` bytes"""
    if coll in ("barrier", "alltoallv"):
        return 1
    elem = 8 if coll in REDUCTIONS else 1
    b = max(1, int(size) // elem) * elem
    return b * np_ if coll in ("allgatherv", "reduce_scatter") else b


def main():
    smpirun, prog, refs = sys.argv[1], sys.argv[2], sys.argv[3:]
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    algos, sels = available(smpirun)
    bad = compared = pending = known = 0
    for ref in refs:
        plat, np_, hosts, rows = parse(ref)
        by_coll = {}
        for coll, algo, size, span, mean in rows:
            by_coll.setdefault(coll, []).append((size, span, mean))
        print("%s (%d ranks, hostfile %s)" % (os.path.basename(ref), np_, os.path.basename(hosts)))
        n_cmp = 0
        for coll, items in by_coll.items():
            cmd = [smpirun, "-np", str(np_), "-platform", os.path.join(root, plat),
                   "-hostfile", os.path.join(root, hosts), "--cfg=smpi/simulate-computation:no",
                   "--cfg=smpi/wtime:0", FOLD, "--log=smpi_coll.thres:debug", prog,
                   "-s", ",".join(s for s, _, _ in items), coll + ":impi"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                print("  %s: smpirun failed (%d): %s" % (coll, p.returncode, p.stderr[-400:]))
                bad += 1
                continue
            picks = {}
            for l in p.stderr.splitlines():
                m = re.search(r"impi: (\w+), \d+ ranks, -?\d+ per host, (\d+) B: (\w+)", l)
                if m:
                    picks.setdefault(int(m.group(2)), set()).add(m.group(3))
            ours = {}
            for l in p.stdout.splitlines():
                f = l.split()
                if len(f) == 5 and f[0] == coll + ":impi":
                    ours[f[1]] = (float(f[3]), float(f[4]))
            for size, span, mean in items:
                pick = picks.get(impi_bytes(coll, size, np_), set())
                missing = sorted(n for n in pick if n not in algos.get(coll, ()) and n not in sels)
                got = ours.get(size)
                if got is None:
                    status, d = "MISSING", float("nan")
                    bad += 1
                else:
                    d = max(rel(got[0], span), rel(got[1], mean))
                    if missing:
                        status = "pending (impi picks %s, not in this build)" % ",".join(missing)
                        pending += 1
                    elif not pick:
                        status = "NO PICK LOGGED"
                        bad += 1
                    elif d > TOL and len(pick) == 1 and \
                            (coll, min(pick), os.path.basename(hosts)) in KNOWN:
                        status = "known (%s): %s" % (min(pick), KNOWN[(coll, min(pick),
                                                                       os.path.basename(hosts))])
                        known += 1
                    elif d > TOL:
                        status = "DIFFERS (%s)" % ",".join(sorted(pick))
                        bad += 1
                    else:
                        status = "ok (%s)" % ",".join(sorted(pick))
                        compared += 1
                        n_cmp += 1
                print("  %-15s %-8s %-13.6e %-13.6e %8.2e %s" % (coll, size, span,
                      got[0] if got else float("nan"), d, status))
        if n_cmp == 0:
            print("  no row compared")
            bad += 1
    print("%d rows agree within 1 %%, %d known differences, %d pending, %d bad" % (
        compared, known, pending, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
