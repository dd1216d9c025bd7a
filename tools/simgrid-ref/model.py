#!/usr/bin/env python3
"""Replay every reference file of tests/data/simgrid-ref/ with an independent restatement of
the timing model, and report the worst relative error per file.

This is an executable summary of what the references show SimGrid 3.32 does (written from
the recorded numbers, not from SimGrid's code). If a file does not match, either the model
below misses a behaviour or SimGrid changed; the references themselves stay what SimGrid
printed.

Model (one comm = one flow):
  * latency phase: forward route latency x lat_factor(size), no bandwidth taken;
  * then a max-min flow: every link of the forward route consumes 1.0 x rate, every link of
    the reverse route 0.05 x rate when network/crosstraffic is on (a SHARED link sums the
    consumptions of one flow, a FATPIPE link takes their max); sharing is weighted: a flow's
    rate is x / penalty on its bottleneck, penalty = route latency + sum(weight_S / bw);
    each flow's rate is bounded by TCP_gamma / (2 x route latency) (raw latency, no factor);
  * progress speed = rate x bw_factor(size) (the flow keeps its whole share);
  * factors: value of the largest threshold strictly below size, 1.0 if none.
  Executions: one variable per exec, penalty 1, bounded by one core's speed, the host's
  constraint is speed x cores.
  MPI ping-pong: payload = size + 16; one-way = os(size) + net(payload) + or(size) below
  smpi/send-is-detached-thresh (65536), net(payload) at or above; plus smpi/wtime / 6 (one
  MPI_Wtime injection lands inside the 3-iteration measured interval).
  Cluster quirk: <cluster sharing_policy="FATPIPE"> yields SHARED private links in 3.32.

Usage: tools/simgrid-ref/model.py [--tol REL] [FILE...]
Default files: the actor-level and ping-pong references (net_*, cpu_*, pingpong_*,
lazybug_*; the coll_* files are collective timings, compared by tests/mpi/coll_timing_ref.py).
Exit status 1 if some file exceeds the tolerance (default 1e-9), or if a file listed in
SIMGRID_WRONG (SimGrid's answer is not the max-min allocation) suddenly matches.
"""
import glob
import math
import os
import re
import shlex
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "tests", "data", "simgrid-ref")

DEFAULT_BW = ("65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
              "1426:0.608902;732:0.341987;257:0.338112;0:0.812084")
DEFAULT_LAT = ("65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;"
               "1426:1.61075;732:1.9503;257:1.95341;0:2.01467")
TCP_GAMMA = 4194304.0
# files where SimGrid's default configuration departs from its own model: the model (exact
# max-min) must disagree with them, else the note is stale
SIMGRID_WRONG = {
    "lazybug_c16fastbb_smpi.txt": "network/optim:Lazy overloads node-0's DOWN link in "
                                  "scenario 0 (the _full file is the max-min answer)",
}


# ----------------------------------------------------------------------------- units
def parse_value(text, unit_re):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([A-Za-z]*)\s*", text)
    if not m:
        raise ValueError("bad value " + text)
    return float(m.group(1)) * unit_re[m.group(2)]


BW_UNITS = {"Bps": 1, "kBps": 1e3, "KBps": 1e3, "MBps": 1e6, "GBps": 1e9, "TBps": 1e12,
            "bps": 1 / 8, "kbps": 1e3 / 8, "Kbps": 1e3 / 8, "Mbps": 1e6 / 8, "Gbps": 1e9 / 8,
            "Tbps": 1e12 / 8, "": 1}
LAT_UNITS = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12, "": 1}
SPEED_UNITS = {"f": 1, "kf": 1e3, "Mf": 1e6, "Gf": 1e9, "Tf": 1e12, "": 1}


# ----------------------------------------------------------------------------- platform
class Link:
    def __init__(self, name, bw, lat, fatpipe):
        self.name, self.bw, self.lat, self.fatpipe = name, bw, lat, fatpipe


