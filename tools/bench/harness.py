#!/usr/bin/env python3
"""Benchmark harness: our simulator against SimGrid 3.32 on the same MPI programs.

One command builds tools/bench/programs/bench_mpi.c twice (our build-tree smpicc and
SimGrid's /usr/bin/smpicc), runs every (platform, scale, case) with both, alternating which
goes first at each repetition (the machine is shared and noisy: a slow minute hits both),
and prints one table per case.

    run k:   ours  SG   |  run k+1:  SG  ours  | ...      ratio_k = ours_k / SG_k
    median and spread (min..max) are taken over the per-repetition ratios.

Both simulators get the same options (the meaning is the same on both sides):
    --cfg=smpi/display-timing:yes          print the simulated time
    --cfg=smpi/simulate-computation:no     compute between MPI calls takes no simulated time
    --cfg=smpi/privatization:no            no per-rank globals (bench_mpi.c has none); SimGrid's
                                           smpirun puts privatization:1 first, ours wins (last)
Both also get the same -hostfile listing the platform's first N hosts in platform order
(node-0, node-1, ...): without one, SimGrid's smpirun places ranks on the hosts sorted by
name (node-0, node-1, node-10, node-100, node-1000, ...) while ours uses platform order, and
on a fat tree the two placements give different routes and simulated times.
Wall time and max RSS come from wait4() on the smpirun process (whole command: launcher,
platform parsing, simulation), like /usr/bin/time -f '%e %M'.

Exit status: 0 ok; 1 a run failed, or (--quick) simulated times disagree by more than 0.1 %
on a case where models and algorithms are the same (pingpong, tokenring); 77 (--quick) when
SimGrid is absent. See tools/bench/README.md.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAM = os.path.join(HERE, "programs", "bench_mpi.c")
PLATFORMS = {"flat": os.path.join(HERE, "platforms", "cluster_flat.xml"),
             "fattree": os.path.join(HERE, "platforms", "fattree.xml")}
CASES = ["pingpong", "tokenring", "shiftring", "alltoall", "allreduce", "bcast", "reduceburst"]
# Same network model and point-to-point protocol on both sides: simulated times must agree.
MUST_AGREE = {"pingpong", "tokenring"}
AGREE_TOL = 1e-3
COMMON_CFG = ["--cfg=smpi/display-timing:yes", "--cfg=smpi/simulate-computation:no",
              "--cfg=smpi/privatization:no"]

OURS_SIM = re.compile(r"smpi: simulated time: (\S+) s \(wall-clock time: (\S+) s")
SG_SIM = re.compile(r"Simulated time: (\S+) seconds")
SG_LOOP = re.compile(r"The simulation took (\S+) seconds")
MSGS = re.compile(r"bench: case=\S+ msgs=(\d+)")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def ensure_simgrid(may_install):
    """Path of SimGrid's smpirun/smpicc, or None with a note why not."""
    if os.path.exists("/usr/bin/smpirun") and os.path.exists("/usr/bin/smpicc"):
        return "/usr/bin/smpicc", "/usr/bin/smpirun", None
    if not may_install:
        return None, None, "SimGrid absent (/usr/bin/smpirun missing; apt-get install libsimgrid-dev)"
    log("bench: /usr/bin/smpirun missing, trying: apt-get install -y libsimgrid-dev")
    try:
        r = subprocess.run(["apt-get", "install", "-y", "libsimgrid-dev"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           timeout=600)
        ok = r.returncode == 0 and os.path.exists("/usr/bin/smpirun")
        why = r.stderr.strip().splitlines()[-1:] if not ok else []
    except (OSError, subprocess.TimeoutExpired) as e:
        ok, why = False, [str(e)]
    if ok:
        return "/usr/bin/smpicc", "/usr/bin/smpirun", None
    return None, None, ("SimGrid columns skipped: apt-get install -y libsimgrid-dev failed (%s)"
                        % (why[0] if why else "unknown reason"))


def build(cc, out, quiet_env=None):
    cmd = [cc, "-O2", "-Wall", "-Wextra", "-o", out, PROGRAM]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=quiet_env)
    if r.returncode != 0:
        log(r.stdout)
        raise SystemExit("bench: build failed: %s" % " ".join(cmd))


