#!/usr/bin/env python3
"""Compare smpi's simulated collective times with SimGrid 3.32's recorded ones.

Usage: coll_timing_ref.py [--only REGEX] [--markdown OUT] [--cfg KEY:VALUE]...
                          SMPIRUN COLL_TIMING REF_FILE...

  --only REGEX    compare only the rows whose "collective:algorithm:size" matches REGEX (the
                  meson test at 256 ranks runs a subset, to stay quick)
  --cfg KEY:VALUE passed on to smpirun as --cfg=KEY:VALUE (the `_ompi` files were recorded
                  with smpi/coll-selector:ompi: the collectives an algorithm calls inside
                  must follow that selector too)
  --markdown OUT  also write the comparison as a markdown table to OUT, with the rows SimGrid
                  could not produce (tests/data/simgrid-ref/coll_256_table.md is made so:
                  tools/simgrid-ref/coll_table.sh)

Each REF_FILE (tests/data/simgrid-ref/coll_<platform>_<np>.txt, written by
tools/simgrid-ref/record_coll.py) names its platform and number of ranks in its header and
holds lines `collective algorithm size ranks span mean`. All measurements of a file run in
a few smpirun invocations (the algorithm is forced through smpi's test hook:
coll_timing COLLECTIVE:ALGORITHM) and both span and mean must agree within 1 %, except
the known differences listed below, which are reported and must still differ (so that a
fixed one gets noticed). Prints a table; exits 1 on any other disagreement.
"""
import argparse
import os
import re
import time
import subprocess
import sys
from collections import OrderedDict

TOL = 0.01
# (collective, algorithm, size) or, where only one platform and scale shows it,
# (collective, algorithm, size, platform file, ranks), or only one placement,
# (collective, algorithm, size, hostfile) -> why smpi deliberately differs from SimGrid 3.32
KNOWN = {
    ("bcast", "SMP_linear", "8", "coll_hosts256.txt"):
        "one rank per host: SimGrid's ranks send every message twice to the next rank (as "
        "next leader and next rank of the host) and the copies left over answer the next "
        "call's receives (it aborts at 1 MiB); smpi sends each once along the chain",
    ("bcast", "ompi_split_bintree", "1048576", "coll_fattree256.xml", 256):
        "SimGrid's default lazy max-min update (network/optim:Lazy) overloads a host's down "
        "link when four flows leave their latency phase at the same date in a given order; "
        "SimGrid with network/optim:Full gives smpi's times to 1.2e-5 "
        "(tests/data/simgrid-ref/coll_fattree_full_table.md, tools/simgrid-ref/README.md)",
    ("bcast", "ompi_split_bintree", "8"):
        "below one segment per half SimGrid falls back to its SMP_linear, which forwards "
        "stale data and leaves messages behind; smpi uses Open MPI's fallback, a chain",
    # reduce/allreduce rab: no entry; SimGrid's copy crashes with one rank or count 0 (it
    # calls itself) and throws for non-basic types, smpi copies / runs the same messages
    # there (collectives/reduce/reduce_rab.c), and no recorded case goes there
    ("reduce", "scatter_gather", "8"):
        "count < 2^floor(log2 n): SimGrid reduces past the end of the user's buffer; smpi "
        "falls back to the selector (MPICH never picks it there)",
    # SimGrid 3.32's ompi selector takes rab_rdb for 128 B at 32-63 ranks: 16 doubles, fewer
    # than 2^floor(log2 n) = 32
    ("allreduce", "ompi", "128", "coll_flat256.xml", 32):
        "the ompi selector's rab_rdb with count < 2^floor(log2 n): SimGrid reduces past the "
        "end of the user's buffer; smpi runs rdb",
    ("allreduce", "ompi", "128", "coll_flat256.xml", 48):
        "the ompi selector's rab_rdb with count < 2^floor(log2 n): SimGrid reduces past the "
        "end of the user's buffer; smpi runs rdb",
    ("alltoall", "pair_rma", "8"):
        "the window's creation and fences are smpi's RMA (comm dup + barrier; fences are "
        "barriers of messages), SimGrid's an allgather + bcast + barrier and zero-time "
        "barriers (docs/rma.md); at 1 MiB the puts dominate and the times agree",
    ("allreduce", "smp_rsag_rab", "8"):
        "count < 2 x leaders: SimGrid's halving floors to empty messages and its result is "
        "wrong; smpi runs smp_rdb (0.5-0.7x SimGrid's time)",
    ("allreduce", "rab_rdb", "8"):
        "count < 2^floor(log2 n): SimGrid reduces past the end of the user's buffer; smpi "
        "falls back (MPICH uses recursive doubling there)",
}


