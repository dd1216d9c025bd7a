#!/usr/bin/env python3
"""Checks the traces and the profile of trace_prog.c (4 ranks) against what it does.

usage: trace_check.py SMPIRUN PROG paje|grouped|json|ti|profile
       trace_check.py SMPIRUN TI_CALLS simgrid DATA_DIR

paje     pj_dump (Debian pajeng) parses the Paje trace; its states and links are the
         program's calls and messages (exit 77 when pj_dump is missing: skipped)
grouped  the same with -trace-grouped and display sizes: host containers, sizes on links
json     the Chrome trace-event JSON parses; one track per rank, slices, matching flows
ti       the time-independent trace has SimGrid's layout and exactly the expected lines
profile  the profile's CSV has the expected calls, messages, bytes and size histograms
simgrid  tests/data/trace/ti_calls.c recorded by us gives the lines SimGrid 3.32 recorded
         (tests/data/trace/simgrid_ti/), but for the measured compute amounts
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

SMPIRUN, PROG, MODE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
NP = 4
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(tmp, *args, prog_args=("--compute",)):
    cmd = [SMPIRUN, "-np", str(NP)] + list(args) + [PROG] + list(prog_args)
    p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=120)
    if p.returncode != 0 or ("trace_prog: OK" not in p.stdout and prog_args):
        print(" ".join(cmd))
        print(p.stdout, p.stderr)
        sys.exit("the program failed")
    return p


# user messages: (src, dst, tag, bytes)
MESSAGES = [(0, 1, 7, 800), (1, 0, 8, 8000)]
MESSAGES += [(r, (r + 1) % NP, 3, 40) for r in range(NP)]
MESSAGES += [(r, (r + 1) % NP, 9, 8) for r in range(NP)]
MESSAGES += [(r, (r + 1) % NP, 11, 4) for r in range(NP)]


def calls_of(rank):
    c = ["MPI_Init", "MPI_Comm_rank", "MPI_Comm_size"]
    c += {0: ["MPI_Send", "MPI_Recv"], 1: ["MPI_Recv", "MPI_Send"]}.get(rank, [])
    c += ["MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Bcast", "MPI_Barrier",
          "MPI_Allreduce", "MPI_Sendrecv", "MPI_Irecv", "MPI_Send", "MPI_Wait",
          "MPI_Allreduce", "MPI_Finalize"]
    return c


def paje(grouped):
    if not shutil.which("pj_dump"):
        print("pj_dump not found (apt-get install pajeng): skipped")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        extra = ["-trace-grouped", "--cfg=tracing/smpi/display-sizes:yes"] if grouped else []
        run(tmp, "-trace", "-trace-file", "t.trace", *extra)
        p = subprocess.run(["pj_dump", "t.trace"], cwd=tmp, capture_output=True, text=True)
        check(p.returncode == 0 and "rror" not in p.stderr + p.stdout,
              "pj_dump failed: %s" % (p.stderr + p.stdout)[-2000:])
        with open(os.path.join(tmp, "t.trace")) as f:
            raw = f.read()
    rows = [[x.strip() for x in line.split(",")] for line in p.stdout.splitlines()]
    containers = {r[6]: r for r in rows if r[0] == "Container"}
    for rank in range(NP):
        check("rank-%d" % rank in containers, "container rank-%d" % rank)
        if grouped:
            host = containers.get("rank-%d" % rank, [""] * 7)[1]
            check(containers.get(host, [""] * 7)[2] == "HOST",
                  "rank-%d is inside a host container (%s)" % (rank, host))
    for rank in range(NP):
        states = [r for r in rows if r[0] == "State" and r[1] == "rank-%d" % rank]
        calls = [r[7] for r in states if r[7] != "computing"]
        check(calls == ["P" + c for c in calls_of(rank)],
              "rank %d states %s" % (rank, calls))
        comp = [float(r[5]) for r in states if r[7] == "computing"]
        # 1e6 flops on a 1 Gflop/s host: 1 ms (the other bursts are microseconds)
        check(any(abs(d - 1e-3) < 1e-5 for d in comp),
              "rank %d: a 1 ms computing state among %s" % (rank, comp))
        for r in states:
            check(float(r[3]) <= float(r[4]), "state %s ends before it starts" % r)
    links = [r for r in rows if r[0] == "Link"]
    got = sorted((int(r[7][5:]), int(r[8][5:]), int(r[9].split("_")[2])) for r in links)
    want = sorted((s, d, t) for s, d, t, _ in MESSAGES)
    check(got == want, "links %s, expected %s" % (got, want))
    for r in links:
        check(float(r[3]) <= float(r[4]), "link %s ends before it starts" % r)
    if grouped:
        # the Size field of the link starts: bytes of each message
        sizes = sorted((int(l.split()[5]), int(l.split()[6].split("_")[2]), int(l.split()[7]))
                       for l in raw.splitlines() if l.startswith("15 "))
        check(sizes == sorted((s + 1, t, b) for s, d, t, b in MESSAGES),
              "link sizes %s" % sizes)
        send_sizes = [l.split()[5] for l in raw.splitlines() if l.startswith("12 ")]
        check("100" in send_sizes and "1000" in send_sizes, "state sizes of the sends")


def chrome_json():
    with tempfile.TemporaryDirectory() as tmp:
        run(tmp, "-trace", "--cfg=tracing/format:json")
        with open(os.path.join(tmp, "smpi_simgrid.json")) as f:
            d = json.load(f)
    ev = d["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    check(sorted(names) == list(range(NP)), "one named track per rank: %s" % names)
    for rank in range(NP):
        xs = sorted((e for e in ev if e["ph"] == "X" and e["tid"] == rank), key=lambda e: e["ts"])
        calls = [e["name"] for e in xs if e["cat"] == "MPI"]
        check(calls == calls_of(rank), "rank %d slices %s" % (rank, calls))
        comp = [e["dur"] for e in xs if e["name"] == "computation"]
        check(any(abs(d - 1000) < 0.01 for d in comp), "rank %d: a 1000 us computation" % rank)
        for a, b in zip(xs, xs[1:]):
            check(a["ts"] + a["dur"] <= b["ts"] + 1e-3, "slices overlap: %s %s" % (a, b))
    starts = {e["id"]: e for e in ev if e["ph"] == "s"}
    ends = {e["id"]: e for e in ev if e["ph"] == "f"}
    check(sorted(starts) == sorted(ends), "every flow has both ends")
    got = sorted((s["tid"], ends[i]["tid"], s["args"]["tag"], s["args"]["bytes"])
                 for i, s in starts.items() if i in ends)
    check(got == sorted(MESSAGES), "flows %s" % got)
    for i, s in starts.items():
        if i in ends:
            check(ends[i]["ts"] >= s["ts"], "flow %d arrives before it leaves" % i)


def ti():
    with tempfile.TemporaryDirectory() as tmp:
        run(tmp, "-trace-ti")
        with open(os.path.join(tmp, "smpi_simgrid.txt")) as f:
            files = f.read().split()
        check(len(files) == NP, "main file lists %d files" % len(files))
        for rank, path in enumerate(files):
            check(path.startswith("smpi_simgrid.txt_files/") and
                  path.endswith("_rank-%d.txt" % (rank + 1)), "file name %s" % path)
            with open(os.path.join(tmp, path)) as f:
                lines = f.read().splitlines()
            check(all(l.startswith("%d " % rank) for l in lines), "rank %d prefixes" % rank)
            check("%d compute 1e+06" % rank in lines, "rank %d: compute 1e+06" % rank)
            comp = [l for l in lines if " compute " in l]
            for l in comp:
                check(float(l.split()[2]) > 0, "positive flops: %s" % l)
            got = [l for l in lines if " compute " not in l]
            r, right, left = rank, (rank + 1) % NP, (rank + NP - 1) % NP
            want = ["init"]
            want += {0: ["send 1 7 100 0", "recv 1 8 1000 0"],
                     1: ["recv 0 7 100 0", "send 0 8 1000 0"]}.get(rank, [])
            want += ["isend %d 3 10 1" % right, "irecv %d 3 10 1" % left, "waitall 2",
                     "bcast 50 0 0 ", "barrier", "allreduce 1 0 0 ",
                     "sendRecv 2 %d 2 %d 1 1" % (right, left), "irecv -333 11 1 1",
                     "send %d 11 1 1" % right, "wait -333 %d 11" % rank, "allreduce 1 0 1 ",
                     "finalize"]
            want = ["%d %s" % (r, w) for w in want]
            check(got == want, "rank %d TI lines:\n  %s\nexpected\n  %s" %
                  (rank, "\n  ".join(got), "\n  ".join(want)))


def profile():
    with tempfile.TemporaryDirectory() as tmp:
        p = run(tmp, "--cfg=smpi/profile:yes", "--cfg=smpi/profile-file:p.csv")
        with open(os.path.join(tmp, "p.csv")) as f:
            rows = list(csv.DictReader(f))
    check("@ smpi profile: 4 ranks" in p.stderr, "profile header on stderr")
    check("MPI_Send" in p.stderr and "512 - 1023" in p.stderr, "call table and histogram")
    by = {(int(r["rank"]), r["call"]): r for r in rows}

    def row(rank, call):
        return by.get((rank, call), {"calls": "0", "messages": "0", "bytes_sent": "0",
                                     "size_histogram": "", "time_s": "0"})
    r = row(0, "MPI_Send")
    check((r["calls"], r["messages"], r["bytes_sent"]) == ("2", "2", "804"),
          "rank 0 MPI_Send %s" % r)
    check(r["size_histogram"] == "4-7:1;512-1023:1", "rank 0 MPI_Send histogram %s" % r)
    r = row(1, "MPI_Send")
    check((r["calls"], r["messages"], r["bytes_sent"]) == ("2", "2", "8004"),
          "rank 1 MPI_Send %s" % r)
    check(r["size_histogram"] == "4-7:1;4096-8191:1", "rank 1 MPI_Send histogram %s" % r)
    for rank in range(NP):
        r = row(rank, "MPI_Isend")
        check((r["calls"], r["messages"], r["bytes_sent"], r["size_histogram"]) ==
              ("1", "1", "40", "32-63:1"), "rank %d MPI_Isend %s" % (rank, r))
        r = row(rank, "MPI_Sendrecv")
        check((r["calls"], r["messages"], r["bytes_sent"]) == ("1", "1", "8"),
              "rank %d MPI_Sendrecv %s" % (rank, r))
        check(row(rank, "MPI_Allreduce")["calls"] == "2", "rank %d two Allreduce" % rank)
        check(row(rank, "MPI_Irecv")["calls"] == "2", "rank %d two Irecv" % rank)
        check(int(row(rank, "MPI_Barrier")["messages"]) > 0, "rank %d barrier messages" % rank)
        comp = float(row(rank, "(computation)")["time_s"])
        app = float(row(rank, "(app)")["time_s"])
        mpi = sum(float(x["time_s"]) for (rk, c), x in by.items()
                  if rk == rank and c.startswith("MPI_"))
        check(1e-3 <= comp < 1.5e-3, "rank %d computation %g s" % (rank, comp))
        check(abs(app - comp - mpi) <= 1e-9 + 1e-6 * app,
              "rank %d: app %g = computation %g + MPI %g" % (rank, app, comp, mpi))
    bcast0 = row(0, "MPI_Bcast")
    check(int(bcast0["messages"]) >= 1 and bcast0["size_histogram"].startswith("256-511:"),
          "rank 0 Bcast sends 400-byte messages: %s" % bcast0)


def simgrid():
    data = os.path.abspath(sys.argv[4])
    plat = os.path.join(data, "..", "simgrid-ref", "platforms", "cluster16.xml")
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "hosts"), "w") as f:
            f.write("".join("node-%d\n" % i for i in range(NP)))
        run(tmp, "-platform", plat, "-hostfile", "hosts", "-trace-ti", prog_args=())
        with open(os.path.join(tmp, "smpi_simgrid.txt")) as f:
            files = f.read().split()
        for rank, path in enumerate(files):
            with open(os.path.join(tmp, path)) as f:
                got = [l for l in f.read().splitlines() if " compute " not in l]
            with open(os.path.join(data, "simgrid_ti", "rank-%d.txt" % (rank + 1))) as f:
                want = f.read().splitlines()
            check(got == want, "rank %d: ours\n  %s\nSimGrid 3.32\n  %s" %
                  (rank, "\n  ".join(got), "\n  ".join(want)))


{"simgrid": simgrid, "paje": lambda: paje(False), "grouped": lambda: paje(True), "json": chrome_json, "ti": ti,
 "profile": profile}[MODE]()
if failures:
    sys.exit("%d check(s) failed" % len(failures))
print("trace_check %s: OK" % MODE)
