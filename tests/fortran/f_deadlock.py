#!/usr/bin/env python3
"""f_deadlock.f90 under smpirun: the job fails, and the deadlock report names each rank's
MPI_Recv with the Fortran file:line of the call (the binding passes its caller's address as
the call site: smpi/bindings/call.c, call_hint).

Usage: f_deadlock.py SMPIRUN PROG
"""
import subprocess
import sys

WANT = ["rank 0 (pid 1): MPI_Recv from rank 1, tag 5, on MPI_COMM_WORLD",
        "rank 0 waits in MPI_Recv at ", "f_deadlock.f90:10 for rank 1",
        "rank 1 waits in MPI_Recv at ", "f_deadlock.f90:10 for rank 0"]


def main():
    res = subprocess.run([sys.argv[1], "-np", "2", sys.argv[2]], capture_output=True,
                         text=True, timeout=60)
    problems = [] if res.returncode != 0 else ["exit status 0"]
    problems += ["missing: " + w for w in WANT if w not in res.stderr]
    if problems:
        print("f_deadlock: FAILED: " + "; ".join(problems))
        print("  stderr was:\n    " + res.stderr.strip().replace("\n", "\n    "))
        return 1
    print("f_deadlock: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
