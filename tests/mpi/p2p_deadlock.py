#!/usr/bin/env python3
"""Run p2p_deadlock.c's wrong programs under smpirun and check the diagnostics: the deadlock
report names, for each blocked rank, the MPI call, its peer, tag and communicator; MPI_Finalize
warns about receives still posted and messages never received.

Usage: p2p_deadlock.py SMPIRUN PROG
"""
import subprocess
import sys

CASES = [
    ("recv", 1, ["rank 0 (pid 1): MPI_Recv from rank 1, tag 5, on MPI_COMM_WORLD",
                 "rank 1 (pid 2): MPI_Recv from rank 0, tag 5, on MPI_COMM_WORLD"]),
    ("ssend", 1, ["rank 0 (pid 1): MPI_Ssend to rank 1, tag 7, on MPI_COMM_WORLD",
                  "rank 1 (pid 2): MPI_Ssend to rank 0, tag 7, on MPI_COMM_WORLD"]),
    ("waitall", 1, ["rank 0 (pid 1): MPI_Waitall for 1 of 2 requests, first: MPI_Irecv from "
                    "any source, any tag, on MPI_COMM_WORLD",
                    "rank 1 (pid 2): MPI_Recv from rank 0, tag 3, on MPI_COMM_WORLD"]),
    ("probe", 1, ["rank 0 (pid 1): MPI_Probe from rank 1, tag 3, on MPI_COMM_WORLD"]),
    ("late", 0, ["rank 1 sent a message to rank 0 after rank 0 reached MPI_Finalize: MPI_Send, "
                 "tag 44, 4 bytes, on MPI_COMM_WORLD"]),
    ("pending", 0, ["rank 0 reached MPI_Finalize with a receive still posted: MPI_Irecv from "
                    "rank 1, tag 42, on MPI_COMM_WORLD",
                    "rank 0 reached MPI_Finalize without receiving a message: MPI_Send from "
                    "rank 1, tag 43, 4 bytes, on MPI_COMM_WORLD"]),
]


def main():
    smpirun, prog = sys.argv[1], sys.argv[2]
    bad = 0
    for what, want_rc, lines in CASES:
        res = subprocess.run([smpirun, "-np", "2", prog, what], capture_output=True, text=True,
                             timeout=60)
        problems = []
        if (res.returncode != 0) != (want_rc != 0):
            problems.append(f"exit status {res.returncode}")
        for line in lines:
            if line not in res.stderr:
                problems.append(f"missing: {line}")
        if problems:
            bad += 1
            print(f"{what}: FAILED: " + "; ".join(problems))
            print("  stderr was:\n    " + res.stderr.strip().replace("\n", "\n    "))
        else:
            print(f"{what}: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