class Platform:
    def __init__(self, path):
        self.links, self.routes, self.hosts = {}, {}, {}  # hosts: name -> (speed, cores)
        root = ET.parse(path).getroot()
        for el in root.iter():
            if el.tag == "cluster":
                self._cluster(el)
            elif el.tag == "zone":
                self._full(el)

    def _cluster(self, el):
        a = el.attrib
        cid = a["id"]
        ids = []
        for part in a["radical"].split(","):
            lo, _, hi = part.partition("-")
            ids += list(range(int(lo), int(hi or lo) + 1))
        bw, lat = parse_value(a["bw"], BW_UNITS), parse_value(a["lat"], LAT_UNITS)
        split = a.get("sharing_policy", "SPLITDUPLEX") == "SPLITDUPLEX"
        # SimGrid 3.32 turns a cluster's FATPIPE private links into SHARED ones.
        names = {}
        for i in ids:
            h = a["prefix"] + str(i) + a["suffix"]
            self.hosts[h] = (parse_value(a["speed"], SPEED_UNITS), int(a.get("core", "1")))
            if split:
                up = Link(f"{cid}_link_{i}_UP", bw, lat, False)
                down = Link(f"{cid}_link_{i}_DOWN", bw, lat, False)
            else:
                up = down = Link(f"{cid}_link_{i}", bw, lat, False)
            names[h] = (up, down)
        bb = None
        if "bb_bw" in a:
            bb = Link(cid + "_backbone", parse_value(a["bb_bw"], BW_UNITS), parse_value(a["bb_lat"], LAT_UNITS),
                      a.get("bb_sharing_policy", "SHARED") == "FATPIPE")
        for s in names:
            for d in names:
                if s != d:
                    self.routes[(s, d)] = [names[s][0]] + ([bb] if bb else []) + [names[d][1]]

    def _full(self, el):
        for h in el.findall("host"):
            self.hosts[h.attrib["id"]] = (parse_value(h.attrib["speed"], SPEED_UNITS),
                                          int(h.attrib.get("core", "1")))
        for l in el.findall("link"):
            a = l.attrib
            self.links[a["id"]] = Link(a["id"], parse_value(a["bandwidth"], BW_UNITS),
                                       parse_value(a.get("latency", "0"), LAT_UNITS),
                                       a.get("sharing_policy", "SHARED") == "FATPIPE")
        for r in el.findall("route"):
            path = [self.links[c.attrib["id"]] for c in r.findall("link_ctn")]
            s, d = r.attrib["src"], r.attrib["dst"]
            self.routes[(s, d)] = path
            if r.attrib.get("symmetrical", "YES").upper() == "YES":
                self.routes[(d, s)] = list(reversed(path))


# ----------------------------------------------------------------------------- config
def piecewise(spec):
    secs = []
    for part in spec.split(";"):
        f = [float(x) for x in part.split(":")]
        secs.append(f)
    return secs


def factor(secs, size):
    best = None
    for s in secs:
        if s[0] < size and (best is None or s[0] > best[0]):
            best = s
    return 1.0 if best is None else best[1]


def overhead(secs, size):
    best = None
    for s in secs:
        if s[0] < size and (best is None or s[0] > best[0]):
            best = s
    if best is None:
        best = min(secs, key=lambda s: s[0])
    return best[1] + best[2] * size


class Config:
    def __init__(self, cfg):
        model = cfg.get("network/model", "LV08")
        self.cross = cfg.get("network/crosstraffic", "1") not in ("0", "no", "false")
        if model == "SMPI":
            bw, lat = piecewise(cfg.get("smpi/bw-factor", DEFAULT_BW)), piecewise(cfg.get("smpi/lat-factor", DEFAULT_LAT))
            self.bwf, self.latf, self.weight_s = (lambda s: factor(bw, s)), (lambda s: factor(lat, s)), 8775.0
        elif model == "CM02":
            self.bwf, self.latf, self.weight_s = (lambda s: 1.0), (lambda s: 1.0), 0.0
        elif model == "LV08":
            self.bwf, self.latf, self.weight_s = (lambda s: 0.97), (lambda s: 13.01), 20537.0
        else:
            raise ValueError("model " + model)
        self.os = piecewise(cfg.get("smpi/os", "0:0:0"))
        self.orr = piecewise(cfg.get("smpi/or", "0:0:0"))
        self.wtime = float(cfg.get("smpi/wtime", "1e-8"))
        self.detached = float(cfg.get("smpi/send-is-detached-thresh", "65536"))


