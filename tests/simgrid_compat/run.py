#!/usr/bin/env python3
"""SimGrid users' setups carry over (issue 22): every case of cases.py runs with our
smpirun and must print the simulated time SimGrid 3.32 printed for it
(tests/data/simgrid-ref/compat_times.txt, relative difference <= 1e-7), plus the case's
message if it has one. Then a few setups that must be refused with a clear message.

Usage: run.py SMPIRUN PROG DATADIR [-k NAME] [-v]
  PROG     tests/simgrid_compat/sgc.c built with our smpicc; DATADIR tests/data.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES  # noqa: E402

TOL = 1e-7
# (name, arguments, hostfile, regex of the message; the run must fail)
REFUSED = [
    ("rank on a 0 flop/s pstate", ["-np", "3", "-platform", "{data}/zero_pstate.xml"], None,
     r"rank 2 cannot run on host 'C': its pstate 1 has a speed of 0 flop/s"),
    ("unknown key stays an error",
     ["-np", "2", "-platform", "{data}/pair.xml", "--cfg=tracing/uncategorised:yes"], None,
     r"unknown configuration key 'tracing/uncategorised' \(did you mean 'tracing/uncategorized'"
     r"|unknown configuration key 'tracing/uncategorised'"),
    ("state profiles are not simulated yet",
     ["-np", "2", "-platform", "{data}/profile_state.xml"], None,
     r"profile_state.xml:6: host 'A': attribute state_file='profiles/b_speed.profile' of <host> "
     r"is not supported \(latency and state profiles are not implemented yet"),
    ("a bad profile names its file and line",
     ["-np", "2", "-platform", "{data}/profile_bad.xml"], None,
     r"host 'A': attribute speed_file: .*bad.profile:2: bad value: '1 fast'"),
    ("host/model ptask_L07 is not offered",
     ["-np", "2", "-platform", "{data}/pair.xml", "--cfg=host/model:ptask_L07"], None,
     r"host/model"),
]


def read_refs(path):
    refs = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        name, t = line.split()
        refs[name] = float(t)
    return refs


def run(smpirun, prog, datadir, args, hostfile, tmp):
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
    smpirun, prog, datadir = (os.path.abspath(a) for a in args)
    refs = read_refs(os.path.join(datadir, "simgrid-ref", "compat_times.txt"))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, cargs, hostfile, regex in CASES:
            if only and only not in name:
                continue
            argv, rc, out = run(smpirun, prog, datadir, cargs, hostfile, tmp)
            m = re.search(r"^time (\S+)$", out, re.M)
            problem = None
            if name not in refs:
                problem = "no SimGrid reference (run tools/simgrid-ref/record_compat.py)"
            elif rc != 0 or not m:
                problem = "exit %d, no time printed" % rc
            else:
                t, ref = float(m.group(1)), refs[name]
                err = abs(t - ref) / ref
                if err > TOL:
                    problem = "time %.17g, SimGrid %.17g (relative difference %.2e > %g)" % (
                        t, ref, err, TOL)
                elif regex and not re.search(regex, out):
                    problem = "message /%s/ not printed" % regex
            if problem or verbose:
                print("%s %s: %s\n  %s\n%s" % ("FAIL" if problem else "ok", name,
                                               problem or "", " ".join(argv), out),
                      file=sys.stderr)
            failures += problem is not None
        for name, cargs, hostfile, regex in REFUSED:
            if only and only not in name:
                continue
            argv, rc, out = run(smpirun, prog, datadir, cargs, hostfile, tmp)
            problem = None
            if rc == 0:
                problem = "ran (exit 0), should be refused"
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
