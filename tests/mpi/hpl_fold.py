#!/usr/bin/env python3
"""Folding the matrix must not change the simulated time of the modelled HPL-like LU
(tools/bench/programs/hpl_like.c): the same run with smpi/shared-malloc global (default) and
no prints bit-identical times. Measured CPU bursts are left out (cpu-threshold:-1), so that
the simulated time is the model's and the network's only.

    hpl_fold.py SMPIRUN HPL_LU_BINARY"""
import re
import subprocess
import sys

smpirun, prog = sys.argv[1], sys.argv[2]
times = {}
for mode in ("global", "no"):
    cmd = [smpirun, "-np", "6", "--cfg=smpi/cpu-threshold:-1", f"--cfg=smpi/shared-malloc:{mode}",
           prog, "640", "32", "2", "3"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    m = re.search(r"time (\S+) s gflops (\S+) OK", p.stdout)
    if p.returncode != 0 or not m:
        sys.exit(f"hpl_fold: {' '.join(cmd)} failed (rc {p.returncode}):\n{p.stdout}")
    times[mode] = m.group(1)
if times["global"] != times["no"] or float(times["global"]) <= 0:
    sys.exit(f"hpl_fold: simulated time folded {times['global']} s != not folded {times['no']} s")
print(f"hpl_fold: OK ({times['global']} s both)")
