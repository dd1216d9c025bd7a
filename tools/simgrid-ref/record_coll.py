#!/usr/bin/env python3
"""Record SimGrid 3.32's simulated time of every collective algorithm it shares with smpi.

For each platform (flat cluster, fat tree: tests/data/simgrid-ref/platforms/coll_*256.xml)
and each number of ranks (16, 64, 256), writes tests/data/simgrid-ref/coll_<platform>_<np>.txt
with one line per (collective, algorithm, size):

    <collective> <algorithm> <size> <ranks> <span seconds> <mean seconds>

as printed by tests/mpi/coll_timing.c (see its header: the collective runs once untimed,
then once between MPI_Wtime calls after a point-to-point barrier; span = last end - first
start, mean = average per-rank duration). The algorithms are those marked COLL_SG in
collectives/coll_list.h (same name and messages in SimGrid), each forced with
--cfg=smpi/<collective>:<algorithm>, plus `default` for every collective (SimGrid's own
choice; for the collectives SimGrid has no key for, simply no --cfg). Sizes: 8 B and 1 MiB
per block for bcast/reduce/allreduce/scan/exscan/gather/scatter; 8 B per block and
1 MiB per rank in all (`/1048576`) for the collectives that move n blocks per rank.

Every run uses -hostfile platforms/coll_hosts256.txt (rank r on node-r; SimGrid's smpirun
would otherwise take the hosts in name order: node-0, node-1, node-10, node-100, ...),
-no-privatize (coll_timing has no mutable globals),
--cfg=smpi/simulate-computation:no and --cfg=smpi/wtime:0. A SimGrid run that fails or
takes longer than --timeout seconds (default 120; SimGrid needs ~350 s for a 256-rank
alltoall posting all 65 280 messages at once, smpi 3 s) is retried one size at a time;
what still fails is written as a comment line saying so.

Usage: tools/simgrid-ref/record_coll.py [--np 16,64,256] [--platforms flat256,fattree256]
                                        [--ppn K] [--selector NAME [--together]]
                                        [--timeout S] [--per-size] [--only COLL[:ALGO]]...
                                        [--redo-missing] [--size S]...
                                        [--sg-cfg KEY:VALUE --tag NAME]...
                                        [--selector NAME --tag NAME --sizes S,S,...]
--sg-cfg adds --cfg=KEY:VALUE to every SimGrid command (shown in the file's command line) and
needs --tag, which names the output coll_<platform>_<np>_<NAME>.txt so that such a recording
never overwrites the default-configuration references. The fat-tree `_full` files were
recorded with `--platforms fattree256 --sg-cfg network/optim:Full --tag full`: SimGrid's
default lazy max-min update (network/optim:Lazy) sometimes lets a link carry more than its
bandwidth on that platform (tests/data/simgrid-ref/coll_256_table.md, note on
ompi_split_bintree), its full update does not, and smpi's solver has no lazy mode.
--selector ompi records SimGrid's choice under --cfg=smpi/coll-selector:ompi for every collective
(algorithm column "ompi"; the collectives SimGrid has no key for get no per-collective --cfg);
the _ompi files: --selector ompi --tag ompi --platforms flat256
--np 2,3,4,6,8,12,16,24,32,48,64 --sizes 1,2,4,...,1048576 (every power of two; each
threshold of Open MPI 4.1's tables is a power of two), ~20 min; then --np 128 with sizes up
to 65536, alltoallv and alltoallw left out (--only the others; SimGrid takes more than
5 min per run of theirs at 128 ranks).
The references were recorded with --np 16,64 (timeout 120). At 256 ranks: a first pass
--np 256 --per-size --timeout 60 (flat cluster), then passes of --per-size --redo-missing
with timeouts of 240 to 1800 s, the quick sizes first (--size 8), on a machine where 8 other
jobs shared 2 cores (load 20: a SimGrid run got ~20 % of a core). SimGrid genuinely needs
minutes for the 256-rank cases that post tens of thousands of messages at once (the
linear allgather/alltoall family: 63 s of CPU for allgather default at 8 B on the flat
cluster, minutes more at 1 MiB and on the fat tree); what still timed out is a comment line
in the file, and tests/data/simgrid-ref/coll_256_table.md lists it.
Needs smpicc and smpirun of SimGrid 3.32 (Debian libsimgrid-dev). Run from anywhere.
"""
import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
OUT = os.path.join("tests", "data", "simgrid-ref")
PLAT = {
    "flat256": os.path.join(OUT, "platforms", "coll_flat256.xml"),
    "fattree256": os.path.join(OUT, "platforms", "coll_fattree256.xml"),
}
# rank r on node-r: without a hostfile SimGrid 3.32's smpirun takes the hosts in name order
# (node-0, node-1, node-10, node-100, ...), which on a fat tree spreads 16 ranks over leaves
HOSTS = os.path.join(OUT, "platforms", "coll_hosts256.txt")
# --smp4: 4 ranks per host (node-0:4, node-1:4, ...: the --ppn 4 hostfile), so that the
# SMP-aware algorithms split hosts from leaders (written to the _smp4 files)
HOSTS_PPN4 = os.path.join(OUT, "platforms", "coll_hosts_ppn4.txt")
# collectives SimGrid 3.32 has a smpi/<collective> key for
SG_KEYS = ["barrier", "bcast", "gather", "scatter", "allgather", "allgatherv", "alltoall",
           "alltoallv", "reduce", "allreduce", "reduce_scatter"]