def platform_hosts(path):
    """Host names of a platform file, in platform order. The bench platforms are one
    <cluster> each (prefix, radical "a-b" or "a,b,...", suffix) plus any plain <host id=>."""
    text = open(path).read()
    names = []
    for m in re.finditer(r"<(host|cluster)\b([^>]*)>", text):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        if m.group(1) == "host":
            names.append(attrs["id"])
            continue
        for part in attrs["radical"].split(","):
            lo, _, hi = part.partition("-")
            for i in range(int(lo), int(hi or lo) + 1):
                names.append("%s%d%s" % (attrs.get("prefix", ""), i, attrs.get("suffix", "")))
    return names


def hostfile(work, plat, n):
    """A hostfile with the first n hosts of plat, one per line (created once per run)."""
    path = os.path.join(work, "hosts-%s-%d.txt" % (plat, n))
    if not os.path.exists(path):
        hosts = platform_hosts(PLATFORMS[plat])
        if n > len(hosts):
            raise SystemExit("bench: platform %s has %d hosts, %d asked" % (plat, len(hosts), n))
        with open(path, "w") as f:
            f.write("".join(h + "\n" for h in hosts[:n]))
    return path


def run_one(cmd, timeout):
    """Run cmd; return dict(wall, rss_kib, out, rc) measured with wait4 on the child."""
    with tempfile.TemporaryFile("w+") as out:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = t0 + timeout
        while True:
            try:
                pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            except KeyboardInterrupt:  # the child is in its own session: end it too
                os.killpg(p.pid, 9)
                os.wait4(p.pid, 0)
                raise
            if pid == p.pid:
                break
            if time.monotonic() > deadline:
                os.killpg(p.pid, 9)
                pid, status, ru = os.wait4(p.pid, 0)
                p.returncode = -9
                out.seek(0)
                return {"wall": None, "rss": None, "out": out.read(), "rc": "timeout"}
            time.sleep(0.005)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return {"wall": wall, "rss": ru.ru_maxrss, "out": out.read(), "rc": p.returncode}


def parse(kind, res):
    out = res["out"]
    m = MSGS.search(out)
    res["msgs"] = int(m.group(1)) if m else None
    if kind == "ours":
        m = OURS_SIM.search(out)
        res["sim"] = float(m.group(1)) if m else None
        res["loop"] = float(m.group(2)) if m else None
    else:
        m = SG_SIM.search(out)
        res["sim"] = float(m.group(1)) if m else None
        m = SG_LOOP.search(out)
        res["loop"] = float(m.group(1)) if m else None
    res["ok"] = res["rc"] == 0 and res["sim"] is not None and res["msgs"] is not None
    return res


