#!/usr/bin/env python3
"""tools/bench/programs/hpl_seed.c, small: the program's own count of messages equals the
replay that tools/bench/hpl_project.py projects with (msgs_total), on grids whose process
columns are and are not powers of two, and folding (smpi/shared-malloc:global against no)
leaves its simulated time bit-identical (measured CPU bursts left out: cpu-threshold:-1).

    hpl_seed_check.py SMPIRUN HPL_SEED"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                                "bench"))
import hpl_project  # noqa: E402

smpirun, prog = sys.argv[1], sys.argv[2]
for (P, Q, N, NB, K, F) in ((2, 3, 3000, 256, 5, 0), (3, 4, 4096, 128, 40, 0),
                            (5, 2, 2000, 100, 20, 0), (3, 4, 4096, 128, 8, 25)):
    times = {}
    for mode in ("global", "no"):
        cmd = [smpirun, "-np", str(P * Q), "--cfg=smpi/cpu-threshold:-1",
               "--cfg=smpi/shared-malloc:" + mode, prog, str(N),
               str(NB), str(P), str(Q), str(K), str(F)]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=120)
        m = hpl_project.LINE.search(p.stdout)
        if p.returncode != 0 or not m:
            sys.exit("hpl_seed_check: %s failed (rc %d):\n%s" % (" ".join(cmd), p.returncode, p.stdout))
        want = hpl_project.msgs_total(N, NB, P, Q, K, F)
        if int(m.group(8)) != want:
            sys.exit("hpl_seed_check: %dx%d N %d NB %d: %s messages, the replay counts %d"
                     % (P, Q, N, NB, m.group(8), want))
        times[mode] = m.group(7)
    if times["global"] != times["no"]:
        sys.exit("hpl_seed_check: %dx%d: folded %s s, not folded %s s" % (P, Q, times["global"], times["no"]))
    print("hpl_seed_check: %dx%d N %d NB %d panels %d..%d: %d messages, %s s both" % (
        P, Q, N, NB, F, F + K - 1, want, times["global"]))
print("hpl_seed_check: OK")
