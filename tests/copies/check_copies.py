#!/usr/bin/env python3
"""Payload copies counted exactly (issue 27): runs tests/copies/copies.c's cases and wants
smpi/display-timing's copy line to hold the bytes and copies the arithmetic below says.

    check_copies.py SMPIRUN COPIES_PROGRAM

A copy that happens twice (a bounce buffer where the receive was already posted, a
temporary buffer between two datatype walks) or is not counted changes a number."""
import re
import subprocess
import sys

KIB, MIB = 1024, 1024 * 1024
BW = 10.0  # GB/s, given, so that the floor is exact too
LINE = re.compile(r"^smpi: bytes copied: (\d+) in (\d+) copies "
                  r"\(floor (\d+\.\d{6}) s at (\d+\.\d) GB/s memcpy\)$", re.M)

# case: (ranks, extra options, bytes, copies)
CASES = {
    "posted": (2, [], 1000, 1),
    "early": (2, [], 2 * 1000, 2),
    "rdv": (2, [], MIB, 1),
    "reuse": (2, [], 100 * 4 * KIB, 100),
    "lent": (2, [], 1000, 1),
    "settled": (2, [], 2 * 1000, 2),
    "sendrecv": (2, [], 2 * 1000, 2),
    "vector": (2, [], MIB, 1),
    "vecvec": (2, [], 2 * 128 * KIB, 2),  # the message, then the check's MPI_Pack
    "bcast": (8, ["--cfg=smpi/bcast:binomial_tree"], 7 * MIB, 7),
    "alltoall": (4, ["--cfg=smpi/alltoall:pair"], 16 * 64 * KIB, 16),
    "folded_scratch": (6, [], 0, 0),
}


def main():
    smpirun, prog = sys.argv[1], sys.argv[2]
    bad = 0
    for case, (n, extra, want_bytes, want_copies) in CASES.items():
        cmd = [smpirun, "-np", str(n), "--cfg=smpi/display-timing:yes",
               "--cfg=smpi/memcpy-bandwidth:%g" % BW] + extra + [prog, case]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=120)
        m = LINE.search(r.stdout)
        if r.returncode != 0 or "copies: %s OK" % case not in r.stdout or not m:
            print("FAIL %s: exit %d, output:\n%s" % (case, r.returncode, r.stdout))
            bad += 1
            continue
        got = (int(m.group(1)), int(m.group(2)))
        floor = "%.6f" % (want_bytes / (BW * 1e9))
        if got != (want_bytes, want_copies) or m.group(3) != floor or m.group(4) != "10.0":
            print("FAIL %s: %s; want %d bytes in %d copies, floor %s s at 10.0 GB/s"
                  % (case, m.group(0), want_bytes, want_copies, floor))
            bad += 1
        else:
            print("ok   %s: %s" % (case, m.group(0)))
    if bad:
        sys.exit(1)


main()
