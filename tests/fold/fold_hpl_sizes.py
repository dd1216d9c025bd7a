#!/usr/bin/env python3
"""fold_hpl_sizes.c at 64 ranks, default options and with a low budget: the run succeeds,
the mappings stay within the budget (the program checks /proc/self/maps), and the note on
larger blocks is printed once, not once per rank.

    fold_hpl_sizes.py SMPIRUN PROGRAM"""
import re
import subprocess
import sys

smpirun, prog = sys.argv[1], sys.argv[2]
for extra, budget in (([], None), (["--cfg=smpi/shared-malloc-max-mappings:512"], "512")):
    cmd = [smpirun, "-np", "64"] + extra + [prog] + ([budget] if budget else [])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    out = p.stdout + p.stderr
    if p.returncode != 0 or "fold_hpl_sizes: OK" not in p.stdout:
        sys.exit(f"fold_hpl_sizes: {' '.join(cmd)} failed (rc {p.returncode}):\n{out}")
    notes = len(re.findall(r"map blocks larger than smpi/shared-malloc-blocksize", out))
    if notes != 1:
        sys.exit(f"fold_hpl_sizes: {notes} notes on larger blocks, expected one:\n{out}")
    m = re.search(r"mappings \+(\d+) \(budget (\d+)\)", p.stdout)
    print(f"fold_hpl_sizes {' '.join(extra) or '(defaults)'}: mappings +{m.group(1)} "
          f"(budget {m.group(2)})")
print("fold_hpl_sizes: OK")
