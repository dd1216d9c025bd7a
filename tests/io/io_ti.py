#!/usr/bin/env python3
"""MPI-IO in time-independent traces: runs io_checkpoint (4 ranks, platforms/io_cluster.xml)
with -trace-ti, wants file_write_all / file_read_all lines in the rank files, replays the
trace (smpirun -replay) and wants the same simulated time within 1 % (the trace does not
keep the collective costs of MPI_File_open, _set_view and _close: 0.3 % here).

    io_ti.py SMPIRUN PROGRAM PLATFORM"""
import glob
import os
import re
import subprocess
import sys
import tempfile

smpirun, prog, plat = (os.path.abspath(a) for a in sys.argv[1:4])


def simulated(stderr):
    m = re.findall(r"simulated time: ([0-9.e+-]+) s", stderr)
    return float(m[-1]) if m else None


with tempfile.TemporaryDirectory() as d:
    base = [smpirun, "-np", "4", "-platform", plat, "--cfg=smpi/display-timing:yes"]
    rec = subprocess.run(base + ["-trace-ti", "--cfg=tracing/filename:" + os.path.join(d, "t.txt"),
                                 prog, "-g", "512"], capture_output=True, text=True, timeout=120,
                         cwd=d)
    lines = "".join(open(f).read() for f in glob.glob(os.path.join(d, "t.txt_files", "*")))
    rep = subprocess.run(base + ["-replay", os.path.join(d, "t.txt")], capture_output=True,
                         text=True, timeout=120, cwd=d)
    t0, t1 = simulated(rec.stderr), simulated(rep.stderr)
    ok = (rec.returncode == 0 and rep.returncode == 0 and "file_write_all ckpt.dat" in lines
          and "file_read_all ckpt.dat" in lines and t0 and t1 and abs(t1 - t0) <= 0.01 * t0)
    print(f"io_ti: recorded {t0} s, replayed {t1} s; "
          f"{lines.count(' file_')} MPI-IO lines")
    if not ok:
        sys.stdout.write(rec.stderr[-2000:] + rep.stderr[-2000:])
        print("io_ti: FAILED")
        sys.exit(1)
    print("io_ti: OK")
