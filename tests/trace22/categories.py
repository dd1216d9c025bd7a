#!/usr/bin/env python3
"""Checks the platform utilization per tracing category in smpi's Paje trace.

Usage: categories.py SMPIRUN CATEGORIES_PROGRAM DATA_DIR

Runs tests/trace22/categories.c on DATA_DIR/star3.xml (hosts A, B, C behind links LA, LB,
LC; A -> C and B -> C share LC) with -trace --cfg=tracing/categorized:yes
--cfg=tracing/uncategorized:yes and checks:

  1. the structure is SimGrid 3.32's (DATA_DIR/simgrid_categories.trace, recorded by
     tools/simgrid-ref/record_trace22.sh): the same HOST and LINK containers, the same
     variable types (speed, core_count, speed_used, bandwidth, latency, bandwidth_used, and
     p<category>/b<category> with the same colours, SimGrid's random ones included), the same
     fixed values;
  2. the values, analytically: the integral over time of b<category> on a link is the bytes
     that category sent through it, payload (1 MB + the 16-byte envelope) x 1.05 (the 5 %
     of cross traffic each flow adds on its reverse route, here the same links); of
     p<category> on a host the flops computed in it (1e8 on A, 2e8 on B, category "work");
     nothing elsewhere; bandwidth_used and speed_used hold at least the categorized amounts;
     on the shared link LC both categories get the same rate;
  3. SimGrid writes no per-category values for SMPI (3.32), but its uncategorized
     bandwidth_used on LA (crossed by one flow at a time) integrates to ours;
  4. smpirun -trace-resource gives the same trace (SimGrid's shortcut for both keys);
  5. the MPI part of the trace (states, links, rank containers) is the same with the
     categories off, and then no platform is written.
"""
import os
import shlex
import subprocess
import sys
import tempfile

PAYLOAD = 1000000 + 16
CROSS = 1.05


def parse(path):
    """container types, variable types, containers, fixed values, integrals, MPI lines"""
    ctypes, vtypes, conts = {"0": "root"}, {}, {"0": ("root", "root")}
    series, fixed, mpi = {}, {}, []
    for line in open(path):
        if line.startswith(("%", "#")) or not line.strip():
            continue
        f = shlex.split(line)
        ev = f[0]
        if ev == "0":
            ctypes[f[1]] = f[3]
        elif ev == "1":
            vtypes[f[1]] = (f[3], ctypes[f[2]], f[4])
        elif ev == "6":
            conts[f[2]] = (f[5], ctypes[f[3]])
            if ctypes[f[3]] == "MPI":
                mpi.append(("rank", f[5]))
        elif ev in ("8", "9", "10"):
            t, var, c, v = float(f[1]), vtypes[f[2]][0], conts[f[3]][0], float(f[4])
            s = series.setdefault((var, c), {"v": 0.0, "t": t, "int": 0.0})
            s["int"] += s["v"] * (t - s["t"])
            s["t"] = t
            if ev == "8":
                if t == 0:
                    fixed[(var, c)] = v
                s["v"] = v
            else:
                s["v"] += v if ev == "9" else -v
        elif ev in ("12", "13", "15", "16", "7") and not (ev == "7" and f[2] not in ("1",)):
            mpi.append(tuple(f))
    integ = {k: s["int"] for k, s in series.items()}
    return ctypes, vtypes, conts, fixed, integ, mpi


def run(smpirun, prog, data, out, extra):
    cmd = [smpirun, "-np", "3", "-platform", os.path.join(data, "star3.xml"), "-hostfile",
           os.path.join(data, "star3_hosts.txt"), "-trace", "-trace-file", out,
           "--cfg=tracing/precision:9", "--cfg=smpi/simulate-computation:no"] + extra + [prog]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL: %s\n%s" % (" ".join(cmd), p.stderr))
        sys.exit(1)