OTHERS = ["gatherv", "scatterv", "alltoallw", "reduce_scatter_block", "scan", "exscan"]
BLOCKS = {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce_scatter",
          "reduce_scatter_block"}
COMMON = ["--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0"]
# SMPI_SHARED_MALLOC maps every smpi/shared-malloc-blocksize block (1 MiB by default) of a
# folded buffer separately: at 256 ranks a gather/scatter/allgather buffer of 256 MiB on
# every rank makes 256 x 256 = 65 536 mappings, more than Linux's default vm.max_map_count
# (65 530), and SimGrid aborts ("Could not map folded virtual memory (Cannot allocate
# memory)", exit 134). 64 MiB blocks need 4 mappings per buffer. Memory only: the simulated
# times do not depend on it.
FOLD = ["--cfg=smpi/shared-malloc-blocksize:67108864"]


# --sizes: the same list for every collective but barrier (the default-selector grid)
GRID_SIZES = []


def sizes_of(coll):
    if coll == "barrier":
        return ["0"]
    if GRID_SIZES:
        return GRID_SIZES
    return ["8", "/1048576" if coll in BLOCKS else "1048576"]


def shared_algorithms():
    """(collective, algorithm) pairs marked COLL_SG in coll_list.h, in list order."""
    pairs = []
    with open(os.path.join(ROOT, "collectives", "coll_list.h")) as f:
        for line in f:
            m = re.match(r"\s*COLL_ALGO\((\w+), (\w+), ([^,]*),", line)
            if m and "COLL_SG" in m.group(3):
                pairs.append((m.group(1), m.group(2)))
    return pairs


def measurements():
    todo = []
    for c in SG_KEYS:
        todo.append((c, "default"))
    todo += shared_algorithms()
    for c in OTHERS:
        todo.append((c, "default"))
    return todo


def run(cmd, timeout):
    # in its own process group: on timeout the simulation smpirun started goes too
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, "took more than %g s" % timeout
    if p.returncode != 0:
        tail = (err.strip().splitlines() or ["?"])[-1]
        return None, "failed (exit %d: %s)" % (p.returncode, tail[:120])
    lines = [l for l in out.splitlines() if l and not l.startswith("[")]
    return lines, None


