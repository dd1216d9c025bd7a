#!/usr/bin/env python3
"""tests/mpi/execute_units.c (the simulated cost of smpi_execute, smpi_execute_benched,
SMPI_SAMPLE_DELAY, smpi_execute_flops, SMPI_SAMPLE_FLOPS) against SimGrid 3.32's
(tests/data/simgrid-ref/execute_units.txt): default options, smpi/host-speed:2Gf and
smpi/cpu-threshold:0.01, each on one rank of tests/data/simgrid-ref/platforms/cluster16.xml
(1 Gflop/s hosts).

    execute_units.py SMPIRUN EXECUTE_UNITS REF.txt     compare (1e-9 relative, 1e-15 s absolute)
    execute_units.py --record REF.txt                  rewrite REF.txt with SimGrid's smpicc and
                                                       smpirun (from the repository root)

Until 2026-11-22 ours took the opposite units for smpi_execute and smpi_execute_benched, and
SMPI_SAMPLE_DELAY ignored smpi/cpu-threshold (tests/data/simgrid-ref/hpl_notes.md); this test
was registered should_fail then and keeps them SimGrid's now.
"""
import os
import shlex
import subprocess
import sys
import tempfile

from simgrid_ref import ROOT, simgrid_build, simgrid_version
BASE = ["-np", "1", "-platform", "tests/data/simgrid-ref/platforms/cluster16.xml",
        "--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0"]
VARIANTS = {"default": [], "hostspeed2G": ["--cfg=smpi/host-speed:2Gf"],
            "threshold10ms": ["--cfg=smpi/cpu-threshold:0.01"]}


def run(smpirun, prog, variant, extra=()):
    cmd = [smpirun] + BASE + list(extra) + VARIANTS[variant] + [prog]
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    values = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[0] == "execute_units":
            values[f[1]] = f[2]
    if r.returncode != 0 or not values:
        raise SystemExit("execute_units: %s failed (rc %d):\n%s%s"
                         % (" ".join(map(shlex.quote, cmd)), r.returncode, r.stdout, r.stderr))
    return values


def record(out):
    version = simgrid_version()
    with tempfile.TemporaryDirectory() as tmp:
        prog = simgrid_build(tmp, "execute_units")
        rows = [(v, k, t) for v in VARIANTS
                for k, t in run("smpirun", prog, v, ["--log=xbt_cfg.thresh:warning"]).items()]
    with open(out, "w") as f:
        f.write("# simulated seconds of each computation-injection call, one rank, cluster16.xml "
                "(1 Gflop/s hosts)\n")
        f.write("# simgrid: %s\n" % version)
        f.write("# command: smpirun %s [VARIANT OPTIONS] execute_units\n" % " ".join(BASE))
        for v, opts in VARIANTS.items():
            f.write("# variant %s: %s\n" % (v, " ".join(opts) or "(none)"))
        f.write("# (execute_units = tests/mpi/execute_units.c built by SimGrid's smpicc -O2; "
                "recorded by tests/mpi/execute_units.py --record, run from the repository root)\n")
        f.write("# columns: variant call seconds\n")
        f.writelines("%s %s %s\n" % row for row in rows)


def main():
    argv = sys.argv[1:]
    if len(argv) == 2 and argv[0] == "--record":
        record(argv[1])
        return 0
    if len(argv) != 3:
        raise SystemExit(__doc__)
    smpirun, prog, ref = os.path.abspath(argv[0]), os.path.abspath(argv[1]), argv[2]
    refs = {}
    with open(ref) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                v, k, t = line.split()
                refs.setdefault(v, {})[k] = float(t)
    bad = 0
    for v, want in refs.items():
        got = run(smpirun, prog, v)
        for k, sg in want.items():
            ours = float(got[k]) if k in got else None
            ok = ours is not None and abs(ours - sg) <= max(1e-9 * abs(sg), 1e-15)
            bad += not ok
            print("%-13s %-20s ours %-24s SimGrid %-24.17g %s"
                  % (v, k, "missing" if ours is None else "%.17g" % ours, sg,
                     "ok" if ok else "DIFFERS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
