#!/usr/bin/env python3
"""How far the bandwidth-heavy cells are above the payload floor (issue 27).

A simulator that runs the program's code must run that code and move and reduce the
payload: the program's own CPU time, plus the bytes copied and reduced at this machine's
rates for the run's working set, is the least CPU time any of them can spend (the "payload
floor" of smpi/display-timing, docs/emulation.md). This script runs programs/copy_cells.c
(ordinary malloc'd buffers, reused, 4 calls per cell) and the harness's users' variants of
programs/bench_mpi.c (allreduce_users, bcast_users: 4 calls per size of 1 KiB, 32 KiB and
1 MiB, private buffers), default options (privatization on, computation measured), under
our smpirun and SimGrid 3.32's, and reports per cell and scale:

  payload      bytes the program hands to MPI for other ranks (nominal)
  copied       bytes our run copied; reduced: bytes its predefined ops combined
  program      the ranks' own CPU time between MPI calls (measured bursts)
  copies       copied / memcpy rate at the run's working set (the rate in parentheses)
  reductions   reduced / reduction rate at that working set
  timed        the rates of the run's own large copies (into resident pages) and
               reductions; the floor takes them where they beat the curve's
  first        pages of the program's buffers a received payload wrote first, at the
  touches      first-touch cost measured on this host
  floor        program + copies + reductions + first touches
  cpu          user + sys seconds of the whole run (RUSAGE_CHILDREN), and sys alone
  x floor      cpu / floor: the target is 1.5
  hot floor    the first figure of issue 27: copies alone at the cache-hot (8 MiB) rate,
               and cpu over it (kept so that both can be compared)
  start-up     cpu of the same command running the program's "empty" case (nothing between
               MPI_Init and MPI_Finalize), median of 3 runs right after the cell's: what
               every run pays before and after the payload (exec, libraries, platform,
               contexts), which the floor does not contain
  x floor      (cpu - start-up) / floor, shown beside x floor (which stays the judged
  after        figure; tools/bench/README.md)
  start-up
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
PROGRAMS = {"cc": os.path.join(HERE, "programs", "copy_cells.c"),
            "bench": os.path.join(HERE, "programs", "bench_mpi.c")}
PLATFORM = os.path.join(HERE, "platforms", "cluster_flat.xml")
COPY_LINE = re.compile(r"smpi: bytes copied: (\d+) in (\d+) copies "
                       r"\(floor (\d+\.\d+) s at (\d+\.\d) GB/s memcpy\)")
PAYLOAD = re.compile(r"copy_cells: case=(\w+) payload=(\d+)")
REDUCED = re.compile(r"smpi: bytes reduced: (\d+) in (\d+) reductions")
FLOOR = re.compile(r"smpi: payload floor: (\d+\.\d+) s = program (\d+\.\d+) s(?: \(not measured\))? "
                   r"\+ copies (\d+\.\d+) s at (\d+\.\d) GB/s \+ reductions (\d+\.\d+) s at "
                   r"(\d+\.\d) GB/s \(working set (\d+) MiB\)"
                   r"(?: \+ first touches (\d+\.\d+) s \((\d+) pages at (\d+\.\d+) us\))?")
BENCH_DONE = re.compile(r"bench: case=\w+ msgs=\d+")
TIMED = re.compile(r"smpi: timed in the run: copies (\d+) bytes in (\d+\.\d+) s \((\d+\.\d) GB/s\), "
                   r"reductions (\d+) bytes in (\d+\.\d+) s \((\d+\.\d) GB/s\)")
# the harness's users' variants: bench_mpi CASE 4 private (sizes 1 KiB, 32 KiB, 1 MiB)
USERS = {"allreduce_users": ["allreduce", "4", "private"],
         "bcast_users": ["bcast", "4", "private"]}
# memory bounds this 24 GiB machine shared with others: a cell's buffers stay under ~4 GiB
DEFAULT_CELLS = "bcast1m:16,64,256,1024,4096 alltoall32k:16,64 alltoall1m:16,64,256,1024 " \
                "allreduce1m:16,64,256,1024 pingpong:16,64 allreduce_users:16,64,256 " \
                "bcast_users:16,64,256"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def users_payload(case, n):
    """bench_mpi's users' variants: 4 calls per size; what reaches the other ranks"""
    return 4 * (n - 1) * (1024 + 32 * 1024 + 1024 * 1024)


def build(cc, out, program):
    r = subprocess.run([cc, "-O2", "-o", out, program], stdout=subprocess.PIPE,
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


def startup_cpu(cmd, timeout):
    """median CPU of 3 runs of cmd with the program's "empty" case instead of the cell's"""
    prog = next(i for i, w in enumerate(cmd) if os.path.basename(w).startswith(("cc_", "bench_")))
    cpus = []
    for _ in range(3):
        user, sys_, _, rc = run(cmd[:prog + 1] + ["empty"], timeout)
        if rc != 0:
            return None
        cpus.append(user + sys_)
    return sorted(cpus)[1]


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
    ap.add_argument("--reps", type=int, default=1,
                    help="runs per cell and simulator; the run of median CPU is shown")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="copy_floor.")
    sims = [("ours", os.path.join(a.build_dir, "tools"))]
    if a.before:
        sims.append(("before", os.path.join(a.before, "tools")))
    if not a.no_simgrid and os.path.exists("/usr/bin/smpirun"):
        sims.append(("sg", "/usr/bin"))
    for name, tools in sims:
        for prog, src in PROGRAMS.items():
            build(os.path.join(tools, "smpicc"), os.path.join(work, "%s_%s" % (prog, name)), src)
    # the first run on a host measures the memcpy rates (~1 s, cached): not in a cell
    subprocess.run([os.path.join(sims[0][1], "smpirun"), "-np", "2",
                    "--cfg=smpi/display-timing:yes", os.path.join(work, "cc_ours"), "empty"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    uptime0 = open("/proc/loadavg").read().split()[:3]

    rows = []
    skip = {}  # (simulator, case) -> scale that timed out: larger ones are not run
    for spec in a.cells.split():
        case, _, scales = spec.partition(":")
        for n in [int(s) for s in scales.split(",")]:
            hosts = hostfile(work, n)
            row = {"case": case, "n": n}
            cmds = {}
            for name, tools in sims:
                if (name, case) in skip:
                    continue
                prog = ["bench_" + name] + USERS[case] if case in USERS else ["cc_" + name, case]
                cmds[name] = [os.path.join(tools, "smpirun"), "-np", str(n), "-platform",
                              PLATFORM, "-hostfile", hosts, "--cfg=smpi/display-timing:yes",
                              os.path.join(work, prog[0])] + prog[1:]
            # (cpu, user, sys, out, rc, wall) per simulator; the repetitions alternate the
            # simulators' order, so that a change of load falls on all of them
            allruns = {name: [] for name in cmds}
            for r in range(a.reps):
                for name in list(cmds) if r % 2 == 0 else list(cmds)[::-1]:
                    if allruns[name] and allruns[name][-1][4] != 0:
                        continue
                    t0 = time.monotonic()
                    user, sys_, out, rc = run(cmds[name], a.timeout)
                    allruns[name].append((user + sys_, user, sys_, out, rc,
                                          time.monotonic() - t0))
            for name, cmd in cmds.items():
                runs = allruns[name]  # the median CPU's run is shown
                ok = [x for x in runs if x[4] == 0]
                _, user, sys_, out, rc, wall = sorted(ok)[(len(ok) - 1) // 2] if ok else runs[-1]
                done = BENCH_DONE.search(out) if case in USERS else PAYLOAD.search(out)
                if rc != 0 or not done:
                    log("copy_floor: %s %s np=%d: %s\n%s" % (name, case, n, rc, out[-800:]))
                    if rc == "timeout":
                        skip[(name, case)] = n
                    continue
                row[name] = {"user": user, "sys": sys_, "cpu": user + sys_, "wall": wall,
                             "startup": startup_cpu(cmd, a.timeout)}
                row["payload"] = users_payload(case, n) if case in USERS \
                    else int(PAYLOAD.search(out).group(2))
                m = COPY_LINE.search(out)
                if m:
                    row[name].update(copied=int(m.group(1)), copies=int(m.group(2)),
                                     hot=float(m.group(3)), gbps=float(m.group(4)))
                m = REDUCED.search(out)
                if m:
                    row[name].update(reduced=int(m.group(1)))
                m = TIMED.search(out)
                if m:
                    row[name].update(timed_copy=float(m.group(3)), timed_reduce=float(m.group(6)))
                m = FLOOR.search(out)
                if m:
                    row[name].update(floor=float(m.group(1)), program=float(m.group(2)),
                                     tcopies=float(m.group(3)), copy_gbps=float(m.group(4)),
                                     treduce=float(m.group(5)), reduce_gbps=float(m.group(6)),
                                     set_mib=int(m.group(7)),
                                     ttouch=float(m.group(8)) if m.group(8) else None,
                                     pages=int(m.group(9)) if m.group(9) else None)
                log("copy_floor: %-6s %-15s np=%-5d cpu %.2f s (sys %.2f), wall %.1f s%s"
                    % (name, case, n, user + sys_, sys_, wall,
                       ", floor %.3f s" % row[name]["floor"] if m else ""))
            rows.append(row)

    sg = any(s[0] == "sg" for s in sims)
    lines = ["| cell | ranks | payload MB | copied MB | reduced MB | working set MiB | program s "
             "| copies s (GB/s) | reductions s (GB/s) | timed GB/s (copies, reductions) "
             "| first touches s (pages) | floor s "
             "| ours cpu s (sys) | x floor "
             "| hot copy floor s | x hot floor | ours start-up s | x floor after start-up |"
             + (" before cpu s (sys), x its floor, after start-up |" if a.before else "")
             + (" SimGrid cpu s (sys) | SimGrid start-up s | SimGrid / ours | SimGrid x floor |"
                if sg else ""),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
             "---:|---:|" + ("---:|" if a.before else "") + ("---:|---:|---:|---:|" if sg else "")]
    for r in rows:
        o = r.get("ours") or {}
        floor, hot = o.get("floor"), o.get("hot")
        cells = ["%s" % r["case"], "%d" % r["n"],
                 fmt(r.get("payload", 0) / 1e6 if "payload" in r else None, "%.0f"),
                 fmt(o["copied"] / 1e6 if "copied" in o else None, "%.0f"),
                 fmt(o["reduced"] / 1e6 if "reduced" in o else None, "%.0f"),
                 fmt(o.get("set_mib"), "%d"),
                 fmt(o.get("program"), "%.3f"),
                 "%s (%s)" % (fmt(o.get("tcopies"), "%.3f"), fmt(o.get("copy_gbps"), "%.1f")),
                 "%s (%s)" % (fmt(o.get("treduce"), "%.3f"), fmt(o.get("reduce_gbps"), "%.1f")),
                 "%s, %s" % (fmt(o.get("timed_copy"), "%.1f"), fmt(o.get("timed_reduce"), "%.1f")),
                 "%s (%s)" % (fmt(o.get("ttouch"), "%.3f"), fmt(o.get("pages"), "%d")),
                 fmt(floor, "%.3f"),
                 "%s (%s)" % (fmt(o["cpu"], "%.3f"), fmt(o["sys"], "%.3f")) if o else "-",
                 fmt(o["cpu"] / floor if o and floor else None, "%.2f"),
                 fmt(hot, "%.3f"),
                 fmt(o["cpu"] / hot if o and hot else None, "%.1f"),
                 fmt(o.get("startup"), "%.4f"),
                 fmt((o["cpu"] - o["startup"]) / floor
                     if o and floor and o.get("startup") is not None else None, "%.2f")]
        if a.before:
            b = r.get("before")
            cells.append("%s (%s), %sx, %sx" % (
                fmt(b["cpu"], "%.3f"), fmt(b["sys"], "%.3f"),
                fmt(b["cpu"] / b["floor"] if b.get("floor") else None),
                fmt((b["cpu"] - b["startup"]) / b["floor"]
                    if b.get("floor") and b.get("startup") is not None else None)) if b else "-")
        if sg:
            g = r.get("sg")
            cells.append("%s (%s)" % (fmt(g["cpu"], "%.3f"), fmt(g["sys"], "%.3f")) if g
                         else "> %g s" % a.timeout)
            cells.append(fmt(g.get("startup") if g else None, "%.4f"))
            cells.append(fmt(g["cpu"] / o["cpu"] if g and o and o["cpu"] > 0 else None, "%.1f"))
            cells.append(fmt(g["cpu"] / floor if g and floor else None, "%.2f"))
        lines.append("| " + " | ".join(cells) + " |")
    uptime1 = open("/proc/loadavg").read().split()[:3]
    text = ("load average (1, 5, 15 min) at start %s, at end %s\n\n"
            % (" ".join(uptime0), " ".join(uptime1)) + "\n".join(lines) + "\n")
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


main()