def med_spread(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None, None
    return statistics.median(xs), min(xs), max(xs)


def fmt(x, unit=""):
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return "%.0f%s" % (x, unit)
    if abs(x) >= 10:
        return "%.1f%s" % (x, unit)
    return "%.3g%s" % (x, unit)


def fmt_ms(t):
    med, lo, hi = t
    if med is None:
        return "-"
    if lo == hi:
        return fmt(med)
    return "%s (%s–%s)" % (fmt(med), fmt(lo), fmt(hi))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="CI mode: pingpong, tokenring, allreduce at 16 ranks, flat, 1 repetition")
    ap.add_argument("--full", action="store_true", help="scales up to 4096")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--scales", default=None, help="comma-separated (default 16,64,256,1024)")
    ap.add_argument("--cases", default=None, help="comma-separated, from: " + ",".join(CASES))
    ap.add_argument("--platforms", default="flat,fattree")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"),
                    help="our meson build dir (its tools/smpicc and tools/smpirun are used)")
    ap.add_argument("--ours-smpicc", default=None)
    ap.add_argument("--ours-smpirun", default=None)
    ap.add_argument("--timeout", type=float, default=300, help="per run, seconds")
    ap.add_argument("--workdir", default=None, help="where binaries go (default: temp dir)")
    ap.add_argument("--no-install", action="store_true",
                    help="do not try apt-get install libsimgrid-dev when SimGrid is missing")
    a = ap.parse_args()

    if a.quick:
        scales, cases, plats, reps = [16], ["pingpong", "tokenring", "allreduce"], ["flat"], 1
    else:
        scales = [int(s) for s in (a.scales or ("16,64,256,1024,4096" if a.full
                                                 else "16,64,256,1024")).split(",")]
        cases = (a.cases or ",".join(CASES)).split(",")
        plats = a.platforms.split(",")
        reps = a.reps
    for c in cases:
        if c not in CASES:
            raise SystemExit("bench: unknown case '%s' (known: %s)" % (c, ", ".join(CASES)))
    for p in plats:
        if p not in PLATFORMS:
            raise SystemExit("bench: unknown platform '%s' (known: %s)" % (p, ", ".join(PLATFORMS)))

    ours_cc = os.path.abspath(a.ours_smpicc or os.path.join(a.build_dir, "tools", "smpicc"))
    ours_run = os.path.abspath(a.ours_smpirun or os.path.join(a.build_dir, "tools", "smpirun"))
    for f in (ours_cc, ours_run):
        if not os.access(f, os.X_OK):
            raise SystemExit("bench: %s not found: build first (ninja -C %s) or pass "
                             "--ours-smpicc/--ours-smpirun" % (f, a.build_dir))
    sg_cc, sg_run, sg_note = ensure_simgrid(may_install=not (a.quick or a.no_install))
    if sg_note:
        log("bench: " + sg_note)
        if a.quick:
            return 77

    work = a.workdir or tempfile.mkdtemp(prefix="smpi-bench.")
    os.makedirs(work, exist_ok=True)
    sims = {"ours": (ours_run, os.path.join(work, "bench_ours"))}
    build(ours_cc, sims["ours"][1])
    if sg_run:
        sims["sg"] = (sg_run, os.path.join(work, "bench_sg"))
        build(sg_cc, sims["sg"][1])
    order = list(sims)

    failures, disagreements, timeouts, results = [], [], [], {}
    try:
        measure(a, cases, plats, scales, reps, sims, order, results, failures, timeouts, work)
    except KeyboardInterrupt:  # Ctrl-C: keep what was measured and print it
        log("bench: interrupted; the tables show the runs finished so far")
        failures.append(("interrupted", None, None))
    print_tables(results, cases, plats, scales, sims, sg_note, a.timeout)

    for key, res in results.items():
        if "sg" not in res:
            continue
        for o, s in zip(res["ours"], res["sg"]):
            if o["ok"] and s["ok"] and s["sim"] > 0:
                rel = abs(o["sim"] - s["sim"]) / s["sim"]
                if rel > AGREE_TOL:
                    disagreements.append((key, o["sim"], s["sim"], rel))
                    break
    status = 0
    for (case, plat, n), o, s, rel in disagreements:
        must = case in MUST_AGREE
        print("%s: %s %s np=%d: simulated time ours %.9g s, SimGrid %.9g s (%.3g %% apart)%s"
              % ("FAIL" if must else "note", case, plat, n, o, s, 100 * rel,
                 "" if must else " — algorithms may differ, reported only"))
        if must:
            status = 1
    for (case, plat, n), kind in timeouts:
        print("note: %s %s np=%d: %s did not finish within %g s (not counted as a failure)"
              % (case, plat, n, "SimGrid" if kind == "sg" else "ours", a.timeout))
    if failures:
        print("FAIL: %d run(s) failed (see stderr)" % len(failures))
        status = 1
    if not a.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return status


