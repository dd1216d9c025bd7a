#!/usr/bin/env python3
"""Run check_usage.c's cases under smpirun and check the usage checker (smpi/mpi/check.c):
the exit status, lines the output must have, lines it must not have.

Usage: check_usage.py SMPIRUN PROG SRC [-k NAME]
"""
import re
import subprocess
import sys

SRC = "check_usage.c"
BUF = ["--cfg=smpi/check-buffers:yes"]


def line_of(text):
    """check_usage.c:<line> of the first source line containing text"""
    with open(SRC_PATH) as f:
        for n, line in enumerate(f, 1):
            if text in line:
                return f"{SRC}:{n}"
    raise SystemExit(f"check_usage.py: '{text}' is not in {SRC_PATH}")


def cases():
    send, recv = line_of("/* sent as ints */"), line_of("/* doubles */")
    return [
        # (case, ranks, extra options, exit status wanted, [regex present], [regex absent])
        ("scan_userop", 4, [], 0, [r"check_usage scan_userop: OK"], [r"mismatched"]),
        # 16 ranks, 50 rounds of dup + split + free: only MPI_COMM_WORLD's state is left
        ("comm_churn", 16, ["--log=smpi_check.thresh:debug"], 0,
         [r"check_usage comm_churn: OK",
          r"collective checks: 1 communicator state live at the end"], []),
        ("type_mismatch", 2, [], 1, [
            r"smpi: mismatched datatypes: rank 1 received a message of MPI_INT from rank 0 "
            r"\(tag 7, 16 bytes, on MPI_COMM_WORLD\) into a receive of MPI_DOUBLE",
            r"rank 0 sent it with MPI_Send at \S*" + send,
            r"rank 1 received it with MPI_Recv at \S*" + recv,
            r"MPI_ERR_TYPE.*the message from rank 0, tag 7 does not match the datatype of the "
            r"receive \(2 x MPI_DOUBLE\)"], [r"check_usage type_mismatch: OK"]),
        ("type_return", 2, [], 0, [r"smpi: mismatched datatypes", r"check_usage type_return: OK"],
         []),
        ("type_mismatch", 2, ["--cfg=smpi/check-types:no"], 1, [r"WRONG RESULT"],
         [r"mismatched datatypes"]),
        ("type_ok", 2, [], 0, [r"check_usage type_ok: OK"], [r"mismatched", r"MPI_ERR"]),
        ("recv_before", 2, BUF, 1, [
            r"smpi: rank 1 modified the buffer of a pending receive: MPI_Irecv from rank 0, tag "
            r"1, 16 bytes, on MPI_COMM_WORLD, posted at \S*" + line_of("/* pending receive */") +
            r"; its data changed before the message arrived \(noticed when the message "
            r"arrived, sent by rank 0 with MPI_Send at \S*" + line_of("/* arrival */") + r"\)"], [r"check_usage recv_before: OK"]),
        ("recv_before", 2, [], 0, [r"check_usage recv_before: OK"], [r"modified"]),
        ("recv_after", 2, BUF, 1, [
            r"smpi: rank 1 modified the buffer of a pending receive: MPI_Irecv from rank 0, "
            r"tag 1, 16 bytes, .*; its data changed after the message arrived, before the "
            r"request completed \(noticed in MPI_Wait at \S*" + line_of("/* noticed here */") +
            r"\)"], [r"check_usage recv_after: OK"]),
        ("overlap_sr", 2, BUF, 1, [
            r"smpi: rank [01] started a request whose buffer overlaps the buffer of one still "
            r"in flight:",
            r"in flight: MPI_Isend to rank [01], tag 1, 16 bytes, on MPI_COMM_WORLD, posted",
            r"started: +MPI_Irecv from rank [01], tag 1, 16 bytes, on MPI_COMM_WORLD, posted at "
            r"\S*" + line_of("MPI_Irecv(buf + 2")], []),
        ("overlap_rr", 2, BUF, 1, [
            r"in flight: MPI_Irecv from rank [01], tag 1, 16 bytes",
            r"started: +MPI_Irecv from rank [01], tag 2, 16 bytes, on MPI_COMM_WORLD, posted at "
            r"\S*" + line_of("MPI_Irecv(buf + 3")], []),
        ("overlap_sendrecv", 2, BUF, 1, [
            r"in flight: MPI_Sendrecv to rank [01], tag 1, 16 bytes",
            r"started: +MPI_Sendrecv from rank [01], tag 1, 16 bytes"], []),
        ("buffers_ok", 2, BUF, 0, [r"check_usage buffers_ok: OK"], [r"smpi: rank"]),
        ("buffers_ok", 4, [], 0, [r"check_usage buffers_ok: OK"], []),
    ]


def main():
    global SRC_PATH
    smpirun, prog, SRC_PATH = sys.argv[1], sys.argv[2], sys.argv[3]
    only = sys.argv[sys.argv.index("-k") + 1] if "-k" in sys.argv else None
    bad = 0
    for what, np, opts, want_rc, present, absent in cases():
        if only and only not in what:
            continue
        res = subprocess.run([smpirun, "-np", str(np)] + opts + [prog, what],
                             capture_output=True, text=True, timeout=120)
        out = res.stdout + res.stderr
        problems = []
        if (res.returncode != 0) != (want_rc != 0):
            problems.append(f"exit status {res.returncode}")
        for p in present:
            if not re.search(p, out):
                problems.append(f"missing: {p}")
        for p in absent + [r"AddressSanitizer|LeakSanitizer|runtime error|invariant"]:
            if re.search(p, out):
                problems.append(f"unwanted: {p}")
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
