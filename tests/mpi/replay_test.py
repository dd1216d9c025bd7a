#!/usr/bin/env python3
"""Replay of time-independent traces (docs/replay.md), against SimGrid 3.32.

  replay_test.py simgrid SMPIRUN DATA_DIR
      (a) every trace of DATA_DIR/simgrid_times.txt (recorded by SimGrid, see
          tools/simgrid-ref/record_ti.sh) replays with our smpirun -replay to the date
          SimGrid's own replay gives it, within 0.1 %, on cluster16.xml and on the same
          cluster with doubled bandwidth;
      (c) doubling the bandwidth halves the pure-bandwidth trace (bw.txt): ratio in
          [0.5, 0.502] (0.5 plus half the latency share), and shortens the stencil;
      the one-file layout replays like the per-rank files; malformed lines and wrong
      ranks are reported as FILE:LINE with a non-zero exit.
  replay_test.py own SMPIRUN DATA_DIR PROG...
      (b) each program run under our smpirun with -trace-ti records a trace that replays
          to the program's own simulated time within 0.1 % (exit 77 = skipped when
          smpirun has no -trace-ti yet); ti_shift's peers MPI_PROC_NULL replay as no-ops
          (see proc_null_mode).
"""
import os
import re
import subprocess
import sys
import tempfile

TOL = 1e-3
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def sim_time(stderr):
    m = re.search(r"simulated time: ([0-9.eE+-]+) s", stderr)
    return float(m.group(1)) if m else None


