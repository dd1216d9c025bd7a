#!/usr/bin/env python3
"""Determinism test (issue 9): the same simulation run 10 times gives byte-identical output,
simulated times included (det.c prints every event's MPI_Wtime in hexadecimal floating
point, so the comparison is exact, not to printed digits).

det.c mixes wildcard receives, MPI_Waitany and MPI_Test polling, an MPI_Iprobe loop,
collectives and flops-only computation (SMPI_SAMPLE_FLOPS, smpi_execute_flops), and runs with
smpi/simulate-computation:no so that no measured CPU time enters the simulation. Two more
runs with the other context factory (ucontext) must give the same bytes too: the switching
mechanism must not change the schedule.

Usage: run.py SMPIRUN DETPROG [RUNS]
"""
import difflib
import re
import subprocess
import sys

OPTS = ["-np", "8", "--cfg=smpi/simulate-computation:no"]


# ASan's one-time notice when the ucontext factory runs (sanitizer builds): not the program's
ASAN_NOTICE = re.compile(rb"^==\d+==WARNING: ASan doesn't fully support makecontext.*\n", re.M)


def run(smpirun, prog, extra):
    r = subprocess.run([smpirun] + OPTS + extra + [prog], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return r.returncode, r.stdout, ASAN_NOTICE.sub(b"", r.stderr)


def main():
    smpirun, prog = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    plan = [[]] * runs + [["--cfg=contexts/factory:ucontext"]] * 2
    ref = None
    bad = 0
    for i, extra in enumerate(plan):
        rc, out, err = run(smpirun, prog, extra)
        what = "run %d%s" % (i + 1, " (" + " ".join(extra) + ")" if extra else "")
        if rc != 0:
            print("determinism: %s: exit status %d\n%s" % (what, rc, err.decode(errors="replace")),
                  file=sys.stderr)
            return 1
        if b"det: final simulated time" not in out:
            print("determinism: %s printed no final time" % what, file=sys.stderr)
            return 1
        if ref is None:
            ref = (out, err)
            continue
        for name, a, b in (("stdout", ref[0], out), ("stderr", ref[1], err)):
            if a != b:
                bad += 1
                print("determinism: %s: %s differs from run 1:" % (what, name), file=sys.stderr)
                diff = difflib.unified_diff(a.decode(errors="replace").splitlines(),
                                            b.decode(errors="replace").splitlines(),
                                            "run 1", what, lineterm="", n=1)
                for line in list(diff)[:20]:
                    print("    " + line, file=sys.stderr)
    lines = ref[0].decode().splitlines()
    print("determinism: %d runs, %d lines of output each, %s; %s" % (
        len(plan), len(lines), "all identical" if not bad else "%d differ" % bad, lines[-1]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
