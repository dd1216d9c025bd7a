#!/usr/bin/env python3
"""The profile's MPI-IO section: io_bench with a file per rank on io_cluster.xml's local disks
(4 ranks, 32 MiB per phase) must report 1000.00 MB/s for MPI_File_write_at (4 disks x
250 MB/s) and 2000.00 MB/s for MPI_File_read_at (4 x 500 MB/s), with the bytes moved.

    io_profile.py SMPIRUN IO_BENCH PLATFORM"""
import os
import re
import subprocess
import sys

smpirun, prog, plat = (os.path.abspath(a) for a in sys.argv[1:4])
run = subprocess.run([smpirun, "-np", "4", "-platform", plat, "--cfg=smpi/profile:yes", prog,
                      "-F", "-o", "/scratch/prof"], capture_output=True, text=True, timeout=120)
rows = {m.group(1): m.groups()[1:] for m in re.finditer(
    r"^(MPI_File_\w+)\s+(\d+)\s+(\d+)\s+([0-9.e+-]+)\s+([0-9.]+)$", run.stderr, re.M)}
want = {"MPI_File_write_at": ("0", "33554432", "1000.00"),
        "MPI_File_read_at": ("33554432", "0", "2000.00")}
bad = [k for k, v in want.items() if k not in rows or (rows[k][0], rows[k][1], rows[k][3]) != v]
if run.returncode != 0 or "@ MPI-IO data" not in run.stderr or bad:
    sys.stdout.write(run.stderr[-3000:])
    print(f"io_profile: exit {run.returncode}, wrong rows {bad}")
    sys.exit(1)
print("io_profile: OK")
