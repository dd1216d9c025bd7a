#!/usr/bin/env python3
"""How far the bandwidth-heavy cells are above the copy floor (issue 27).

A simulator that runs the program's code must move the payload: the bytes copied at this
machine's memcpy bandwidth are the least CPU time any of them can spend. This script runs
programs/copy_cells.c (ordinary malloc'd buffers, reused, 4 calls per cell, default options:
privatization on, computation measured) under our smpirun and SimGrid 3.32's, and reports
per cell and scale:

  copied   bytes our run copied (smpi/display-timing's "bytes copied" line)
  payload  bytes the program hands to MPI for other ranks (a bound no simulator beats)
  floor    copied / memcpy bandwidth (the line's own figure)
  cpu      user + sys seconds of the whole run (RUSAGE_CHILDREN), and sys alone
  x floor  cpu / floor: the target is 1.5
  net      (cpu - cpu of the "empty" case at the same scale: start-up, platform, end of
           the job) / floor: how far the cell's own work is above the floor
  Past a few hundred ranks the buffers outgrow the caches and every simulator's copies
  run at the DRAM rate (64 MiB copies: 2-4.5 GB/s on this machine, depending on the load),
  3-7x slower than the 8 MiB figure the floor uses: see the results file.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "programs", "copy_cells.c")
PLATFORM = os.path.join(HERE, "platforms", "cluster_flat.xml")
COPY_LINE = re.compile(r"smpi: bytes copied: (\d+) in (\d+) copies "
                       r"\(floor (\d+\.\d+) s at (\d+\.\d) GB/s memcpy\)")
PAYLOAD = re.compile(r"copy_cells: case=(\w+) payload=(\d+)")
# memory bounds this 24 GiB machine shared with others: a cell's buffers stay under ~4 GiB
DEFAULT_CELLS = "bcast1m:16,64,256,1024,4096 alltoall32k:16,64 alltoall1m:16,64,256,1024 " \
                "allreduce1m:16,64,256,1024 pingpong:16,64"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def build(cc, out):
    r = subprocess.run([cc, "-O2", "-o", out, PROGRAM], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit("copy_floor: %s failed:\n%s" % (cc, r.stdout))


def hostfile(work, n):
    path = os.path.join(work, "hosts%d" % n)
    with open(path, "w") as f:
        f.write("".join("node-%d\n" % i for i in range(n)))
    return path


def run(cmd, timeout):
    """CPU seconds (user, sys) of cmd and its descendants, its output, and whether it ended."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.wait()
            rc = "timeout"
        out.seek(0)
        text = out.read()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, text, rc)


def fmt(x, f="%.2f"):
    return "-" if x is None else f % x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--before", default=None, help="another build of ours, for before/after")
    ap.add_argument("--cells", default=DEFAULT_CELLS,
                    help="space-separated CASE:N,N,... (cases of programs/copy_cells.c)")
    ap.add_argument("--no-simgrid", action="store_true")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="copy_floor.")
    sims = [("ours", os.path.join(a.build_dir, "tools"))]
    if a.before:
        sims.append(("before", os.path.join(a.before, "tools")))
    if not a.no_simgrid and os.path.exists("/usr/bin/smpirun"):
        sims.append(("sg", "/usr/bin"))
    for name, tools in sims:
        build(os.path.join(tools, "smpicc"), os.path.join(work, "cc_" + name))

    empty = {}  # (simulator, ranks) -> cpu of a run doing nothing

    def baseline(name, tools, n, hosts):
        if (name, n) not in empty:
            cmd = [os.path.join(tools, "smpirun"), "-np", str(n), "-platform", PLATFORM,
                   "-hostfile", hosts, os.path.join(work, "cc_" + name), "empty"]
            user, sys_, out, rc = run(cmd, a.timeout)
            empty[(name, n)] = user + sys_ if rc == 0 else None
        return empty[(name, n)]

    rows = []
    skip = {}  # (simulator, case) -> scale that timed out: larger ones are not run
    for spec in a.cells.split():
        case, _, scales = spec.partition(":")
        for n in [int(s) for s in scales.split(",")]:
            hosts = hostfile(work, n)
            row = {"case": case, "n": n}
            for name, tools in sims:
                if (name, case) in skip:
                    continue
                cmd = [os.path.join(tools, "smpirun"), "-np", str(n), "-platform", PLATFORM,
                       "-hostfile", hosts, "--cfg=smpi/display-timing:yes",
                       os.path.join(work, "cc_" + name), case]
                t0 = time.monotonic()
                user, sys_, out, rc = run(cmd, a.timeout)
                wall = time.monotonic() - t0
                if rc != 0 or not PAYLOAD.search(out):
                    log("copy_floor: %s %s np=%d: %s\n%s" % (name, case, n, rc, out[-800:]))
                    if rc == "timeout":
                        skip[(name, case)] = n
                    continue
                row[name] = {"user": user, "sys": sys_, "cpu": user + sys_, "wall": wall,
                             "empty": baseline(name, tools, n, hosts)}
                row["payload"] = int(PAYLOAD.search(out).group(2))
                m = COPY_LINE.search(out)
                if m:
                    row[name].update(copied=int(m.group(1)), copies=int(m.group(2)),
                                     floor=float(m.group(3)), gbps=float(m.group(4)))
                log("copy_floor: %-6s %-12s np=%-5d cpu %.2f s (sys %.2f), wall %.1f s%s"
                    % (name, case, n, user + sys_, sys_, wall,
                       ", floor %.3f s" % row[name]["floor"] if m else ""))
            rows.append(row)

    lines = ["| cell | ranks | payload MB | copied MB | floor s | ours cpu s (sys) | empty run s "
             "| x floor | net x floor |"
             + (" before cpu s (sys) |" if a.before else "")
             + (" SimGrid cpu s (sys) | SimGrid / ours |" if any(s[0] == "sg" for s in sims)
                else ""),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if a.before else "")
             + ("---:|---:|" if any(s[0] == "sg" for s in sims) else "")]
    gbps = None
    for r in rows:
        o = r.get("ours")
        floor = o.get("floor") if o else None
        gbps = gbps or (o.get("gbps") if o else None)
        cells = ["%s" % r["case"], "%d" % r["n"],
                 fmt(r.get("payload", 0) / 1e6 if "payload" in r else None, "%.0f"),
                 fmt(o["copied"] / 1e6 if o and "copied" in o else None, "%.0f"),
                 fmt(floor, "%.3f"),
                 "%s (%s)" % (fmt(o["cpu"]), fmt(o["sys"])) if o else "-",
                 fmt(o["empty"] if o else None),
                 fmt(o["cpu"] / floor if o and floor else None, "%.1f"),
                 fmt((o["cpu"] - o["empty"]) / floor
                     if o and floor and o["empty"] is not None else None, "%.1f")]
        if a.before:
            b = r.get("before")
            cells.append("%s (%s)" % (fmt(b["cpu"]), fmt(b["sys"])) if b else "-")
        if any(s[0] == "sg" for s in sims):
            g = r.get("sg")
            cells.append("%s (%s)" % (fmt(g["cpu"]), fmt(g["sys"])) if g else "> %g s" % a.timeout)
            cells.append(fmt(g["cpu"] / o["cpu"] if g and o and o["cpu"] > 0 else None, "%.1f"))
        lines.append("| " + " | ".join(cells) + " |")
    text = ("memcpy bandwidth: %s GB/s (smpi/display-timing's figure)\n\n" % fmt(gbps, "%.1f")
            + "\n".join(lines) + "\n")
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


main()
