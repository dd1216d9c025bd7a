#!/usr/bin/env python3
"""maxmin/class-sharing at the MPI level: the same collectives on the flat cluster with the key
off (the general path) and on give the same simulated dates to DATE_TOL (the tolerance of
tests/class/check_class.c, where it is justified), and the class path really ran (classes
formed; somewhere one dissolved).

    check_class_mpi.py SMPIRUN CLASS_COLL PLATFORM"""
import re
import subprocess
import sys

DATE_TOL = 1e-11
CASES = [  # (ranks, program arguments)
    (64, ["alltoall", "16384", "2"]),
    (128, ["alltoall", "16384", "2"]),
    (128, ["alltoallv", "16384", "2"]),
    (64, ["allreduce", "1048576", "2"]),
    (256, ["allreduce", "1048576", "2"]),
    (256, ["allreduce", "8192", "3"]),
]
LINE = re.compile(r"^call (\d+): rank 0 (\S+) latest (\S+)$", re.M)


def run(smpirun, prog, plat, n, args, classes):
    cmd = [smpirun, "-np", str(n), "-platform", plat, "--cfg=smpi/simulate-computation:no",
           "--cfg=maxmin/class-sharing:" + ("yes" if classes else "no"),
           "--log=act_class.thres:debug", prog] + args
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=90)
    if r.returncode != 0:
        sys.exit("FAIL: %s exited %d:\n%s" % (" ".join(cmd), r.returncode, r.stderr[-2000:]))
    dates = [(float(a), float(b)) for _, a, b in LINE.findall(r.stdout)]
    if len(dates) != int(args[2]):
        sys.exit("FAIL: %s printed %r" % (" ".join(cmd), r.stdout))
    return dates, r.stderr.count(" formed at "), r.stderr.count(" dissolved at ")


def main():
    smpirun, prog, plat = sys.argv[1:4]
    bad, dissolved, worst = 0, 0, 0.0
    for n, args in CASES:
        general, f0, _ = run(smpirun, prog, plat, n, args, False)
        classes, formed, d = run(smpirun, prog, plat, n, args, True)
        dissolved += d
        if f0 or not formed:
            print("FAIL %d %s: %d classes formed with the key off, %d with it on"
                  % (n, " ".join(args), f0, formed))
            bad += 1
        for i, (g, c) in enumerate(zip(general, classes)):
            for what, x, y in (("rank 0", g[0], c[0]), ("latest", g[1], c[1])):
                rel = abs(x - y) / max(abs(x), abs(y))
                worst = max(worst, rel)
                if rel > DATE_TOL:
                    print("FAIL %d %s call %d %s: %.17g (general) vs %.17g (classes)"
                          % (n, " ".join(args), i, what, x, y))
                    bad += 1
        print("ok %d ranks %s: %d classes formed, %d dissolved" % (n, " ".join(args), formed, d))
    if not dissolved:
        print("FAIL: no class dissolved in any case (that path went untested)")
        bad += 1
    print("worst relative difference of a date: %.3g (tolerance %g)" % (worst, DATE_TOL))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