# SimGrid 3.32's mvapich2 Allgather with 16 ranks per host and 32 or more ranks, up to 1024
# bytes, calls a function of its table that does nothing (MPI_ERR_OTHER, no message)
for _s in ("4", "8", "48", "200", "800"):
    KNOWN[("allgather", "mvapich2", _s, "coll_hosts_ppn16.txt")] = (
        "SimGrid's table names a function that sends nothing there; smpi runs rdb")


def parse(path, only=None, missing=None):
    plat = np_ = hosts = None
    rows = []
    for line in open(path):
        if line.startswith("#"):
            m = re.search(r"platform (\S+), (\d+) ranks, hostfile (\S+)", line)
            if m:
                plat, np_, hosts = m.group(1), int(m.group(2)), m.group(3)
            m = re.match(r"# (\w+) (\w+) (/?\d+) \d+: SimGrid ([^;(]*)", line)
            if m and missing is not None and (not only or re.search(only, ":".join(m.groups()[:3]))):
                missing.append(m.groups())
            continue
        f = line.split()
        if only and not re.search(only, "%s:%s:%s" % (f[0], f[1], f[2])):
            continue
        if len(f) == 6:
            rows.append((f[0], f[1], f[2], float(f[4]), float(f[5])))
    return plat, np_, hosts, rows


def rel(a, b):
    return abs(a - b) / abs(b) if b else abs(a)


