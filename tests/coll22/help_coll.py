#!/usr/bin/env python3
"""`smpirun -help-coll` (no program, as SimGrid spells it) lists every collective with its
algorithms, and every algorithm and selector name of SimGrid 3.32
(tests/data/simgrid-ref/coll_names.txt) is accepted, except those listed in NOT_YET below.
A name of NOT_YET that is accepted fails too: the list must shrink as names arrive.

Usage: help_coll.py SMPIRUN COLL_NAMES_FILE
"""
import re
import subprocess
import sys

# SimGrid 3.32 names smpi does not have yet (docs/collectives.md, "SimGrid names")
NOT_YET = set()
SELECTORS_NOT_YET = set()


def main():
    smpirun, names = sys.argv[1], sys.argv[2]
    p = subprocess.run([smpirun, "-help-coll"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit("smpirun -help-coll failed (%d): %s" % (p.returncode, p.stderr.strip()))
    # "MPI_Bcast (--cfg=smpi/bcast:...)" then "  <name>   <description>" lines
    have, coll, selectors = set(), None, set()
    in_sel = False
    for line in p.stdout.splitlines():
        m = re.match(r"MPI_\w+ \(--cfg=smpi/(\w+):", line)
        if m:
            coll, in_sel = m.group(1), False
            continue
        if line.startswith("Selectors:"):
            in_sel = True
            continue
        m = re.match(r"  (\S+)\s{2,}\S", line)
        if m and in_sel:
            selectors.add(m.group(1))
        elif m and coll:
            have.add("%s %s" % (coll, m.group(1)))
    bad = []
    for line in open(names):
        if line.startswith("#") or not line.strip():
            continue
        c, n = line.split()
        key = "%s %s" % (c, n)
        if n in ("default", "ompi", "mpich", "mvapich2", "impi", "automatic"):
            ok = n in selectors
            if ok == (n in SELECTORS_NOT_YET):
                bad.append("selector %s: %s" % (n, "accepted but listed as not yet" if ok
                                                  else "not accepted"))
            continue
        ok = key in have
        if ok == (key in NOT_YET):
            bad.append("%s: %s" % (key, "accepted but listed as not yet" if ok else "not accepted"))
    for b in bad:
        print(b)
    print("%d SimGrid algorithm names accepted, %d not yet" % (len(have & set(
        l.strip() for l in open(names) if not l.startswith("#"))), len(NOT_YET)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
