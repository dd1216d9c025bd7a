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
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.path.join(HERE, "programs", "hpl_seed.c")
LINE = re.compile(r"hpl_seed: N (\d+) NB (\d+) (\d+)x(\d+) iters (\d+) time (\S+) s msgs (\d+) "
                  r"probes (\d+) OK")
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


def msgs_total(N, NB, P, Q, iters=None):
    panels = -(-N // NB)
    return sum(msgs_per_iter(N, NB, P, Q, it) for it in range(min(panels, iters or panels)))


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
            "rss": ru.ru_maxrss / 1024.0, "sim": float(m.group(6)), "msgs": int(m.group(7)),
            "probes": int(m.group(8))}


def measure(sim, binary, smpirun, work, n, N, nb, k1, k2):
    P, Q = grid(n)
    plat, hosts = platform(work, n)
    res = []
    for k in (k1, k2):
        cmd = [smpirun, "-np", str(n), "-platform", plat, "-hostfile", hosts,
               "--cfg=smpi/display-timing:yes", binary, str(N), str(nb), str(P), str(Q), str(k)]
        r = run(cmd)
        log("  %-4s %5d ranks N %8d %2d panels: %7.2f CPU-s  %7.0f MiB  sim %.4g s  msgs %d  probes %d"
            % (sim, n, N, k, r["cpu"], r["rss"], r["sim"], r["msgs"], r["probes"]))
        res.append(r)
    a, b = res
    d = k2 - k1
    want = msgs_total(N, nb, P, Q, k2) - msgs_total(N, nb, P, Q, k1)
    if b["msgs"] - a["msgs"] != want:
        raise SystemExit("hpl_project: %s %d ranks: the program sent %d messages in panels "
                         "%d..%d, the replay counts %d" % (sim, n, b["msgs"] - a["msgs"], k1, k2, want))
    return {"sim": sim, "ranks": n, "P": P, "Q": Q, "N": N, "cpu_it": (b["cpu"] - a["cpu"]) / d,
            "msgs_it": (b["msgs"] - a["msgs"]) / d, "probes_it": (b["probes"] - a["probes"]) / d,
            "rss": b["rss"], "cpu_k2": b["cpu"], "simtime_it": (b["sim"] - a["sim"]) / d}


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
    ap.add_argument("--ranks", default="64,256,1024")
    ap.add_argument("--nb", type=int, default=TARGET["NB"])
    ap.add_argument("--same-n", type=int, default=32768, help="N of the series run on both")
    ap.add_argument("--rows-per-rank", type=int, default=50000,
                    help="local rows of the projection series (N = rows x P)")
    ap.add_argument("--panels", default="1,3", help="K1,K2: panels of the two runs")
    ap.add_argument("--no-simgrid", action="store_true")
    ap.add_argument("--sg-max-ranks", type=int, default=1024)
    ap.add_argument("--out", help="also write the report here")
    a = ap.parse_args()
    ranks = [int(x) for x in a.ranks.split(",")]
    k1, k2 = (int(x) for x in a.panels.split(","))
    build = os.path.abspath(a.build_dir)
    work = tempfile.mkdtemp(prefix="hpl_project-")
    ours_cc, ours_run = os.path.join(build, "tools", "smpicc"), os.path.join(build, "tools", "smpirun")
    bins = {"ours": os.path.join(work, "hpl_seed_ours")}
    subprocess.run([ours_cc, "-O2", "-o", bins["ours"], PROG], check=True)
    sg = not a.no_simgrid and os.path.exists("/usr/bin/smpicc") and os.path.exists("/usr/bin/smpirun")
    if sg:
        bins["sg"] = os.path.join(work, "hpl_seed_sg")
        subprocess.run(["/usr/bin/smpicc", "-O2", "-o", bins["sg"], PROG], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    runners = {"ours": ours_run, "sg": "/usr/bin/smpirun"}
    started = time.strftime("%Y-%m-%d %H:%M")
    load0 = os.getloadavg()[0]

    same, proj = [], []
    for i, n in enumerate(ranks):
        order = ["ours", "sg"] if i % 2 == 0 else ["sg", "ours"]
        for sim in order:
            if sim == "sg" and (not sg or n > a.sg_max_ranks):
                continue
            log("same-N series, %s, %d ranks" % (sim, n))
            same.append(measure(sim, bins[sim], runners[sim], work, n, a.same_n, a.nb, k1, k2))
    for n in ranks:
        P, _ = grid(n)
        log("projection series, ours, %d ranks" % n)
        proj.append(measure("ours", bins["ours"], ours_run, work, n, a.rows_per_rank * P, a.nb, k1, k2))
    load1 = os.getloadavg()[0]

    # ---- growth laws (proj series) ----
    xs = [r["ranks"] for r in proj]
    c_ev, g_ev = powerfit(xs, [r["cpu_it"] / (r["msgs_it"] + r["probes_it"]) for r in proj])
    c_pr, g_pr = powerfit(xs, [max(r["probes_it"], 1) / r["ranks"] for r in proj])
    m0, m1 = linfit(xs, [r["rss"] for r in proj])
    T = TARGET
    panels = -(-T["N"] // T["NB"])
    msgs_t = msgs_total(T["N"], T["NB"], T["P"], T["Q"])
    probes_t = c_pr * T["ranks"] ** g_pr * T["ranks"] * panels
    cpu_t = (msgs_t + probes_t) * c_ev * T["ranks"] ** g_ev
    rss_t = m0 + m1 * T["ranks"]
    sg_proj = None
    sgs = [r for r in same if r["sim"] == "sg"]
    if len(sgs) >= 2:
        c_sg, g_sg = powerfit([r["ranks"] for r in sgs],
                              [r["cpu_it"] / (r["msgs_it"] + r["probes_it"]) for r in sgs])
        sg_proj = (msgs_t + probes_t) * c_sg * T["ranks"] ** g_sg

    # ---- report ----
    L = []
    L.append("# HPL at the seed study's scale: cost per simulated iteration and projection")
    L.append("")
    L.append("Measured %s by `tools/bench/hpl_project.py --build-dir %s --ranks %s --panels %d,%d` "
             "(program `tools/bench/programs/hpl_seed.c`, NB %d; load average %.1f -> %.1f on "
             "this 2-core machine). CPU = user + sys of the simulator's process tree; "
             "per iteration = difference of a %d- and a %d-panel run, divided by %d."
             % (started, a.build_dir, a.ranks, k1, k2, a.nb, load0, load1, k1, k2, k2 - k1))
    L.append("")
    L.append("## Same run, same N (%d): ours and SimGrid 3.32" % a.same_n)
    L.append("")
    L.append("| ranks | PxQ | msgs/iter | probes/iter (ours / SG) | CPU-s/iter ours | SG | SG/ours "
             "| peak RSS ours (MiB) | SG | simulated s/iter ours / SG |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for n in ranks:
        o = next((r for r in same if r["sim"] == "ours" and r["ranks"] == n), None)
        s = next((r for r in same if r["sim"] == "sg" and r["ranks"] == n), None)
        if not o:
            continue
        L.append("| %d | %dx%d | %d | %d / %s | %.3f | %s | %s | %.0f | %s | %.4g / %s |" % (
            n, o["P"], o["Q"], o["msgs_it"], o["probes_it"], "%d" % s["probes_it"] if s else "-",
            o["cpu_it"], "%.3f" % s["cpu_it"] if s else "-",
            "%.1fx" % (s["cpu_it"] / o["cpu_it"]) if s and o["cpu_it"] > 0 else "-",
            o["rss"], "%.0f" % s["rss"] if s else "-", o["simtime_it"],
            "%.4g" % s["simtime_it"] if s else "-"))
    L.append("")
    L.append("## Ours at the target's local size (%d rows per rank, N = rows x P)" % a.rows_per_rank)
    L.append("")
    L.append("| ranks | PxQ | N | msgs/iter | probes/iter | CPU-s/iter | us/event | peak RSS (MiB) "
             "| simulated s/iter |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for r in proj:
        L.append("| %d | %dx%d | %d | %d | %d | %.3f | %.2f | %.0f | %.4g |" % (
            r["ranks"], r["P"], r["Q"], r["N"], r["msgs_it"], r["probes_it"], r["cpu_it"],
            1e6 * r["cpu_it"] / (r["msgs_it"] + r["probes_it"]), r["rss"], r["simtime_it"]))
    L.append("")
    L.append("## Growth laws (fitted on the series above) and projection")
    L.append("")
    L.append("- CPU per event (message or MPI_Iprobe): %.3g us x ranks^%.3f" % (c_ev * 1e6, g_ev))
    L.append("- MPI_Iprobe calls per iteration per rank: %.3g x ranks^%.3f" % (c_pr, g_pr))
    L.append("- peak RSS: %.0f MiB + %.3f MiB x ranks" % (m0, m1))
    L.append("- target: %d ranks (%dx%d), N = %d, NB = %d: %d panels, %.4g messages (replayed "
             "exactly), %.4g MPI_Iprobe calls (projected)"
             % (T["ranks"], T["P"], T["Q"], T["N"], T["NB"], panels, msgs_t, probes_t))
    L.append("")
    L.append("| | projected CPU | projected memory | target |")
    L.append("|---|---|---|---|")
    L.append("| ours | %.2f h | %.2f GiB | <= 6 h, <= 16 GiB: %s |" % (
        cpu_t / 3600, rss_t / 1024, "met" if cpu_t <= 6 * 3600 and rss_t <= 16 * 1024 else "NOT met"))
    if sg_proj is not None:
        L.append("| SimGrid 3.32 (per-event law of the same-N series) | %.1f h | (needs huge "
                 "pages: MAP_POPULATE of 120 TB) | |" % (sg_proj / 3600))
    L.append("")
    text = "\n".join(L) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
