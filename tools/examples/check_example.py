#!/usr/bin/env python3
"""Run one teaching example under smpirun and check the observable its exercise is about
(docs/teaching.md). The numbers come from the models, not from this machine: every example
whose times are checked declares its computation or has none.

Usage: check_example.py NAME SMPIRUN PROG PLATFORM_DIR
"""
import re
import subprocess
import sys


def run(smpirun, args, want_rc=0):
    res = subprocess.run([smpirun] + args, capture_output=True, text=True, timeout=120)
    if (res.returncode != 0) != (want_rc != 0):
        sys.exit(f"exit status {res.returncode}, wanted {want_rc}:\n{res.stdout}{res.stderr}")
    return res.stdout, res.stderr


def fail(msg, out):
    sys.exit(f"{msg}\noutput was:\n{out}")


def pingpong(smpirun, prog, _):
    # ideal network: one-way time = 2 us + (size + 16 B) / 1.25 GB/s on the built-in platform
    # (plus 1.25 ns: the 10 ns of one MPI_Wtime spread over 8 one-way trips)
    out, _ = run(smpirun, ["-np", "2", "--cfg=network/model:CM02", prog])
    rows = re.findall(r"^\s*(\d+)\s+([\d.]+)\s+([\d.]+)$", out, re.M)
    if len(rows) != 12:
        fail("expected 12 sizes", out)
    for size, t, _bw in rows:
        want = 2.0 + (int(size) + 16) / 1250.0  # microseconds
        if abs(float(t) - want) > 0.005:
            fail(f"{size} bytes: one-way {t} us, latency + size/bandwidth gives {want:.4f}", out)
    # the default SMPI model corrects small messages: latency factor ~2 there
    out, _ = run(smpirun, ["-np", "2", prog])
    small = float(re.search(r"^\s*1\s+([\d.]+)", out, re.M).group(1))
    if not 3.5 < small < 4.5:
        fail(f"1 byte under the SMPI model: {small} us, expected about 4 us", out)


def ring(smpirun, prog, _):
    for np in (4, 8):
        out, _ = run(smpirun, ["-np", str(np), "--cfg=network/model:CM02", prog, "1000"])
        laps = re.findall(r"lap \d: (\d+) hops of 1000 bytes in ([\d.]+) us \(([\d.]+) us per "
                          r"hop\), counter (\d+)", out)
        if len(laps) != 3:
            fail("expected 3 laps", out)
        for hops, total, per_hop, counter in laps:
            if int(hops) != np or int(counter) != np - 1:
                fail("wrong hop count or counter", out)
            # one hop = one one-way message: 2 us + 1016 B / 1.25 GB/s
            if abs(float(per_hop) - (2.0 + 1016 / 1250.0)) > 0.005:
                fail(f"{per_hop} us per hop, expected {2.0 + 1016 / 1250.0:.4f}", out)


def pi_sampling(smpirun, prog, _):
    out, _ = run(smpirun, ["-np", "4", "--cfg=smpi/host-speed:1Gf", prog, "200"])
    m = re.search(r"pi ~ ([\d.]+) from (\d+) points", out)
    runs = re.search(r"blocks run: (\d+) of (\d+)", out)
    if not m or not runs:
        fail("no estimate", out)
    if abs(float(m.group(1)) - 3.14159) > 0.01:
        fail("pi estimate off by more than 0.01", out)
    # 10 blocks per rank ran, the 760 others were sampled
    if (int(runs.group(1)), int(runs.group(2))) != (40, 800):
        fail("expected 40 of 800 blocks to run", out)


def stencil2d(smpirun, prog, _):
    per_iter = {}
    for np in (1, 4, 16):
        out, _ = run(smpirun, ["-np", str(np), "--cfg=smpi/simulate-computation:no", prog])
        if "(correct)" not in out:
            fail("the distributed result differs from the serial one", out)
        m = re.search(r"time per iteration: ([\d.]+) us, of which halo exchange ([\d.]+) us", out)
        per_iter[np] = (float(m.group(1)), float(m.group(2)))
    # computation: 96 x 96 cells x 1000 flops / np at 1 Gflop/s; the halo adds a little
    for np, (t, halo) in per_iter.items():
        compute = 96 * 96 * 1000 / np / 1e3  # us
        if not compute <= t <= compute + halo + 1.0:
            fail(f"{np} ranks: {t} us per iteration, computation alone is {compute} us",
                 str(per_iter))
    # alone, a rank has no neighbour: its halo exchange is free
    if per_iter[1][1] > 0.1 or per_iter[16][1] <= 0:
        fail("halo exchange times", str(per_iter))


def coll_compare(smpirun, prog, _):
    times = {}
    for alg in ("binomial_tree", "flattree", "scatter_LR_allgather"):
        out, _ = run(smpirun, ["-np", "16", f"--cfg=smpi/bcast:{alg}", prog])
        times[alg] = {int(b): float(t) for b, t in
                      re.findall(r"^bcast\s+(\d+)\s+([\d.]+)$", out, re.M)}
        if len(times[alg]) != 3:
            fail("expected 3 bcast sizes", out)
    big, small = 1 << 20, 8
    # flat tree: fine for 8 bytes, the worst for 1 MiB (15 sends from the root in a row)
    if not times["flattree"][big] > 3 * times["binomial_tree"][big]:
        fail("flattree should be much slower than binomial_tree at 1 MiB", str(times))
    # scatter + allgather: the best for 1 MiB, the worst for 8 bytes
    if not times["scatter_LR_allgather"][big] < times["binomial_tree"][big]:
        fail("scatter_LR_allgather should beat binomial_tree at 1 MiB", str(times))
    if not times["scatter_LR_allgather"][small] > times["binomial_tree"][small]:
        fail("scatter_LR_allgather should lose to binomial_tree at 8 bytes", str(times))


def deadlock(smpirun, prog, _):
    out, _ = run(smpirun, ["-np", "2", prog, "1000"])
    if "without deadlock" not in out:
        fail("small messages should go through", out)
    _, err = run(smpirun, ["-np", "2", prog, "1000000"], want_rc=1)
    for want in (r"smpi: deadlock cycle: rank 0 -> rank 1 -> rank 0",
                 r"rank 0 waits in MPI_Send at \S*deadlock.c:\d+ for rank 1: send to rank 1, "
                 r"tag 0, 1000000 bytes"):
        if not re.search(want, err):
            fail(f"missing: {want}", err)


def contention(smpirun, prog, platforms):
    out, _ = run(smpirun, ["-np", "16", "-platform", platforms + "/teaching_racks.xml", prog])
    ratio = lambda what: float(re.search(what + r".*\(([\d.]+)x alone\)", out).group(1))
    if abs(ratio("inside each rack") - 1.0) > 0.05:
        fail("pairs inside the racks should not slow each other down", out)
    if not 7.5 < ratio("between the racks") < 8.5:
        fail("16 messages sharing the uplink should take about 8x the 2 of one exchange", out)
    a2a = float(re.search(r"alltoall, 64 KiB per pair:\s+([\d.]+) ms", out).group(1))
    if not a2a > 67.1:
        fail("the alltoall cannot beat 8 MiB over 1 Gb/s", out)


def main():
    name, smpirun, prog, platforms = sys.argv[1:5]
    globals()[name](smpirun, prog, platforms)
    print(f"{name}: OK")


if __name__ == "__main__":
    main()
