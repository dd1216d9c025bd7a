#!/usr/bin/env python3
"""Run misuse.c's wrong programs under smpirun and check the diagnostics: exit status, and the
lines of each report (the deadlock cycle, the mismatched collective, the modified send buffer,
the requests never completed, calls outside MPI_Init..MPI_Finalize), with the source line of
the MPI call (misuse.c is built with -g).

Usage: misuse.py SMPIRUN PROG
"""
import re
import subprocess
import sys

SRC = "misuse.c"


def line_of(text):
    """misuse.c:<line> of the first source line containing text (the report must name it)"""
    with open(SRC_PATH) as f:
        for n, line in enumerate(f, 1):
            if text in line:
                return f"{SRC}:{n}"
    raise SystemExit(f"misuse.py: '{text}' is not in {SRC_PATH}")


def cases():
    recv_ring = line_of("MPI_Recv(v, 1, MPI_INT, (rank + size - 1)")
    return [
        # (case, ranks, extra options, exit status wanted, [regex per line])
        ("ring", 3, [], 1, [
            r"smpi: deadlock cycle: rank 0 -> rank 2 -> rank 1 -> rank 0",
            r"rank 0 waits in MPI_Recv at \S*" + recv_ring + r" for rank 2: receive from rank 2, "
            r"tag 0, 4 bytes, on MPI_COMM_WORLD",
            r"rank 1 waits in MPI_Recv at \S*" + recv_ring + r" for rank 0"]),
        ("finished", 2, [], 1, [
            r"rank 0 waits in MPI_Recv at \S*" + line_of("MPI_Recv(v, 1, MPI_INT, 1, 1") +
            r" for rank 1: receive from rank 1, tag 1",
            r"but rank 1 has already finished \(it called MPI_Finalize\)",
            r"note: a message from rank 1, tag 2, 4 bytes, on MPI_COMM_WORLD, sent at \S*" +
            line_of("MPI_Send(v, 1, MPI_INT, 0, 2") + r", is waiting unreceived \(with another tag\)"]),
        ("coll_root", 3, [], 1, [
            r"mismatched collective calls on MPI_COMM_WORLD \(collective call #1 on this "
            r"communicator\): different roots \(0 and 1\)",
            r"rank 0 called MPI_Bcast, root 0, 16 bytes of MPI_INT at \S*" +
            line_of("MPI_Bcast(v, 4, MPI_INT"),
            r"rank [12] called MPI_Bcast, root 1"]),
        ("coll_count", 3, [], 1, [
            r"different amounts of data \(16 and 32 bytes",
            r"rank 0 called MPI_Allreduce, 16 bytes of MPI_INT, op MPI_SUM at \S*" +
            line_of("MPI_Allreduce(v, w, rank == 0 ? 4 : 8")]),
        ("coll_type", 2, [], 1, [r"different datatypes \(MPI_INT and MPI_FLOAT\)"]),
        ("coll_op", 2, [], 1, [r"different reduction operations \(MPI_SUM and MPI_MAX\)"]),
        ("coll_kind", 3, [], 1, [
            r"collective call #2 on this communicator\): different collectives \(MPI_Barrier "
            r"and MPI_Bcast\)",
            r"rank 0 called MPI_Barrier at \S*misuse.c:\d+"]),
        ("coll_nb", 3, [], 1, [
            r"different collectives \(MPI_Ibcast and MPI_Bcast\)",
            r"rank 0 called MPI_Ibcast, root 0, 4 bytes of MPI_INT at \S*" +
            line_of("MPI_Ibcast(v, 1")]),
        ("coll_ok", 5, [], 0, [r"misuse: OK"]),
        ("coll_kind", 3, ["--cfg=smpi/check-collectives:no"], 1, [r"deadlock"]),
        ("buffer", 2, [], 0, []),
        ("buffer", 2, ["--cfg=smpi/check-buffers:yes"], 1, [
            r"smpi: rank 0 modified the buffer of a pending send: MPI_Isend to rank 1, tag 9, "
            r"4000 bytes, on MPI_COMM_WORLD, posted at \S*" + line_of("MPI_Isend(big") +
            r"; its data changed before the request completed \(noticed in MPI_Wait at \S*" +
            line_of("/* noticed here */") + r"\)"]),
        ("leak", 2, [], 0, [
            r"rank 0 never completed a request \(no MPI_Wait, MPI_Test or MPI_Request_free saw "
            r"it end\): MPI_Isend to rank 1, tag 11, 8 bytes, on MPI_COMM_WORLD, posted at \S*" +
            line_of("MPI_Isend(v, 2"),
            r"rank 0 never completed a request .*: MPI_Irecv from rank 1, tag 12, 12 bytes",
            r"rank 0 reached MPI_Finalize with a receive still posted: MPI_Irecv from rank 1, "
            r"tag 12, on MPI_COMM_WORLD at \S*" + line_of("MPI_Irecv(w, 3")]),
        ("before_init", 1, [], 1, [
            r"smpi: rank 0 called MPI_Comm_rank before MPI_Init at \S*" +
            line_of("MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* wrong")]),
        ("after_final", 1, [], 1, [
            r"smpi: rank 0 called MPI_Barrier after MPI_Finalize at \S*" +
            line_of("MPI_Barrier(MPI_COMM_WORLD); /* wrong")]),
    ]


def main():
    global SRC_PATH
    smpirun, prog, SRC_PATH = sys.argv[1], sys.argv[2], sys.argv[3]
    bad = 0
    for what, np, opts, want_rc, patterns in cases():
        res = subprocess.run([smpirun, "-np", str(np)] + opts + [prog, what], capture_output=True,
                             text=True, timeout=60)
        out = res.stdout + res.stderr
        problems = []
        if (res.returncode != 0) != (want_rc != 0):
            problems.append(f"exit status {res.returncode}")
        for p in patterns:
            if not re.search(p, out):
                problems.append(f"missing: {p}")
        label = what + (" " + " ".join(opts) if opts else "")
        if problems:
            bad += 1
            print(f"{label}: FAILED: " + "; ".join(problems))
            print("  output was:\n    " + out.strip().replace("\n", "\n    "))
        else:
            print(f"{label}: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
