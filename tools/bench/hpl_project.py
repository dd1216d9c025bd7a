#!/usr/bin/env python3
"""What simulating the seed study's HPL run would cost: tools/bench/programs/hpl_seed.c (HPL's
shape: 2-D block-cyclic, 2-ring broadcast polling with MPI_Iprobe, binary-exchange pivoting
and row swaps, kernels as smpi_execute_benched, matrix and panel folded) measured per
simulated iteration (one panel) against ranks and N, ours and SimGrid 3.32 in the same run,
then projected to 6 006 ranks, N = 3 875 000, NB = 1 024 with the growth laws measured.

    tools/bench/hpl_project.py --build-dir build [--ranks 64,256,1024] [--out FILE.md]

Cost of one iteration = (CPU of a run of K2 panels - CPU of a run of K1 panels) / (K2 - K1),
CPU = user + sys of the simulator's process tree (wait4), so start-up (allocation, platform)
cancels out; peak memory = max RSS of the K2 run. Two series:

  same   both simulators, N = --same-n for every rank count: SimGrid maps folded memory with
         MAP_POPULATE (a page-table entry per 4 KiB of the whole matrix, counted in RSS), so
         its N must stay small for it to fit (N = 32 768: 8 GiB of matrix);
  proj   ours only, --rows-per-rank (default 50 000, the target's N / P) local rows, so that
         messages, simulated waits and hence polling are those of the target's iterations.

Projection: the simulator's cost is per event (a message, a failed MPI_Iprobe), so
  CPU(target) = sum over the target's panels of msgs(panel) x c_msg(ranks) + probes x c_probe
where msgs(panel) is counted exactly by replaying hpl_seed.c's pattern (msgs_per_iter below,
checked against the program's own count), probes per iteration per rank and the per-event
cost are power laws in the rank count fitted on the proj series, and memory is a linear law
in ranks fitted on its peak RSS. Panels late in the factorisation have fewer rows (smaller
waits, fewer probes): projecting every panel at the first panels' cost is an upper bound.

Re-run after a change (polling, solver): the script needs only a build directory; it prints
a markdown report (and writes it to --out, e.g. tools/bench/results/DATE-hpl-projection.md).
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.path.join(HERE, "programs", "hpl_seed.c")
LINE = re.compile(r"hpl_seed: N (\d+) NB (\d+) (\d+)x(\d+) iters (\d+) first (\d+) time (\S+) s "
                  r"msgs (\d+) probes (\d+) OK")
WORKDIRS = []  # removed at exit
TARGET = {"ranks": 6006, "P": 77, "Q": 78, "N": 3875000, "NB": 1024}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def grid(n):
    p = int(math.isqrt(n))
    while n % p:
        p -= 1
    return p, n // p


def platform(work, n):
    """A flat cluster shaped like Stampede's nodes and network for the simulated times: 56 Gb/s
    FDR links, 1 us, a backbone that never saturates (a full-bisection fat tree)."""
    path = os.path.join(work, "stampede-%d.xml" % n)
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write("<?xml version='1.0'?>\n"
                    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                    "<platform version=\"4.1\">\n"
                    "  <cluster id=\"stampede\" prefix=\"node-\" radical=\"0-%d\" suffix=\"\" "
                    "speed=\"1Gf\" bw=\"56Gbps\" lat=\"1us\" bb_bw=\"100Tbps\" bb_lat=\"0.5us\"/>\n"
                    "</platform>\n" % (n - 1))
        with open(os.path.join(work, "hosts-%d" % n), "w") as f:
            f.write("".join("node-%d\n" % i for i in range(n)))
    return path, os.path.join(work, "hosts-%d" % n)


# ---- hpl_seed.c's messages, replayed ----

def count_below(g, p, nprocs, nb):
    full, rest = divmod(g, nb * nprocs)
    extra = rest - p * nb
    return full * nb + (0 if extra < 0 else nb if extra > nb else extra)


def bx_msgs(n):
    """Messages of one binary exchange over n processes (sends of all of them)."""
    if n < 2:
        return 0
    p2 = 1 << (n.bit_length() - 1)
    return (n - p2) * 2 + p2 * (p2.bit_length() - 1)


def msgs_per_iter(N, NB, P, Q, it):
    j = it * NB
    jb = min(NB, N - j)
    m = jb * bx_msgs(P)  # pivot search on the panel's process column
    if Q >= 2:
        m += P * (Q - 1)  # 2-ring modified: every non-root receives one message
    # row swaps: every process column with trailing columns
    cols = sum(1 for q in range(Q) if count_below(N, q, Q, NB) - count_below(j + jb, q, Q, NB) > 0)
    m += cols * bx_msgs(P)
    return m


def msgs_total(N, NB, P, Q, iters=None, first=0):
    panels = -(-N // NB)
    last = min(panels, first + (iters or panels))
    return sum(msgs_per_iter(N, NB, P, Q, it) for it in range(first, last))


# ---- running ----

def run(cmd):
    t0 = time.monotonic()
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        _, status, ru = os.wait4(p.pid, 0)
        out.seek(0)
        text = out.read()
    rc = os.waitstatus_to_exitcode(status)
    m = LINE.search(text)
    if rc != 0 or not m:
        raise SystemExit("hpl_project: %s failed (rc %d):\n%s" % (" ".join(cmd), rc, text[-3000:]))
    return {"cpu": ru.ru_utime + ru.ru_stime, "wall": time.monotonic() - t0,
            "rss": ru.ru_maxrss / 1024.0, "sim": float(m.group(7)), "msgs": int(m.group(8)),
            "probes": int(m.group(9))}


def measure(sim, binary, smpirun, work, P, Q, N, nb, k1, k2, first=0):
    n = P * Q
    plat, hosts = platform(work, n)
    res = []
    for k in (k1, k2):
        cmd = [smpirun, "-np", str(n), "-platform", plat, "-hostfile", hosts,
               "--cfg=smpi/display-timing:yes", binary, str(N), str(nb), str(P), str(Q), str(k),
               str(first)]
        r = run(cmd)
        log("  %-4s %5d ranks N %8d panels %d..%d: %7.2f CPU-s %7.0f MiB  sim %.4g s  msgs %d  "
            "probes %d" % (sim, n, N, first, first + k - 1, r["cpu"], r["rss"], r["sim"], r["msgs"],
                           r["probes"]))
        res.append(r)
    a, b = res
    d = k2 - k1
    want = msgs_total(N, nb, P, Q, k2, first) - msgs_total(N, nb, P, Q, k1, first)
    if b["msgs"] - a["msgs"] != want:
        raise SystemExit("hpl_project: %s %d ranks: the program sent %d messages in panels "
                         "%d..%d, the replay counts %d" % (sim, n, b["msgs"] - a["msgs"], k1, k2, want))
    return {"sim": sim, "ranks": n, "P": P, "Q": Q, "N": N, "first": first,
            "cpu_it": (b["cpu"] - a["cpu"]) / d, "msgs_it": (b["msgs"] - a["msgs"]) / d,
            "probes_it": (b["probes"] - a["probes"]) / d, "rss": b["rss"],
            "cpu_k1": a["cpu"], "simtime_it": (b["sim"] - a["sim"]) / d}


def powerfit(xs, ys):
    """y = c x^g by least squares on logs; returns (c, g)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-30)) for y in ys]
    n = len(xs)
    mx, my = sum(lx) / n, sum(ly) / n
    sxx = sum((x - mx) ** 2 for x in lx)
    g = sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sxx if sxx else 0.0
    return math.exp(my - g * mx), g