def main():
    smpirun, prog, data = sys.argv[1:4]
    bad = []

    def check(ok, what):
        print("%s %s" % ("ok  " if ok else "FAIL", what))
        if not ok:
            bad.append(what)

    def near(a, b, tol=1e-6):
        return abs(a - b) <= tol * max(abs(b), 1.0)

    tmp = tempfile.mkdtemp(prefix="trace22.")
    cat = os.path.join(tmp, "cat.trace")
    run(smpirun, prog, data, cat,
        ["--cfg=tracing/categorized:yes", "--cfg=tracing/uncategorized:yes"])
    _, vt, conts, fixed, integ, mpi = parse(cat)
    _, sg_vt, sg_conts, sg_fixed, sg_integ, _ = parse(os.path.join(data, "simgrid_categories.trace"))

    # 1. structure
    plat = lambda v: {x for x in v.values() if x[1] in ("HOST", "LINK")}
    check(plat(vt) == plat(sg_vt), "variable types as SimGrid's: %s" % sorted(plat(vt) ^ plat(sg_vt)))
    res = lambda c: {x for x in c.values() if x[1] in ("HOST", "LINK")}
    check(res(conts) == res(sg_conts), "containers as SimGrid's: %s" % sorted(res(conts) ^ res(sg_conts)))
    check(fixed.keys() == sg_fixed.keys() and all(near(fixed[k], sg_fixed[k], 1e-12) for k in fixed),
          "speed, core_count, bandwidth, latency as SimGrid's")

    # 2. analytic values
    def got(var, c):
        return integ.get((var, c), 0.0)
    want = {("bping", "LA"): PAYLOAD * CROSS, ("bping", "LC"): PAYLOAD * CROSS,
            ("bping", "LB"): 0, ("bpong", "LB"): PAYLOAD * CROSS,
            ("bpong", "LC"): PAYLOAD * CROSS, ("bpong", "LA"): 0,
            ("pwork", "A"): 1e8, ("pwork", "B"): 2e8, ("pwork", "C"): 0}
    for var in ("pping", "ppong"):
        for h in "ABC":
            want[(var, h)] = 0
    for l in ("LA", "LB", "LC"):
        want[("bwork", l)] = 0
    for (var, c), w in sorted(want.items()):
        check(near(got(var, c), w), "integral of %s on %s = %.6f (expected %.6f)" % (var, c, got(var, c), w))
    check(got("bandwidth_used", "LC") >= got("bping", "LC") + got("bpong", "LC") - 1e-3,
          "bandwidth_used on LC holds both categories")
    check(near(got("speed_used", "A"), 1e8) and near(got("speed_used", "B"), 2e8),
          "speed_used integrates to the flops computed")
    # the shared interval on LC: both categories at the same rate
    rates = {}
    for line in open(cat):
        f = line.split()
        if len(f) == 5 and f[0] == "9":
            name, c = vt[f[2]][0], conts[f[3]][0]
            if c == "LC" and name in ("bping", "bpong"):
                rates.setdefault(f[1], {})[name] = float(f[4])
    shared = [r for r in rates.values() if len(r) == 2]
    check(shared and all(near(r["bping"], r["bpong"], 1e-12) for r in shared),
          "on LC, ping and pong share the link equally (%d intervals)" % len(shared))

    # 3. SimGrid's uncategorized values where it counts each flow once
    check(near(got("bandwidth_used", "LA"), sg_integ.get(("bandwidth_used", "LA"), -1), 1e-6),
          "bandwidth_used on LA integrates as SimGrid's (%.3f, SimGrid %.3f)"
          % (got("bandwidth_used", "LA"), sg_integ.get(("bandwidth_used", "LA"), -1)))

    # smpirun -trace-resource is SimGrid's shortcut for both keys
    res = os.path.join(tmp, "res.trace")
    run(smpirun, prog, data, res, ["-trace-resource"])
    check(open(res).read() == open(cat).read(), "-trace-resource gives the same trace")

    # 4. categories off: no platform, same MPI trace
    plain = os.path.join(tmp, "plain.trace")
    run(smpirun, prog, data, plain, [])
    p_ct, _, _, _, p_integ, p_mpi = parse(plain)
    check("LINK" not in p_ct.values() and "HOST" not in p_ct.values() and not p_integ,
          "without categorized/uncategorized: no platform in the trace")
    check(p_mpi == mpi, "the MPI part of the trace is the same with categories on and off")
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)
    print("%d failure(s)" % len(bad) if bad else "all checks passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
