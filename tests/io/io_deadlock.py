#!/usr/bin/env python3
"""Runs tests/io/io_deadlock.c (2 ranks) and wants the deadlock report: exit status 1, the
cycle naming MPI_File_write_all and MPI_Recv with their source lines, and the file's
communicator named after the file.

    io_deadlock.py SMPIRUN PROGRAM"""
import subprocess
import sys

smpirun, prog = sys.argv[1:3]
run = subprocess.run([smpirun, "-np", "2", prog], capture_output=True, text=True, timeout=60)
want = ["smpi: deadlock at simulated time",
        "rank 0 waits in MPI_File_write_all at ",
        "rank 1 waits in MPI_Recv at ", "io_deadlock.c:14", "io_deadlock.c:16",
        "on the file 'dl.dat'"]
missing = [w for w in want if w not in run.stderr]
if run.returncode != 1 or missing:
    sys.stderr.write(run.stderr)
    print(f"io_deadlock: exit status {run.returncode} (want 1), missing: {missing}")
    sys.exit(1)
print("io_deadlock: OK")