def write_file(path, pname, np_, body, old, order, version, pkg, extra=()):
    # measurements not redone (yet) keep their old line; list order, then size order
    lines = dict(body)
    for k, l in old.items():
        lines.setdefault(k, l)
    keys = sorted(lines, key=lambda k: (order.get((k[0], k[1]), len(order)),
                                        sizes_of(k[0]).index(k[2])
                                        if k[2] in sizes_of(k[0]) else 9))
    tmp = os.path.join(ROOT, path) + ".tmp"
    with open(tmp, "w") as f:
        f.write("# simulated time of one collective call; platform %s, %d ranks, hostfile %s\n"
                % (PLAT[pname], np_, HOSTS))
        f.write("# simgrid: %s (%s)\n" % (version, pkg))
        f.write("# command: smpirun -np %d -platform %s -hostfile %s -no-privatize %s "
                "[--cfg=smpi/<collective>:<algorithm>] coll_timing -s <sizes> <collective>\n"
                % (np_, PLAT[pname], HOSTS, " ".join(COMMON + FOLD + list(extra))))
        f.write("# (run from the repository root; coll_timing = tests/mpi/coll_timing.c "
                "built by tools/simgrid-ref/record_coll.py with smpicc -O2)\n")
        f.write("# columns: collective algorithm size(bytes, /N = N per rank in all) "
                "ranks span(s) mean(s)\n")
        for k in keys:
            f.write(lines[k].rstrip("\n") + "\n")
    os.replace(tmp, os.path.join(ROOT, path))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", default="16,64,256")
    ap.add_argument("--platforms", default="flat256,fattree256")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--per-size", action="store_true",
                    help="one SimGrid run per size (so that a slow 1 MiB case cannot cost the 8 B one)")
    ap.add_argument("--size", action="append", default=[],
                    help="only these sizes (8, 1048576, /1048576, 0)")
    ap.add_argument("--redo-missing", action="store_true",
                    help="only run the measurements an existing file lists as failed or timed "
                         "out (comment lines) or lacks, keeping its other lines (resumes an "
                         "interrupted recording)")
    ap.add_argument("--sizes", default="",
                    help="comma-separated sizes measured instead of 8 and 1 MiB (with --tag)")
    ap.add_argument("--defaults-only", action="store_true",
                    help="only SimGrid's default choice of every collective (no forced algorithm)")
    ap.add_argument("--smp4", action="store_true",
                    help="4 ranks per host (hostfile %s; needs --tag)" % HOSTS_PPN4)
    ap.add_argument("--ppn", type=int, default=0,
                    help="K ranks per host (hostfile platforms/coll_hosts_ppn<K>.txt, written "
                         "if missing; needs --tag)")
    ap.add_argument("--selector", default="",
                    help="instead of the algorithms: SimGrid's choice under "
                         "--cfg=smpi/coll-selector:NAME (e.g. impi) for every collective "
                         "(rows '<collective> NAME <size>'; needs --tag)")
    ap.add_argument("--together", action="store_true",
                    help="with --selector: all the collectives (but barrier) in one run per "
                         "rank count, in order, so that each sees what the ones before it set "
                         "up (SimGrid's mvapich2 Gather depends on it)")
    ap.add_argument("--sg-cfg", action="append", default=[], metavar="KEY:VALUE",
                    help="extra SimGrid setting (e.g. network/optim:Full); needs --tag")
    ap.add_argument("--tag", default="",
                    help="output suffix: coll_<platform>_<np>_<TAG>.txt")
    args = ap.parse_args()
    if args.sizes:
        if not args.tag:
            ap.error("--sizes: give the recording a --tag")
        GRID_SIZES[:] = args.sizes.split(",")
    global HOSTS
    if args.selector:
        if not args.tag:
            ap.error("--selector: give the recording a --tag")
        args.sg_cfg.append("smpi/coll-selector:" + args.selector)
    if args.smp4:
        if not args.tag:
            ap.error("--smp4: give the recording a --tag")
        HOSTS = HOSTS_PPN4
    if args.ppn:
        if not args.tag:
            ap.error("--ppn: give the recording a --tag")
        HOSTS = os.path.join(OUT, "platforms", "coll_hosts_ppn%d.txt" % args.ppn)
        if not os.path.exists(os.path.join(ROOT, HOSTS)):
            with open(os.path.join(ROOT, HOSTS), "w") as f:
                for i in range(256):
                    f.write("node-%d:%d\n" % (i, args.ppn))
    if args.selector and not args.tag:
        ap.error("--selector: give the recording a --tag")
    if args.sg_cfg and not args.tag:
        ap.error("--sg-cfg changes SimGrid's answer: give the recording a --tag")
    if args.tag and not re.match(r"^\w+$", args.tag):
        ap.error("--tag: letters, digits and _ only")
    if args.together and not args.selector:
        ap.error("--together needs --selector")
    extra = ["--cfg=" + c for c in args.sg_cfg]
    suffix = "_" + args.tag if args.tag else ""

    version = subprocess.run(["smpirun", "-version"], capture_output=True, text=True).stdout
    version = (version.splitlines() or ["?"])[0]
    pkg = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Version}", "libsimgrid-dev"],
                         capture_output=True, text=True).stdout or "libsimgrid-dev (unknown)"
    build = tempfile.mkdtemp(prefix="simgrid-coll.")
    exe = os.path.join(build, "coll_timing")
    cc = ["smpicc", "-std=c11", "-O2", "-Wall", "-o", exe, "tests/mpi/coll_timing.c"]
    print("== build:", " ".join(cc), file=sys.stderr)
    subprocess.run(cc, cwd=ROOT, check=True, capture_output=True)

    todo = measurements()
    if args.defaults_only or args.selector:
        todo = [(c, args.selector or a) for c, a in todo if a == "default"]
    if args.only:
        keep = set(args.only)
        todo = [(c, a) for c, a in todo if c in keep or "%s:%s" % (c, a) in keep]
    order = {m: i for i, m in enumerate(measurements())}
    if args.selector:
        order = {(c, args.selector if a == "default" else a): i for (c, a), i in order.items()}
    for pname in args.platforms.split(","):
        for np_ in [int(x) for x in args.np.split(",")]:
            path = os.path.join(OUT, "coll_%s_%d%s.txt" % (pname, np_, suffix))
            # lines of an existing file, by (collective, algorithm, size); comment lines of
            # failed measurements too (they are what --redo-missing re-runs)
            old, missing = {}, set()
            if (args.only or args.redo_missing) and os.path.exists(os.path.join(ROOT, path)):
                for l in open(os.path.join(ROOT, path)):
                    m = re.match(r"# (\w+) (\w+) (/?\d+) \d+: SimGrid", l)
                    if m:
                        old[m.groups()] = l
                        missing.add(m.groups())
                    elif not l.startswith("#"):
                        f = l.split()
                        old[(f[0], f[1], f[2])] = l
            body = {}
            if args.together:
                colls = [c for c, a in todo if c != "barrier" and c in SG_KEYS]
                base = ["smpirun", "-np", str(np_), "-platform", PLAT[pname], "-hostfile", HOSTS,
                        "-no-privatize"] + COMMON + FOLD + extra
                base += ["--cfg=smpi/%s:%s" % (c, args.selector) for c in colls]
                print("== %s np=%d together %s" % (pname, np_, " ".join(colls)), file=sys.stderr,
                      flush=True)
                lines, err = run(base + [exe, "-s", ",".join(GRID_SIZES)] + colls, args.timeout)
                for l in lines or []:
                    f = l.split()
                    size = f[1]
                    body[(f[0], args.selector, size)] = "%s %s %s %s %s %s" % (
                        f[0], args.selector, size, f[2], f[3], f[4])
                if lines is None:
                    print("   SimGrid " + err, file=sys.stderr)
                write_file(path, pname, np_, body, old, order, version, pkg,
                           extra + ["--together"])
                print("== wrote", path, file=sys.stderr)
                continue
            for coll, algo in todo:
                sizes = [s for s in sizes_of(coll) if not args.size or s in args.size]
                if args.redo_missing:
                    sizes = [s for s in sizes if (coll, algo, s) in missing or (coll, algo, s) not in old]
                if not sizes:
                    continue
                base = ["smpirun", "-np", str(np_), "-platform", PLAT[pname], "-hostfile", HOSTS,
                        "-no-privatize"]
                base += COMMON + FOLD + extra
                # (the collectives SimGrid has no key for follow no selector: no --cfg)
                if coll in SG_KEYS or algo not in ("default", args.selector):
                    base.append("--cfg=smpi/%s:%s" % (coll, algo))
                shown = " ".join(shlex.quote(x) for x in base)
                print("== %s np=%d %s:%s %s" % (pname, np_, coll, algo, ",".join(sizes)),
                      file=sys.stderr, flush=True)
                lines, err = (None, None) if args.per_size else \
                    run(base + [exe, "-s", ",".join(sizes), coll], args.timeout)
                results = []
                if lines is not None and len(lines) == len(sizes):
                    results = lines
                else:
                    for s in sizes:  # one size at a time
                        l1, e1 = run(base + [exe, "-s", s, coll], args.timeout)
                        if l1 and len(l1) == 1:
                            results.append(l1[0])
                        else:
                            results.append("# %s %s %s %d: SimGrid %s; command: %s coll_timing -s %s %s"
                                           % (coll, algo, s, np_, e1 or "printed nothing", shown, s, coll))
                for s, r in zip(sizes, results):
                    if not r.startswith("#"):
                        f = r.split()
                        r = "%s %s %s %s %s %s" % (coll, algo, f[1], f[2], f[3], f[4])
                    body[(coll, algo, s)] = r
                    print("   " + r[:150], file=sys.stderr, flush=True)
                # rewritten after every measurement: a long recording can be stopped
                write_file(path, pname, np_, body, old, order, version, pkg, extra)
            write_file(path, pname, np_, body, old, order, version, pkg, extra)
            print("== wrote", path, file=sys.stderr)


if __name__ == "__main__":
    main()
