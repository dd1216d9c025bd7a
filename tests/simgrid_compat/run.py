#!/usr/bin/env python3
"""SimGrid users' setups carry over (issue 22): every case of cases.py runs with our
smpirun and must print the simulated time SimGrid 3.32 printed for it
(tests/data/simgrid-ref/compat_times.txt, relative difference <= 1e-7), plus the case's
message if it has one. Then a few setups that must be refused with a clear message.

Usage: run.py SMPIRUN PROGDIR DATADIR [-k NAME] [-v]
  PROGDIR  where sgc.c, sge.c, sgi.c, sgd.c were built with our smpicc (sgc, ...); DATADIR tests/data.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES, program, values  # noqa: E402

TOL = 1e-7
# (name, arguments, hostfile, regex of the message; the run must fail)
REFUSED = [
    ("rank on a 0 flop/s pstate", ["-np", "3", "-platform", "{data}/zero_pstate.xml"], None,
     r"rank 2 cannot run on host 'C': its pstate 1 has a speed of 0 flop/s"),
    ("unknown key stays an error",
     ["-np", "2", "-platform", "{data}/pair.xml", "--cfg=tracing/uncategorised:yes"], None,
     r"unknown configuration key 'tracing/uncategorised' \(did you mean 'tracing/uncategorized'"
     r"|unknown configuration key 'tracing/uncategorised'"),
    # SimGrid 3.32 refuses a LINK_AVAIL trace_connect ("Cannot set a state profile once the
    # Link is sealed"); ours fails the messages as state_link_transfer does
    ("a LINK_AVAIL trace turns a link off",
     ["-np", "2", "-platform", "{data}/state_link_inline.xml"], None,
     r"smpi: communication failure at simulated date 0.105: MPI_Sendrecv of 100000 bytes from "
     r"rank 1 \(host 'B'\) to rank 0 \(host 'A'\): link 'L' went down"),
    # SimGrid 3.32: "Cannot launch actor '1' on failed host 'B'" (HostFailureException)
    ("a rank on a host off at date 0",
     ["-np", "2", "-platform", "{data}/state_host_off.xml"], None,
     r"rank 1 cannot run on host 'B': its state profile turns it off at date 0"),
    ("a bad profile names its file and line",
     ["-np", "2", "-platform", "{data}/profile_bad.xml"], None,
     r"host 'A': attribute speed_file: .*bad.profile:2: bad value: '1 fast'"),
    ("wattage_per_state for fewer pstates",
     ["-np", "2", "-platform", "{data}/energy_bad.xml", "--cfg=plugin:host_energy"], None,
     r"host 'B': wattage_per_state '100.0:200.0' lists 1 power range for 2 pstates"),
    ("a Vivaldi host needs coordinates",
     ["-np", "2", "-platform", "{data}/vivaldi_nocoords.xml"], None,
     r"vivaldi_nocoords.xml:6: host 'b': a host of Vivaldi zone 'AS0' needs "
     r"coordinates=\"x y height\""),
    ("IB penalty factors are three numbers",
     ["-np", "2", "-platform", "{data}/pair.xml", "--cfg=network/model:IB",
      "--cfg=smpi/IB-penalty-factors:0.965;0.925"], None,
     r"invalid value '0.965;0.925' for 'smpi/IB-penalty-factors': three positive numbers"),
    ("host/model ptask_L07 is not offered",
     ["-np", "2", "-platform", "{data}/pair.xml", "--cfg=host/model:ptask_L07"], None,
     r"host/model"),
]


# (name, arguments, hostfile, regex): runs that must succeed and print regex
EXTRA = [
    ("energy in the profile",
     ["-np", "2", "-platform", "{data}/energy.xml", "--cfg=plugin:host_energy",
      "--cfg=smpi/profile:yes"], None,
     r"@ energy of the hosts running ranks[^\n]*\n[^\n]*\nA +1 +477\.331477\n"
     r"B +1 +396\.831066\n\* +2 +874\.162543\n"),
    # without -platform: 0.20023330049089039 s with the built-in 10 Gb/s, 1 us links
    ("-bandwidth and -latency set the built-in platform's links",
     ["-np", "2", "-bandwidth", "10MBps", "-latency", "1ms"], None, r"time 0\.2769665063613"),
    ("-trace-resource needs -trace", ["-trace-resource", "-np", "2", "-platform",
                                      "{data}/pair.xml"], None,
     r"-trace-resource has no effect without -trace"),
    # between the sites of vivaldi_zones.xml, where SimGrid 3.32 aborts: 1.53 s (the
    # 46.3 ms between the routers dominate)
    ("Vivaldi sub-zones entered at router_<zone>",
     ["-np", "3", "-platform", "{data}/vivaldi_zones.xml"], None, r"time 1\.530497882474"),
    ("-tmpdir takes its directory", ["-tmpdir", "/nonexistent", "-np", "2", "-platform",
                                     "{data}/pair.xml"], None,
     r"-tmpdir /nonexistent accepted for SimGrid compatibility: not needed here"),
]


def read_refs(path):
    refs = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        name, key, v = line.split()
        refs.setdefault(name, {})[key] = float(v)
    return refs


def run(smpirun, prog, datadir, args, hostfile, tmp):
    """prog: the program's path"""
    hf = os.path.join(tmp, "hostfile")
    if hostfile is not None:
        with open(hf, "w") as f:
            f.write(hostfile)
    data = os.path.join(datadir, "simgrid-compat")
    argv = [smpirun] + [a.replace("{data}", data).replace("{hostfile}", hf) for a in args]
    argv += ["--cfg=smpi/simulate-computation:no", prog]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=60, cwd=tmp)
    return argv, p.returncode, p.stdout


