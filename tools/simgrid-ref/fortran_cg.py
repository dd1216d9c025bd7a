#!/usr/bin/env python3
"""The Fortran CG kernel (tests/fortran/cg.f90) against the simulated times SimGrid 3.32's
smpif90/smpirun print for the same runs (tests/data/simgrid-ref/fortran_cg_cluster16.txt):
cluster16.xml, node-i = rank i, smpi/simulate-computation:no and smpi/wtime:0 on both sides
(the CPU cost is injected as flops by the program itself).

    fortran_cg.py SMPIRUN CG REF.txt [--tol REL]   compare (default REL 1e-6)
    fortran_cg.py --record REF.txt                 rebuild cg.f90 with SimGrid's smpif90 and
                                                   rewrite REF.txt (run from anywhere)

The cases: 4, 8 and 16 ranks on a 1024 x 1024 grid (8 KiB halo rows, eager), 16 ranks on
4096 x 256 (32 KiB rows) and 5 ranks on 8192 x 100 (64 KiB rows: past the 65 536-byte
detached-send threshold, rendezvous)."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "mpi"))
from simgrid_ref import ROOT, compare_args, hostfile, read_refs, simgrid_version  # noqa: E402

PLATFORM = "tests/data/simgrid-ref/platforms/cluster16.xml"
SOURCE = "tests/fortran/cg.f90"
CASES = [(4, 1024, 1024, 40), (8, 1024, 1024, 40), (16, 1024, 1024, 40),
         (16, 4096, 256, 30), (5, 8192, 100, 30)]
CFG = ["--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0"]
LINE = re.compile(r"cg: (\d+)x(\d+) (\d+) ranks (\d+) iterations error +\S+ time +(\S+) s OK")


def run(smpirun, prog, case, tmp, extra=()):
    np_, nx, ny, iters = case
    cmd = [smpirun, "-np", str(np_), "-platform", PLATFORM, "-hostfile", hostfile(tmp, 16)] + list(extra) \
        + CFG + [prog, str(nx), str(ny), str(iters)]
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=300)
    m = LINE.search(r.stdout)
    if r.returncode != 0 or not m:
        raise SystemExit("fortran_cg: %s failed (rc %d):\n%s"
                         % (" ".join(map(shlex.quote, cmd)), r.returncode, r.stdout[-3000:]))
    return float(m.group(5))


def record(out):
    version = simgrid_version()
    with tempfile.TemporaryDirectory() as tmp:
        prog = os.path.join(tmp, "cg")
        build = ["smpif90", "-O2", os.path.join(ROOT, SOURCE), "-o", prog]
        print("build: " + " ".join(build), file=sys.stderr)
        subprocess.run(build, cwd=tmp, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        lines = ["cg %d %d %d %d %.17g\n" % (case + (run("smpirun", prog, case, tmp,
                                                         ["--log=xbt_cfg.thresh:warning"]),))
                 for case in CASES]
    with open(out, "w") as f:
        f.write("# Fortran CG kernel (%s NX NY ITERS), %s, node-i = rank i\n"
                % (SOURCE, PLATFORM.split("/")[-1]))
        f.write("# simgrid: %s\n" % version)
        f.write("# command: smpirun -np P -platform %s -hostfile H %s cg NX NY ITERS\n"
                % (PLATFORM, " ".join(CFG)))
        f.write("# (H lists node-0 .. node-15; cg built by SimGrid's smpif90 -O2; recorded by "
                "tools/simgrid-ref/fortran_cg.py --record)\n")
        f.write("# columns: cg ranks NX NY ITERS simulated_time(s, as the program prints it)\n")
        f.writelines(lines)


def main():
    argv = sys.argv[1:]
    if len(argv) == 2 and argv[0] == "--record":
        record(argv[1])
        return 0
    smpirun, prog, ref, tol = compare_args(argv, 1e-6, __doc__)
    refs = read_refs(ref, "cg", "fortran_cg")
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case, sg in refs:
            ours = run(smpirun, prog, case, tmp)
            rel = (ours - sg) / sg
            ok = abs(rel) <= tol
            bad += not ok
            print("cg %d ranks %dx%d %d iterations: ours %.12g s, SimGrid %.12g s, %+.2e %s"
                  % (case[0], case[1], case[2], case[3], ours, sg, rel,
                     "ok" if ok else "FAIL (tolerance %g)" % tol))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
