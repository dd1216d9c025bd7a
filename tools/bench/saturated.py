#!/usr/bin/env python3
"""CPU time of the collectives whose flows share saturated links, ours beside SimGrid 3.32.

    tools/bench/saturated.py BUILD_DIR [--no-simgrid] [--cases allreduce,is,alltoall]
                             [--ranks 16,64] [--class-sharing]

Cases (tools/bench/README.md, "Saturated bottlenecks"):
  allreduce  programs/allreduce_size.c: MPI_Allreduce of 8 KiB, 5 times
  is         programs/is_like.c: NPB IS's communication (Allreduce of 1 024 bucket counts,
             Alltoall of counts, Alltoallv of 2^25 keys), 10 iterations; 1 iteration past
             64 ranks on the fat tree, where SimGrid needs ~100 CPU-s per iteration
  alltoall   programs/bench_mpi.c alltoall: the harness's Alltoall case
--class-sharing runs ours a second time with --cfg=maxmin/class-sharing:yes (column
"ours+class"; ratios against SimGrid for both).
on tools/bench/platforms' flat cluster and fat tree, default options (privatization on,
computation measured), each simulator run once per cell. CPU time is user + sys of the
simulator's process tree (getrusage of children), so a busy machine does not distort the
ratio as much as wall time would. Prints a Markdown table.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def cpu_run(cmd, timeout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), -1
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"time=([0-9.eE+-]+)|[Ss]imulated time: ([0-9.eE+-]+) s", out)
    sim = (m.group(1) or m.group(2)) if m and rc == 0 else None
    return {"cpu": cpu, "wall": wall, "sim": sim, "rc": rc,
            "tail": out[-300:]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--no-simgrid", action="store_true")
    ap.add_argument("--cases", default="allreduce,is")
    ap.add_argument("--ranks", default="16,64,256,1024,4096")
    ap.add_argument("--plats", default="cluster_flat,fattree")
    ap.add_argument("--timeout", type=float, default=1200)
    ap.add_argument("--class-sharing", action="store_true")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    ours = (os.path.join(build, "tools", "smpicc"), os.path.join(build, "tools", "smpirun"))
    sims = [("ours", *ours, [])]
    if a.class_sharing:
        sims.append(("ours+class", *ours, ["--cfg=maxmin/class-sharing:yes"]))
    if not a.no_simgrid and shutil.which("smpicc") and shutil.which("smpirun"):
        sims.append(("SimGrid", "smpicc", "smpirun", []))
    work = tempfile.mkdtemp(prefix="saturated-")
    progs = {"allreduce": ("allreduce_size.c", ["8192", "5"]), "is": ("is_like.c", None),
             "alltoall": ("bench_mpi.c", ["alltoall"])}
    with open(os.path.join(work, "hosts"), "w") as f:
        f.write("".join(f"node-{i}\n" for i in range(4096)))
    for name, cc, _, extra in sims:
        if extra:
            continue  # the same binary as "ours"
        for case, (src, _) in progs.items():
            subprocess.run([cc, "-O2", os.path.join(HERE, "programs", src), "-o",
                            os.path.join(work, f"{case}_{name}")], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cells = []
    for case in a.cases.split(","):
        ranks = [int(r) for r in a.ranks.split(",")]
        if case == "is":
            ranks = [r for r in ranks if 64 <= r <= 128] or [64, 128]
        for plat in a.plats.split(","):
            for n in ranks:
                args = progs[case][1]
                if case == "is":
                    args = ["25", "1" if (plat == "fattree" and n > 64) else "10"]
                row = {"case": case, "plat": plat, "n": n, "args": " ".join(args)}
                for name, _, run, extra in sims:
                    binary = "ours" if name.startswith("ours") else name
                    timing = ["--cfg=smpi/display-timing:yes"] if case == "alltoall" else []
                    cmd = [run, "-np", str(n), "-platform",
                           os.path.join(HERE, "platforms", plat + ".xml"), "-hostfile",
                           os.path.join(work, "hosts")] + timing + extra + [
                               os.path.join(work, f"{case}_{binary}")] + args
                    row[name] = cpu_run(cmd, a.timeout)
                    print(f"# {case} {plat} {n} {name}: cpu {row[name]['cpu']:.2f} s wall "
                          f"{row[name]['wall']:.1f} s sim {row[name]['sim']}", file=sys.stderr,
                          flush=True)
                cells.append(row)
    print(f"machine: {os.uname().nodename}, load before/after in the log; "
          f"{time.strftime('%Y-%m-%d %H:%M')}\n")
    head = "| case | platform | ranks | args |"
    for name, *_ in sims:
        head += f" {name} CPU s | {name} simulated s |"
    variants = [name for name, *_ in sims if name.startswith("ours")]
    has_sg = any(name == "SimGrid" for name, *_ in sims)
    if has_sg:
        head += "".join(f" ratio {v} |" for v in variants)
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for r in cells:
        line = f"| {r['case']} | {r['plat']} | {r['n']} | {r['args']} |"
        for name, *_ in sims:
            line += f" {r[name]['cpu']:.2f} | {r[name]['sim']} |"
        if has_sg:
            s = r["SimGrid"]
            for v in variants:
                o = r[v]
                line += (f" {s['cpu'] / o['cpu']:.1f}x |" if o["cpu"] > 0 and s["sim"]
                         else " - |")
        print(line)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