def run(smpirun, args, cwd=None):
    p = subprocess.run([smpirun, "--cfg=smpi/display-timing:yes"] + args, cwd=cwd,
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def platform(data, name):
    if name == "cluster16.xml":
        return os.path.join(data, "..", "simgrid-ref", "platforms", name)
    return os.path.join(data, name)


def replay(smpirun, data, trace, np, plat):
    rc, out, err = run(smpirun, ["-np", str(np), "-platform", platform(data, plat),
                                 "-replay", os.path.join(data, trace + ".txt")])
    t = sim_time(err)
    if rc != 0 or t is None:
        print(err)
    return t


def simgrid_mode(smpirun, data):
    times = {}
    with open(os.path.join(data, "simgrid_times.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            trace, np, plat, _app, ref = line.split()
            t = replay(smpirun, data, trace, int(np), plat)
            times[(trace, plat)] = t
            check(t is not None and abs(t - float(ref)) <= TOL * float(ref),
                  "(a) %s -np %s on %s: ours %s, SimGrid's replay %s" % (trace, np, plat, t, ref))

    t1, t2 = times.get(("bw", "cluster16.xml")), times.get(("bw", "cluster16_2xbw.xml"))
    # T = L + X (latency phases L, transfers X): doubling the bandwidth gives L + X / 2, so
    # the ratio is 0.5 plus half the latency share, which is ~0.2 % for 16 MiB messages
    check(t1 and t2 and 0.5 <= t2 / t1 <= 0.502,
          "(c) pure bandwidth, 2x bandwidth: %s -> %s (ratio %.6f; latency share %.3f %%)"
          % (t1, t2, t2 / t1 if t1 and t2 else float("nan"),
             100 * (2 * t2 - t1) / t1 if t1 and t2 else float("nan")))
    s1, s2 = times.get(("ti_stencil", "cluster16.xml")), times.get(("ti_stencil", "cluster16_2xbw.xml"))
    check(s1 and s2 and s2 < s1, "(c) stencil gets faster with 2x bandwidth: %s -> %s" % (s1, s2))

    with tempfile.TemporaryDirectory() as tmp:
        # the same ring, all ranks' lines in one file (interleaved round-robin)
        files = [os.path.join(data, "ti_ring_files", "rank-%d.txt" % r) for r in range(8)]
        lines = [open(f).read().splitlines() for f in files]
        one = os.path.join(tmp, "one.txt")
        with open(one, "w") as f:
            f.write("# every rank in one file\n")
            for k in range(max(map(len, lines))):
                for ls in lines:
                    if k < len(ls):
                        f.write(ls[k] + "\n")
        rc, _, err = run(smpirun, ["-np", "8", "-platform", platform(data, "cluster16.xml"),
                                   "-replay", one])
        ref = times.get(("ti_ring", "cluster16.xml"))
        check(rc == 0 and sim_time(err) == ref,
              "one-file layout replays like per-rank files: %s vs %s" % (sim_time(err), ref))
        # SimGrid's ti-one-file layout: a list naming that one file
        lst = os.path.join(tmp, "onelist.txt")
        with open(lst, "w") as f:
            f.write("one.txt\n")
        rc, _, err = run(smpirun, ["-np", "8", "-platform", platform(data, "cluster16.xml"),
                                   "-replay", lst])
        check(rc == 0 and sim_time(err) == ref,
              "a list naming one file of every rank's lines: %s vs %s" % (sim_time(err), ref))

        # malformed lines: the message names the file and the line
        bad_cases = [
            ("1 init\n1 send 0 0 abc 6\n", "expected an integer"),
            ("1 init\n\n1 bcast 10\n", "missing root"),
            ("1 init\n1 frobnicate 3\n", "unknown action 'frobnicate'"),
            ("1 init\n1 send 7 0 10 6\n", "destination 7 is not a rank"),
            ("1 init\n1 compute -5\n", "not a finite non-negative number"),
            ("1 init\n1 recv 0 0 10 99\n", "99 is not a SimGrid datatype id"),
            ("1 init\n1 gatherv 1 1\n", "expected 2 counts"),
        ]
        for k, (body, msg) in enumerate(bad_cases):
            r0 = os.path.join(tmp, "bad%d_r0.txt" % k)
            r1 = os.path.join(tmp, "bad%d_r1.txt" % k)
            with open(r0, "w") as f:
                f.write("0 init\n0 barrier\n")
            with open(r1, "w") as f:
                f.write(body)
            lst = os.path.join(tmp, "bad%d.txt" % k)
            with open(lst, "w") as f:
                f.write(r0 + "\n" + r1 + "\n")
            rc, _, err = run(smpirun, ["-np", "2", "-replay", lst])
            line = body.count("\n")
            want = "%s:%d: " % (r1, line)
            check(rc != 0 and want in err and msg in err,
                  "malformed line %d of case %d reported as %s...%s (got: %s)"
                  % (line, k, want, msg, err.strip().splitlines()[-1:] if err.strip() else ""))
        lst = os.path.join(tmp, "short.txt")
        with open(lst, "w") as f:
            for r in range(2):
                f.write(os.path.join(data, "ti_ring_files", "rank-%d.txt" % r) + "\n")
        rc, _, err = run(smpirun, ["-np", "3", "-replay", lst])
        check(rc != 0 and "fewer than the 3 ranks" in err, "a list shorter than -np is refused")


def own_mode(smpirun, data, progs):
    rc, out, _ = run(smpirun, ["-help"])
    if "-trace-ti" not in out:
        print("smpirun has no -trace-ti yet: skipped")
        sys.exit(77)
    nps = {"ti_pingpong": 2, "ti_ring": 8, "ti_stencil": 8, "ti_shift": 6}
    plat = platform(data, "cluster16.xml")
    with tempfile.TemporaryDirectory() as tmp:
        for prog in progs:
            name = os.path.basename(prog)
            np = nps.get(name, 4)
            trace = os.path.join(tmp, name + ".txt")
            rc, _, err = run(smpirun, ["-np", str(np), "-platform", plat, "-trace-ti",
                                       "--cfg=tracing/filename:" + trace,
                                       "--cfg=smpi/simulate-computation:no", prog])
            t_app = sim_time(err)
            check(rc == 0 and t_app is not None and os.path.exists(trace),
                  "(b) %s ran and recorded %s" % (name, trace))
            if rc != 0 or not os.path.exists(trace):
                print(err)
                continue
            rc, _, err = run(smpirun, ["-np", str(np), "-platform", plat, "-replay", trace])
            t_rep = sim_time(err)
            check(rc == 0 and t_rep is not None and t_app and abs(t_rep - t_app) <= TOL * t_app,
                  "(b) %s: program %s s, replay of its own trace %s s" % (name, t_app, t_rep))
            if rc != 0:
                print(err)
            if name == "ti_shift" and t_rep is not None:
                proc_null_mode(smpirun, plat, np, prog, trace, t_rep)


def proc_null_mode(smpirun, plat, np, prog, trace, t_rep):
    """ti_shift's trace has peers MPI_PROC_NULL, written as SimGrid's -666: they replay as
    the no-ops they were. The replay takes exactly the time of the program without its
    MPI_Cart_create (whose 4-byte broadcast no TI line records): `ti_shift by-hand`.
    Without its nonblocking lines to MPI_PROC_NULL (an irecv or isend and the wait that
    completes it) the trace replays to the same time, bit for bit; and with -100 for -666
    (what our -trace-ti wrote before) too."""
    rc, _, err = run(smpirun, ["-np", str(np), "-platform", plat,
                               "--cfg=smpi/simulate-computation:no", prog, "by-hand"])
    check(rc == 0 and sim_time(err) == t_rep,
          "(b) ti_shift by-hand (no MPI_Cart_create) %s s, replay %s s: the same bits"
          % (sim_time(err), t_rep))
    d = os.path.dirname(trace)
    files = [os.path.join(d, l.strip()) if not os.path.isabs(l.strip()) else l.strip()
             for l in open(trace) if l.strip()]
    lines = [open(f).read().splitlines() for f in files]
    nulls = sum(1 for ls in lines for l in ls if " -666 " in l)
    check(nulls > 0 and not any(" -100 " in l for ls in lines for l in ls),
          "(b) ti_shift: %d lines with peer MPI_PROC_NULL, written as -666" % nulls)
    for variant, edit in (("without its nonblocking MPI_PROC_NULL lines",
                           lambda l: None if l.split()[1] in ("irecv", "isend", "wait")
                           and " -666 " in l else l),
                          ("with -100 for -666", lambda l: l.replace(" -666 ", " -100 "))):
        lst = trace + ".variant"
        with open(lst, "w") as f:
            for r, ls in enumerate(lines):
                rf = "%s.variant_r%d" % (trace, r)
                with open(rf, "w") as g:
                    for l in ls:
                        e = edit(l)
                        if e is not None:
                            g.write(e + "\n")
                f.write(rf + "\n")
        rc, _, err = run(smpirun, ["-np", str(np), "-platform", plat, "-replay", lst])
        check(rc == 0 and sim_time(err) == t_rep,
              "(b) ti_shift %s replays to the same time: %s vs %s" % (variant, sim_time(err), t_rep))
        if rc != 0:
            print(err)


def main():
    mode, smpirun, data = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "simgrid":
        simgrid_mode(smpirun, data)
    else:
        own_mode(smpirun, data, sys.argv[4:])
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("replay_test %s: OK" % mode)


if __name__ == "__main__":
    main()