def linfit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return my - b * mx, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, help="our build tree (tools/smpicc, smpirun)")
    ap.add_argument("--ranks", default="64,256,1024", help="rank counts of the two series")
    ap.add_argument("--nb", type=int, default=TARGET["NB"])
    ap.add_argument("--same-n", type=int, default=32768, help="N of the series run on both")
    ap.add_argument("--rows-per-rank", type=int, default=50000,
                    help="local rows of the growth series (N = rows x P)")
    ap.add_argument("--panels", default="1,3", help="K1,K2: panels of the two runs")
    ap.add_argument("--along", default="0,0.25,0.5,0.75,0.95",
                    help="where in the target's factorisation its panels are measured (fractions)")
    ap.add_argument("--target", default="77,78,3875000",
                    help="P,Q,N of the run projected to (NB is --nb): the seed study's")
    ap.add_argument("--no-simgrid", action="store_true")
    ap.add_argument("--no-target", action="store_true", help="skip the runs at the target itself")
    ap.add_argument("--sg-max-ranks", type=int, default=1024)
    ap.add_argument("--out", help="also write the report here")
    a = ap.parse_args()
    ranks = [int(x) for x in a.ranks.split(",")]
    k1, k2 = (int(x) for x in a.panels.split(","))
    build = os.path.abspath(a.build_dir)
    work = tempfile.mkdtemp(prefix="hpl_project-")
    WORKDIRS.append(work)
    ours_cc, ours_run = os.path.join(build, "tools", "smpicc"), os.path.join(build, "tools", "smpirun")
    bins = {"ours": os.path.join(work, "hpl_seed_ours")}
    subprocess.run([ours_cc, "-O2", "-o", bins["ours"], PROG], check=True)
    sg = not a.no_simgrid and os.path.exists("/usr/bin/smpicc") and os.path.exists("/usr/bin/smpirun")
    if sg:
        bins["sg"] = os.path.join(work, "hpl_seed_sg")
        subprocess.run(["/usr/bin/smpicc", "-O2", "-o", bins["sg"], PROG], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    runners = {"ours": ours_run, "sg": "/usr/bin/smpirun"}
    head = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.strip()
    started = time.strftime("%Y-%m-%d %H:%M")
    load0 = os.getloadavg()[0]
    tp, tq, tn = (int(x) for x in a.target.split(","))
    T = {"ranks": tp * tq, "P": tp, "Q": tq, "N": tn, "NB": a.nb}
    panels = -(-T["N"] // T["NB"])

    same, growth, along = [], [], []
    for i, n in enumerate(ranks):
        P, Q = grid(n)
        for sim in (["ours", "sg"] if i % 2 == 0 else ["sg", "ours"]):
            if sim == "sg" and (not sg or n > a.sg_max_ranks):
                continue
            log("same N, %s, %d ranks" % (sim, n))
            same.append(measure(sim, bins[sim], runners[sim], work, P, Q, a.same_n, a.nb, k1, k2))
    for n in ranks:
        P, Q = grid(n)
        log("growth series, ours, %d ranks" % n)
        growth.append(measure("ours", bins["ours"], ours_run, work, P, Q, a.rows_per_rank * P,
                              a.nb, k1, k2))
    if not a.no_target:
        for f in (float(x) for x in a.along.split(",")):
            first = min(panels - k2, int(f * panels))
            log("the target, ours, panel %d of %d" % (first, panels))
            along.append(measure("ours", bins["ours"], ours_run, work, T["P"], T["Q"], T["N"],
                                 T["NB"], k1, k2, first))
        growth.append(along[0])
    load1 = os.getloadavg()[0]

    def per_event(r):
        return r["cpu_it"] / (r["msgs_it"] + r["probes_it"])

    # ---- growth laws ----
    xs = [r["ranks"] for r in growth]
    c_it, g_it = powerfit(xs, [r["cpu_it"] for r in growth])
    c_ev, g_ev = powerfit(xs, [per_event(r) for r in growth])
    m0, m1 = linfit(xs, [r["rss"] for r in growth])
    sgs = [r for r in same if r["sim"] == "sg"]
    ous = [r for r in same if r["sim"] == "ours"]
    c_sg, g_sg = powerfit([r["ranks"] for r in sgs], [per_event(r) for r in sgs]) if len(sgs) >= 2 else (None, None)
    c_ou, g_ou = powerfit([r["ranks"] for r in ous], [per_event(r) for r in ous]) if len(ous) >= 2 else (None, None)

    # ---- projection: integrate the target's per-panel cost over its panels ----
    proj = None
    if along:
        pts = sorted((r["first"], r) for r in along)
        cpu, msgs_t, probes_t = 0.0, 0, 0.0
        for it in range(panels):
            # piecewise linear in the panel index between the measured panels, flat outside
            lo = max([p for p in pts if p[0] <= it], default=pts[0], key=lambda p: p[0])
            hi = min([p for p in pts if p[0] >= it], default=pts[-1], key=lambda p: p[0])
            w = 0.0 if hi[0] == lo[0] else (it - lo[0]) / (hi[0] - lo[0])
            ev = (1 - w) * per_event(lo[1]) + w * per_event(hi[1])
            pr = (1 - w) * lo[1]["probes_it"] + w * hi[1]["probes_it"]
            m = msgs_per_iter(T["N"], T["NB"], T["P"], T["Q"], it)
            cpu += (m + pr) * ev
            msgs_t += m
            probes_t += pr
        startup = along[0]["cpu_k1"] - k1 * along[0]["cpu_it"]
        proj = {"cpu": cpu + max(startup, 0.0), "startup": startup, "msgs": msgs_t,
                "probes": probes_t, "rss": max(r["rss"] for r in along)}

    # ---- report ----
    L = []
    L.append("# HPL at the seed study's scale: cost per simulated iteration, projection")
    L.append("")
    L.append("Measured %s on %s by `tools/bench/hpl_project.py --build-dir %s --ranks %s --panels %d,%d` "
             "(`tools/bench/programs/hpl_seed.c`, NB %d); load average %.1f -> %.1f on this 2-core "
             "machine (other jobs ran: CPU time, not wall, is compared). CPU = user + sys of the "
             "simulator's process tree; per iteration = the difference of a %d- and a %d-panel "
             "run divided by %d (start-up cancels); RSS = peak of the longer run."
             % (started, head or "?", a.build_dir, a.ranks, k1, k2, a.nb, load0, load1, k1, k2, k2 - k1))
    L.append("")
    L.append("## Same run, same N (%d): ours and SimGrid 3.32" % a.same_n)
    L.append("")
    L.append("| ranks | PxQ | msgs/iter | probes/iter ours / SG | CPU-s/iter ours | SG | SG/ours "
             "| us/event ours / SG | peak RSS ours (MiB) | SG (MiB) | simulated s/iter ours / SG |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for n in ranks:
        o = next((r for r in same if r["sim"] == "ours" and r["ranks"] == n), None)
        s_ = next((r for r in same if r["sim"] == "sg" and r["ranks"] == n), None)
        if not o:
            continue
        L.append("| %d | %dx%d | %d | %d / %s | %.3f | %s | %s | %.2f / %s | %.0f | %s | %.4g / %s |" % (
            n, o["P"], o["Q"], o["msgs_it"], o["probes_it"], "%d" % s_["probes_it"] if s_ else "-",
            o["cpu_it"], "%.3f" % s_["cpu_it"] if s_ else "-",
            "%.1fx" % (s_["cpu_it"] / o["cpu_it"]) if s_ and o["cpu_it"] > 0 else "-",
            1e6 * per_event(o), "%.2f" % (1e6 * per_event(s_)) if s_ else "-",
            o["rss"], "%.0f" % s_["rss"] if s_ else "-", o["simtime_it"],
            "%.4g" % s_["simtime_it"] if s_ else "-"))
    L.append("")
    L.append("SimGrid's RSS counts every page of the folded matrix (it maps folded memory with "
             "MAP_POPULATE); ours counts the pages the simulation touches.")
    L.append("")
    L.append("## Ours against ranks at the target's local size (%d rows per rank; the last row is "
             "the target itself)" % a.rows_per_rank)
    L.append("")
    L.append("| ranks | PxQ | N | msgs/iter | probes/iter | CPU-s/iter | us/event | peak RSS (MiB) "
             "| simulated s/iter |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for r in growth:
        L.append("| %d | %dx%d | %d | %d | %d | %.3f | %.2f | %.0f | %.4g |" % (
            r["ranks"], r["P"], r["Q"], r["N"], r["msgs_it"], r["probes_it"], r["cpu_it"],
            1e6 * per_event(r), r["rss"], r["simtime_it"]))
    L.append("")
    L.append("Growth laws (least squares on logs): CPU per iteration %.3g s x ranks^%.3f; CPU per "
             "event %.3g us x ranks^%.3f; peak RSS %.0f MiB + %.3f MiB x ranks."
             % (c_it, g_it, c_ev * 1e6, g_ev, m0, m1))
    if c_sg:
        L.append("Same-N series, CPU per event: ours %.3g us x ranks^%.3f, SimGrid %.3g us x "
                 "ranks^%.3f." % (c_ou * 1e6, g_ou, c_sg * 1e6, g_sg))
    L.append("")
    if proj:
        L.append("## The target: %d ranks (%dx%d), N = %d, NB = %d, %d panels"
                 % (T["ranks"], T["P"], T["Q"], T["N"], T["NB"], panels))
        L.append("")
        L.append("| panel | trailing N | msgs/iter | probes/iter | CPU-s/iter | us/event | peak RSS (MiB) "
                 "| simulated s/iter |")
        L.append("|---|---|---|---|---|---|---|---|")
        for r in along:
            L.append("| %d | %d | %d | %d | %.3f | %.2f | %.0f | %.4g |" % (
                r["first"], T["N"] - r["first"] * T["NB"], r["msgs_it"], r["probes_it"], r["cpu_it"],
                1e6 * per_event(r), r["rss"], r["simtime_it"]))
        L.append("")
        L.append("Projection: every panel's messages replayed exactly (%.4g in all), its MPI_Iprobe "
                 "calls and CPU per event interpolated linearly in the panel index between the "
                 "measured panels (%.4g calls in all), plus start-up (%.1f CPU-s):"
                 % (proj["msgs"], proj["probes"], proj["startup"]))
        L.append("")
        L.append("| | projected CPU | projected memory | target <= 6 h, <= 16 GiB |")
        L.append("|---|---|---|---|")
        ok = proj["cpu"] <= 6 * 3600 and proj["rss"] <= 16 * 1024
        L.append("| ours | %.2f h | %.2f GiB (measured peak at the target) | %s |" % (
            proj["cpu"] / 3600, proj["rss"] / 1024, "met" if ok else "NOT met"))
        if c_sg:
            sg_cpu = (proj["msgs"] + proj["probes"]) * c_sg * T["ranks"] ** g_sg
            L.append("| SimGrid 3.32 (its same-N per-event law at %d ranks x the same events) | "
                     "%.1f h | not run: MAP_POPULATE of %.0f TB of folded matrix (page tables of "
                     "%.0f GB without huge pages) | |" % (T["ranks"], sg_cpu / 3600,
                                                          T["N"] ** 2 * 8 / 1e12,
                                                          T["N"] ** 2 * 8 / 4096 * 8 / 1e9))
        L.append("")
    text = "\n".join(L) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    try:
        main()
    finally:
        for d in WORKDIRS:
            shutil.rmtree(d, ignore_errors=True)
