#!/usr/bin/env python3
"""An Alltoall's receive buffers cost one residency check (mincore) and one populate
(MADV_POPULATE_WRITE) per rank in all, not one per block and call: the whole buffer is
prepared at the call's entry and then known resident (smpi/runtime/copies.c).

Usage: check_a2a_calls.py SMPIRUN A2A_CALLS [asan]
16 ranks, 4 calls of 1 MiB (blocks of 64 KiB), with and without smpi/display-timing (which
counts first touches, with the same check). Before (main at 75d13c9): 1 755 mincore and
256 populates with display-timing (up to two checks per block and call), 256 and 256
without."""
import re
import subprocess
import sys

smpirun, prog = sys.argv[1], sys.argv[2]
np_ = 16
fails = []
for timing in ("no", "yes"):
    # without privatization the program's counters are one for the process (with it, each
    # rank's copy would count the calls made while that rank's globals are mapped)
    cmd = [smpirun, "-np", str(np_), "-no-privatize", "--cfg=smpi/display-timing:%s" % timing,
           prog, "4", str(1 << 20)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=60)
    m = re.search(r"^a2a_calls: mincore=(\d+) populate=(\d+) bad=(\d+)$", r.stdout, re.M)
    if r.returncode != 0 or not m:
        fails.append("display-timing %s: exit %d\n%s" % (timing, r.returncode, r.stdout[-1500:]))
        continue
    mc, pop, bad = (int(x) for x in m.groups())
    print("display-timing %s: mincore %d, populate %d (limit %d each), bad bytes %d"
          % (timing, mc, pop, np_, bad))
    if bad:
        fails.append("display-timing %s: %d received bytes wrong" % (timing, bad))
    if mc > np_ or pop > np_:
        fails.append("display-timing %s: %d mincore and %d populate calls for %d ranks' "
                     "receive buffers, more than one each" % (timing, mc, pop, np_))
    if pop < np_ and "asan" not in sys.argv[3:]:
        fails.append("display-timing %s: %d populate calls for %d fresh receive buffers"
                     % (timing, pop, np_))
for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
