#!/usr/bin/env python3
"""Where MPI-IO files live (tests/io/io_keep.c, 3 ranks, writes "/sub/keep.dat"):
  - by default in a temporary directory of the run under $TMPDIR, removed at the end, also
    when the job ends with MPI_Abort;
  - with --cfg=smpi/io-keep:yes that directory stays, and its name is printed;
  - with --cfg=smpi/io-dir:D in D (D/sub/keep.dat), with the ranks' data;
  - with a smpi/io-dir that is not a directory, MPI_File_open fails with a message.

    io_dir.py SMPIRUN PROGRAM"""
import os
import re
import struct
import subprocess
import sys
import tempfile

smpirun, prog = (os.path.abspath(a) for a in sys.argv[1:3])
bad = []


def run(tmp, *cfg, args=()):
    env = dict(os.environ, TMPDIR=tmp)
    return subprocess.run([smpirun, "-np", "3", *cfg, prog, *args], capture_output=True,
                          text=True, timeout=60, env=env, cwd=tmp)


def data_ok(path):
    with open(path, "rb") as f:
        return struct.unpack("3i", f.read()) == (1000, 1001, 1002)


with tempfile.TemporaryDirectory() as t:
    r = run(t)
    left = [n for n in os.listdir(t) if n.startswith("smpi-io-")]
    if r.returncode != 0 or left:
        bad.append(f"default: exit {r.returncode}, left behind {left}")
    r = run(t, args=("abort",))
    left = [n for n in os.listdir(t) if n.startswith("smpi-io-")]
    if r.returncode != 3 or left:
        bad.append(f"MPI_Abort: exit {r.returncode}, left behind {left}")
    r = run(t, "--cfg=smpi/io-keep:yes")
    m = re.search(r"MPI-IO files kept in (\S+)", r.stderr)
    if r.returncode != 0 or not m or not data_ok(os.path.join(m.group(1), "sub", "keep.dat")):
        bad.append(f"io-keep: exit {r.returncode}, stderr {r.stderr!r}")
    d = os.path.join(t, "mine")
    os.mkdir(d)
    r = run(t, "--cfg=smpi/io-dir:" + d)
    if r.returncode != 0 or not data_ok(os.path.join(d, "sub", "keep.dat")):
        bad.append(f"io-dir: exit {r.returncode}, stderr {r.stderr!r}")
    r = run(t, "--cfg=smpi/io-dir:" + os.path.join(t, "nowhere"))
    if r.returncode == 0 or "not a directory" not in r.stdout + r.stderr:
        bad.append(f"bad io-dir: exit {r.returncode}, output {r.stdout + r.stderr!r}")
for b in bad:
    print("FAIL", b)
print("io_dir: OK" if not bad else "io_dir: FAILED")
sys.exit(1 if bad else 0)