# ----------------------------------------------------------------------------- max-min
def maxmin(variables, constraints):
    """variables: {v: (penalty, bound)}; constraints: list of (capacity, fatpipe, {v: coeff}).
    Weighted progressive filling: on its bottleneck a variable gets x / penalty."""
    rate, free = {}, set(variables)
    while free:
        best, fix = math.inf, None
        for cap, fat, use in constraints:
            live = [v for v in use if v in free]
            if not live:
                continue
            if fat:
                for v in live:
                    x = cap / use[v] * variables[v][0]
                    if x < best:
                        best, fix = x, [v]
            else:
                rest = cap - sum(use[v] * rate[v] for v in use if v in rate)
                x = max(rest, 0.0) / sum(use[v] / variables[v][0] for v in live)
                if x < best:
                    best, fix = x, live
        for v in free:
            x = variables[v][1] * variables[v][0]
            if x < best:
                best, fix = x, [v]
        for v in fix:
            rate[v] = best / variables[v][0]
            free.discard(v)
    return rate


def simulate_flows(plat, conf, flows):
    """flows: list of (src, dst, size, start). Returns completion dates."""
    n = len(flows)
    done = [None] * n
    lat_end, remaining, var = [0.0] * n, [0.0] * n, {}
    routes, backs = [], []
    for i, (s, d, size, start) in enumerate(flows):
        r = plat.routes[(s, d)]
        routes.append(r)
        backs.append(plat.routes.get((d, s), []) if conf.cross else [])
        lat = sum(l.lat for l in r)
        lat_end[i] = start + lat * conf.latf(size)
        remaining[i] = size
        penalty = lat + sum(conf.weight_s / l.bw for l in r)
        bound = min([l.bw for l in r] + ([TCP_GAMMA / (2 * lat)] if lat > 0 else []))
        var[i] = (penalty if penalty > 0 else 1.0, bound)
    t = 0.0
    while any(x is None for x in done):
        active = [i for i in range(n) if done[i] is None and lat_end[i] <= t]
        cons = {}
        for i in active:
            for l, c in [(l, 1.0) for l in routes[i]] + [(l, 0.05) for l in backs[i]]:
                cap, fat, use = cons.setdefault(l.name, (l.bw, l.fatpipe, {}))
                use[i] = max(use.get(i, 0.0), c) if fat else use.get(i, 0.0) + c
        rates = maxmin({i: var[i] for i in active}, list(cons.values()))
        speed = {i: rates[i] * conf.bwf(flows[i][2]) for i in active}
        finish = {i: t + remaining[i] / speed[i] for i in active}
        nxt = min([lat_end[i] for i in range(n) if done[i] is None and lat_end[i] > t] + list(finish.values()))
        for i in active:
            remaining[i] -= speed[i] * (nxt - t)
            if finish[i] <= nxt * (1 + 1e-15):
                done[i] = nxt
        t = nxt
    return done


def simulate_execs(plat, execs):
    n = len(execs)
    done, remaining = [None] * n, [x[1] for x in execs]
    t = 0.0
    while any(x is None for x in done):
        active = [i for i in range(n) if done[i] is None and execs[i][2] <= t]
        cons = {}
        for i in active:
            speed, cores = plat.hosts[execs[i][0]]
            cons.setdefault(execs[i][0], (speed * cores, False, {}))[2][i] = 1.0
        rates = maxmin({i: (1.0, plat.hosts[execs[i][0]][0]) for i in active}, list(cons.values()))
        finish = {i: t + remaining[i] / rates[i] for i in active}
        nxt = min([execs[i][2] for i in range(n) if done[i] is None and execs[i][2] > t] + list(finish.values()))
        for i in active:
            remaining[i] -= rates[i] * (nxt - t)
            if finish[i] <= nxt * (1 + 1e-15):
                done[i] = nxt
        t = nxt
    return done


