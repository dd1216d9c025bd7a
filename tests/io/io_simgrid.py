#!/usr/bin/env python3
"""MPI-IO call times of tests/io/io_simgrid.c against SimGrid 3.32's
(tests/data/simgrid-ref/io_disks.txt, recorded by tools/simgrid-ref/record_io.sh).

Independent accesses (one disk action each, shared by max-min on the disk's read, write and
readwrite constraints) must agree to 1e-6 relative: SimGrid adds about 10 ns per call of its
own (2e-7 of 0.05 s). Collective ones (write_at_all, read_at_all) to 1 %: both do the same
disk work, but SimGrid's collective algorithm exchanges other messages than ROMIO's
two-phase (ours): about 0.2 ms of 0.1 s here.

    io_simgrid.py SMPIRUN PROGRAM REFERENCE PLATFORM"""
import os
import subprocess
import sys

COLL = {"all_w", "all_r"}


def parse(text):
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 4 and f[0] == "io":
            out[(f[1], int(f[2]))] = float(f[3])
    return out


def main():
    smpirun, prog, ref_path, plat = (os.path.abspath(a) for a in sys.argv[1:5])
    with open(ref_path) as fh:
        ref = parse(fh.read())
    run = subprocess.run([smpirun, "-np", "4", "--cfg=smpi/oversubscribe:yes", "-platform", plat,
                          "--cfg=smpi/wtime:0", "--cfg=smpi/simulate-computation:no", prog],
                         capture_output=True, text=True, timeout=120,
                         cwd=os.path.dirname(plat))
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        print(f"io_simgrid: {prog} failed (exit {run.returncode})")
        return 1
    ours = parse(run.stdout)
    bad = 0
    for key in sorted(ref):
        tol = 0.01 if key[0] in COLL else 1e-6
        if key not in ours:
            print(f"missing: {key[0]} rank {key[1]}")
            bad += 1
            continue
        rel = abs(ours[key] - ref[key]) / ref[key]
        flag = "ok  " if rel <= tol else "FAIL"
        bad += rel > tol
        print(f"{flag} {key[0]:9} rank {key[1]}: ours {ours[key]:.9f} s, SimGrid {ref[key]:.9f} s,"
              f" rel {rel:.2e} (tolerance {tol:g})")
    if set(ours) != set(ref):
        print(f"extra times: {sorted(set(ours) - set(ref))}")
        bad += 1
    print("io_simgrid: OK" if not bad else f"io_simgrid: {bad} mismatch(es)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