def measure(a, cases, plats, scales, reps, sims, order, results, failures, timeouts, work):
    """Run every (case, platform, scale) reps times per simulator, alternating who goes first."""
    for case in cases:
        for plat in plats:
            for n in scales:
                key = (case, plat, n)
                results[key] = {k: [] for k in sims}
                timed_out = set()
                for r in range(reps):
                    seq = order if r % 2 == 0 else order[::-1]
                    for kind in seq:
                        if kind in timed_out:
                            continue  # one timeout is enough to know; do not burn reps * T
                        run, binary = sims[kind]
                        cmd = [run, "-np", str(n), "-platform", PLATFORMS[plat],
                               "-hostfile", hostfile(work, plat, n)] + COMMON_CFG \
                            + [binary, case]
                        res = parse(kind, run_one(cmd, a.timeout))
                        results[key][kind].append(res)
                        if res["rc"] == "timeout":
                            timed_out.add(kind)
                            timeouts.append((key, kind))
                            log("bench: TIMEOUT %s %s np=%d (%s) after %g s"
                                % (kind, case, n, plat, a.timeout))
                        elif not res["ok"]:
                            failures.append((key, kind, res))
                            tail = "\n".join(res["out"].strip().splitlines()[-5:])
                            log("bench: FAILED %s %s np=%d (%s): rc=%s\n%s"
                                % (kind, case, n, plat, res["rc"], tail))
                        else:
                            log("bench: %-4s %-11s %-7s np=%-5d rep %d: wall %.3f s, rss %d KiB, "
                                "sim %.9g s" % (kind, case, plat, n, r, res["wall"], res["rss"],
                                               res["sim"]))


def print_tables(results, cases, plats, scales, sims, sg_note, timeout):
    have_sg = "sg" in sims
    print("# smpi vs SimGrid 3.32 — %s" % time.strftime("%Y-%m-%d %H:%M %Z"))
    print("# load: %s" % open("/proc/loadavg").read().split()[:3])
    if sg_note:
        print("# " + sg_note)
    print("# times in s, RSS in MiB, msg/s = messages per wall-second; cells: median (min–max);"
          " ratio = ours/SimGrid per repetition; loop = the simulation's own wall time as each"
          " simulator prints it (SimGrid: after parsing and platform setup)")
    for case in cases:
        print("\n## %s\n" % case)
        hdr = ["platform", "np", "msgs", "wall ours", "RSS ours", "sim ours", "msg/s ours"]
        if have_sg:
            hdr += ["wall SG", "RSS SG", "sim SG", "msg/s SG", "wall ratio", "loop ratio",
                    "RSS ratio", "sim rel. diff"]
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for plat in plats:
            for n in scales:
                res = results.get((case, plat, n))
                if res is None:
                    continue
                o = [x for x in res["ours"] if x["ok"]]
                msgs = o[0]["msgs"] if o else None
                row = [plat, str(n), str(msgs) if msgs is not None else "-"]

                def cols(rs):
                    ok = [x for x in rs if x["ok"]]
                    if not ok:
                        if any(x["rc"] == "timeout" for x in rs):
                            return ["> %g (timeout)" % timeout, "-", "-", "-"]
                        return ["FAILED"] * 4
                    return [fmt_ms(med_spread([x["wall"] for x in ok])),
                            fmt_ms(med_spread([x["rss"] / 1024 for x in ok])),
                            "%.6g" % statistics.median([x["sim"] for x in ok]),
                            fmt_ms(med_spread([x["msgs"] / x["wall"] for x in ok]))]
                row += cols(res["ours"])
                if have_sg:
                    row += cols(res["sg"])
                    pairs = [(a, b) for a, b in zip(res["ours"], res["sg"]) if a["ok"] and b["ok"]]
                    row.append(fmt_ms(med_spread([a["wall"] / b["wall"] for a, b in pairs])))
                    row.append(fmt_ms(med_spread([a["loop"] / b["loop"] for a, b in pairs
                                                  if a["loop"] and b["loop"]])))
                    row.append(fmt_ms(med_spread([a["rss"] / b["rss"] for a, b in pairs])))
                    rel = [(a["sim"] - b["sim"]) / b["sim"] for a, b in pairs if b["sim"] > 0]
                    row.append("%+.2g %%" % (100 * statistics.median(rel)) if rel else "-")
                print("| " + " | ".join(row) + " |")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