# ----------------------------------------------------------------------------- files
def read_ref(path):
    cmd, rows = None, []
    with open(path) as f:
        for line in f:
            if line.startswith("# command: "):
                cmd = shlex.split(line[len("# command: "):])
            elif not line.startswith("#") and line.strip():
                rows.append(line.split())
    return cmd, rows


def cfg_of(cmd):
    cfg = {}
    for a in cmd:
        if a.startswith("--cfg="):
            k, _, v = a[len("--cfg="):].partition(":")
            cfg[k] = v
    return cfg


def check_file(path):
    cmd, rows = read_ref(path)
    cfg = cfg_of(cmd)
    if cmd[0] == "smpirun":  # what smpirun adds to the command line
        cfg = {"network/model": "SMPI", "surf/precision": "1e-9", **cfg}
    conf = Config(cfg)
    worst = 0.0
    pairs = []  # (expected from model, recorded)
    if cmd[0] == "netref":
        pos = [a for a in cmd[1:] if not a.startswith("--")]
        plat = Platform(os.path.join(ROOT, pos[0]))
        mode = pos[1]
        if mode == "pair":
            src, dst = pos[2], pos[3]
            for size, date in rows:
                (t,) = simulate_flows(plat, conf, [(src, dst, float(size), 0.0)])
                pairs.append((t, float(date)))
        elif mode == "flows":
            for k, scen in enumerate(pos[2:]):
                fl = []
                for f in scen.split("+"):
                    p = f.split(",")
                    fl.append((p[0], p[1], float(p[2]), float(p[3]) if len(p) > 3 else 0.0))
                got = simulate_flows(plat, conf, fl)
                for r in rows:
                    if int(r[0]) == k:
                        pairs.append((got[int(r[1])], float(r[6])))
        elif mode == "exec":
            for k, scen in enumerate(pos[2:]):
                ex = []
                for e in scen.split("+"):
                    p = e.split(",")
                    ex.append((p[0], float(p[1]), float(p[2]) if len(p) > 2 else 0.0))
                got = simulate_execs(plat, ex)
                for r in rows:
                    if int(r[0]) == k:
                        pairs.append((got[int(r[1])], float(r[5])))
    else:  # smpirun ... pingpong
        plat = Platform(os.path.join(ROOT, cmd[cmd.index("-platform") + 1]))
        hosts = list(plat.hosts)  # smpirun maps rank r to the r-th host in platform order
        for _, size, oneway in rows:
            n = float(size)
            (net,) = simulate_flows(plat, conf, [(hosts[0], hosts[1], n + 16, 0.0)])
            t = net if n >= conf.detached else overhead(conf.os, n) + net + overhead(conf.orr, n)
            pairs.append((t + conf.wtime / 6.0, float(oneway)))
    for model, recorded in pairs:
        worst = max(worst, abs(model - recorded) / abs(recorded) if recorded else abs(model))
    return worst, len(pairs)


def main(argv):
    tol = 1e-9
    files = []
    it = iter(argv)
    for a in it:
        if a == "--tol":
            tol = float(next(it))
        else:
            files.append(a)
    if not files:
        for pattern in ("net_*.txt", "cpu_*.txt", "pingpong_*.txt", "lazybug_*.txt"):
            files += glob.glob(os.path.join(REF, pattern))
        files.sort()
    bad = 0
    for f in files:
        worst, n = check_file(f)
        wrong = SIMGRID_WRONG.get(os.path.basename(f))
        if wrong:
            flag = "SG " if worst > tol else "BAD"
            bad += worst <= tol
        else:
            flag = "ok " if worst <= tol else "BAD"
            bad += worst > tol
        print(f"{flag} {worst:9.2e} {n:4d} values  {os.path.relpath(f, ROOT)}"
              + (f"  (SimGrid wrong here: {wrong})" if wrong and worst > tol else ""))
    print(f"model.py: {len(files) - bad}/{len(files)} files within {tol:g} relative")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