# On 256 ranks a 256 MiB buffer folded in 1 MiB blocks by SMPI_SHARED_MALLOC needs more
# mappings than vm.max_map_count allows over all ranks: larger blocks (times do not change).
FOLD = "--cfg=smpi/shared-malloc-blocksize:67108864"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only")
    ap.add_argument("--markdown")
    ap.add_argument("--cfg", action="append", default=[])
    ap.add_argument("smpirun")
    ap.add_argument("prog")
    ap.add_argument("refs", nargs="+")
    args = ap.parse_args()
    smpirun, prog, refs = args.smpirun, args.prog, args.refs
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    bad = 0
    table = []  # (file, platform, np, coll, algo, size, sg span, sg mean, ours or None, status)
    counts = {}
    for ref in refs:
        missing = []
        plat, np_, hosts, rows = parse(ref, args.only, missing)
        if not rows:
            print("%s: no measurements" % ref)
            bad += 1
            continue
        # group by collective's size list (one smpirun per group)
        groups = OrderedDict()
        for coll, algo, size, span, mean in rows:
            groups.setdefault(coll, OrderedDict()).setdefault(algo, {})[size] = (span, mean)
        by_sizes = OrderedDict()
        for coll, algos in groups.items():
            for algo, sz in algos.items():
                sizes = sorted(sz, key=lambda s: (s.startswith("/"), int(s.strip("/"))))
                by_sizes.setdefault(",".join(sizes), []).append("%s:%s" % (coll, algo))
        ours = {}
        # a recording under a selector (record_coll.py --sg-cfg smpi/coll-selector:NAME):
        # the collectives the measured one calls inside follow it too
        head = open(ref).read(4096)
        sel = re.findall(r"--cfg=smpi/coll-selector:\S+", head)
        runs = list(by_sizes.items())
        # SimGrid's mvapich2 Gather depends on the calls before it: a run of its own, unless
        # SimGrid ran them all in one (record_coll.py --together), as the groups here do
        if sel and " --together " not in head:
            runs = [(sz, g) for sizes, what in runs
                    for sz, g in ((sizes, [w for w in what if not w.startswith("gather:")]),
                                  (sizes, [w for w in what if w.startswith("gather:")])) if g]
        for sizes, what in runs:
            cmd = [smpirun, "-np", str(np_), "-platform", os.path.join(root, plat),
                   "-hostfile", os.path.join(root, hosts),
                   "--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0", FOLD] + \
                ["--cfg=" + c for c in args.cfg if "--cfg=" + c not in sel[:1]] + sel[:1] + [
                   prog, "-s", sizes] + what
            t0 = time.time()
            p = subprocess.run(cmd, capture_output=True, text=True)
            print("  (smpirun -s %s, %d measurements: %.1f s)" % (sizes, len(what), time.time() - t0),
                  file=sys.stderr)
            if p.returncode != 0:
                print("%s: smpirun failed (%d): %s" % (ref, p.returncode, p.stderr.strip()[-500:]))
                bad += 1
                continue
            for line in p.stdout.splitlines():
                f = line.split()
                if len(f) == 5 and ":" in f[0]:
                    coll, algo = f[0].split(":", 1)
                    ours[(coll, algo, f[1])] = (float(f[3]), float(f[4]))
        print("%s (%s, %d ranks)" % (os.path.basename(ref), os.path.basename(plat), np_))
        print("  %-22s %-28s %-9s %-13s %-13s %s" % ("collective", "algorithm", "size", "SimGrid (s)", "smpi (s)", "difference"))
        for coll, algo, size, span, mean in rows:
            got = ours.get((coll, algo, size))
            known = (KNOWN.get((coll, algo, size, os.path.basename(plat), np_))
                     or KNOWN.get((coll, algo, size, os.path.basename(hosts)))
                     or KNOWN.get((coll, algo, size)))
            if got is None:
                status, bad = "MISSING", bad + 1
                d = float("nan")
            else:
                d = max(rel(got[0], span), rel(got[1], mean))
                if known:
                    status = "known: " + known if d > TOL else "KNOWN DIFFERENCE GONE (update the list)"
                    bad += d <= TOL
                elif d > TOL:
                    status, bad = "DIFFERS", bad + 1
                else:
                    status = "ok"
            print("  %-22s %-28s %-9s %-13.6e %-13.6e %8.2e %s" % (coll, algo, size, span,
                  got[0] if got else float("nan"), d, status))
            table.append((os.path.basename(plat), np_, coll, algo, size, span, mean, got, d, status))
            key = "ok" if status == "ok" else "known" if status.startswith("known") else "bad"
            counts[key] = counts.get(key, 0) + 1
        for coll, algo, size, why in missing:
            why = why.strip()
            print("  %-22s %-28s %-9s SimGrid %s" % (coll, algo, size, why))
            table.append((os.path.basename(plat), np_, coll, algo, size, None, None, None, None,
                          "SimGrid " + why))
            counts["nosg"] = counts.get("nosg", 0) + 1
    print("%s" % ("all agree within 1 %" if not bad else "%d disagreement(s)" % bad))
    if args.markdown:
        write_markdown(args.markdown, table, counts, refs)
    return 1 if bad else 0


def write_markdown(path, table, counts, refs):
    def num(x):
        return "%.6e" % x if x is not None else "-"
    with open(path, "w") as f:
        f.write("# smpi vs SimGrid 3.32: simulated time of one collective call\n\n")
        f.write("Generated by `tests/mpi/coll_timing_ref.py --markdown` (see "
                "`tools/simgrid-ref/coll_table.sh`) from %s. Each row: the algorithm forced on "
                "both sides, the span (last end - first start) and the mean per-rank duration "
                "of one call, and the larger relative difference of the two.\n\n"
                % ", ".join("`%s`" % os.path.relpath(r) for r in refs))
        total = sum(v for k, v in counts.items() if k != "nosg")
        f.write("Summary: %d measurements compared; %d within 1 %%, %d known differences "
                "(explained in the last column), %d other disagreements; %d measurements "
                "SimGrid could not produce (last column says why).\n\n"
                % (total, counts.get("ok", 0), counts.get("known", 0), counts.get("bad", 0),
                   counts.get("nosg", 0)))
        f.write("| platform | ranks | collective | algorithm | size (B) | SimGrid span (s) | "
                "smpi span (s) | SimGrid mean (s) | smpi mean (s) | rel. diff | status |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
        for plat, np_, coll, algo, size, span, mean, got, d, status in table:
            f.write("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
                    % (plat.replace(".xml", ""), np_, coll, algo, size, num(span),
                       num(got[0] if got else None), num(mean), num(got[1] if got else None),
                       "%.1e" % d if d is not None and d == d else "-", status))


if __name__ == "__main__":
    sys.exit(main())