def main():
    args = sys.argv[1:]
    only = None
    verbose = "-v" in args
    if verbose:
        args.remove("-v")
    if "-k" in args:
        i = args.index("-k")
        only = args[i + 1]
        del args[i:i + 2]
    smpirun, progdir, datadir = (os.path.abspath(a) for a in args)
    refs = read_refs(os.path.join(datadir, "simgrid-ref", "compat_times.txt"))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, cargs, hostfile, regex in CASES:
            if only and only not in name:
                continue
            argv, rc, out = run(smpirun, os.path.join(progdir, program(name)), datadir, cargs,
                                hostfile, tmp)
            got = values(out)
            problem = None
            if name not in refs:
                problem = "no SimGrid reference (run tools/simgrid-ref/record_compat.py)"
            elif "time" in refs[name] and (rc != 0 or "time" not in got):
                problem = "exit %d, no time printed" % rc
            elif "time" not in refs[name] and rc == 0:
                problem = "exit 0, SimGrid's job failed"
            elif set(got) != set(refs[name]):
                problem = "values %s, SimGrid printed %s" % (sorted(got), sorted(refs[name]))
            else:
                for key, ref in sorted(refs[name].items()):
                    err = abs(got[key] - ref) / abs(ref) if ref else abs(got[key])
                    if err > TOL:
                        problem = "%s %.17g, SimGrid %.17g (relative difference %.2e > %g)" % (
                            key, got[key], ref, err, TOL)
                        break
                if not problem and regex and not re.search(regex, out):
                    problem = "message /%s/ not printed" % regex
            if problem or verbose:
                print("%s %s: %s\n  %s\n%s" % ("FAIL" if problem else "ok", name,
                                               problem or "", " ".join(argv), out),
                      file=sys.stderr)
            failures += problem is not None
        for name, cargs, hostfile, regex, ok in ([c + (False,) for c in REFUSED] +
                                                 [c + (True,) for c in EXTRA]):
            if only and only not in name:
                continue
            prog = os.path.join(progdir, "sge" if "energy" in name else "sgc")
            argv, rc, out = run(smpirun, prog, datadir, cargs, hostfile, tmp)
            problem = None
            if (rc == 0) != ok:
                problem = "exit %d, expected %s" % (rc, "0" if ok else "a refusal")
            elif not re.search(regex, out):
                problem = "message /%s/ not printed" % regex
            if problem or verbose:
                print("%s %s: %s\n  %s\n%s" % ("FAIL" if problem else "ok", name,
                                               problem or "", " ".join(argv), out),
                      file=sys.stderr)
            failures += problem is not None
    print("simgrid_compat: %d case(s) failed" % failures if failures else "simgrid_compat: OK")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
