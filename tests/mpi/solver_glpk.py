#!/usr/bin/env python3
"""A whole simulation on the GLPK solver (--cfg=maxmin/solver:glpk) gives the default max-min
solver's simulated times.

Usage: solver_glpk.py SMPIRUN COLL_TIMING PLATFORM

Runs coll_timing (tests/mpi/coll_timing.c) on 16 ranks of PLATFORM, a cluster whose shared
backbone makes the collectives' flows contend, once per solver, and compares every span and
mean. Both solvers compute the exact max-min allocation; what separates them is rounding
(GLPK's simplex: about 1e-13 relative) and the precision P of the solver, within which
either keeps a flow's old rate (kernel/lmm_glpk.c, TOLERANCE). The runs set P to 1e-9, so the
times must agree to TOL = 10 P relative; a wrong rate of 1e-7 anywhere fails. The GLPK run
must also say that it used GLPK (its start-up notice), so that an ignored key cannot pass.
Exit 1 on any difference.
"""
import subprocess
import sys

PREC = 1e-9
TOL = 10 * PREC
COMMON = ["-np", "16", "--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0",
          f"--cfg=maxmin/precision:{PREC}"]
ARGS = ["-s", "8,65536,1048576", "alltoall", "allreduce", "bcast", "scatter", "allgather",
        "reduce_scatter", "gather"]


def run(smpirun, prog, platform, solver):
    p = subprocess.run([smpirun, "-platform", platform] + COMMON +
                       [f"--cfg=maxmin/solver:{solver}", prog] + ARGS,
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"solver_glpk: smpirun with maxmin/solver:{solver} failed:\n{p.stderr}")
    rows = {}
    for line in p.stdout.splitlines():
        f = line.split()
        rows[(f[0], f[1])] = (float(f[3]), float(f[4]))
    return rows, p.stderr


def main():
    smpirun, prog, platform = sys.argv[1:4]
    ref, _ = run(smpirun, prog, platform, "maxmin")
    got, err = run(smpirun, prog, platform, "glpk")
    if "GLPK" not in err:
        sys.exit("solver_glpk: the glpk run did not report using GLPK:\n" + err)
    if len(ref) != 21 or set(ref) != set(got):
        sys.exit(f"solver_glpk: rows differ: maxmin {sorted(ref)}, glpk {sorted(got)}")
    bad = 0
    worst = 0.0
    for key in ref:
        for what, a, b in zip(("span", "mean"), ref[key], got[key]):
            dev = abs(a - b) / max(abs(a), abs(b))
            worst = max(worst, dev)
            if dev > TOL:
                print(f"{key[0]} {key[1]} {what}: maxmin {a!r}, glpk {b!r} ({dev:.3g} relative)")
                bad += 1
    print(f"solver_glpk: {len(ref)} collectives, worst relative difference {worst:.3g} "
          f"(tolerance {TOL:g}), {bad} over")
    sys.exit(1 if bad else 0)


main()
