#!/usr/bin/env python3
"""Records SimGrid 3.32's simulated times of the SimGrid-compatibility cases
(tests/simgrid_compat/cases.py) into tests/data/simgrid-ref/compat_times.txt.

Builds tests/simgrid_compat/sgc.c with SimGrid's smpicc into a temporary directory, runs
every case with SimGrid's smpirun (the case's arguments, then
--cfg=smpi/simulate-computation:no and the program, from the temporary directory) and keeps
the "time T" line rank 0 prints (state_* cases: the date at which SimGrid ended the job
on a failed communication, or reported a deadlock, read from its log with a 17-digit date
format). Idempotent: no dates or paths in the output.

Usage: tools/simgrid-ref/record_compat.py      (from anywhere; needs smpicc, smpirun)
"""
import os
import subprocess
import sys
import tempfile

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(root, "tests", "simgrid_compat"))
from cases import CASES, program, values  # noqa: E402

OUT = os.path.join(root, "tests", "data", "simgrid-ref", "compat_times.txt")
DATA = os.path.join(root, "tests", "data", "simgrid-compat")


def main():
    version = subprocess.run(["smpirun", "-version"], stdout=subprocess.PIPE, text=True,
                             check=True).stdout.splitlines()[0]
    pkg = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Version}", "libsimgrid-dev"],
                         stdout=subprocess.PIPE, text=True).stdout.strip()
    lines = ["# SimGrid-compatibility cases (tests/simgrid_compat/cases.py): time printed by sgc.c",
             "# simgrid: %s (%s)" % (version, pkg),
             "# command: smpirun <the case's arguments> --cfg=smpi/simulate-computation:no sgc "
             "(from a temporary directory holding the case's hostfile; {data} = "
             "tests/data/simgrid-compat)",
             "# sgc, sge, sgi, sgd built by: smpicc -O1 -o sgc tests/simgrid_compat/sgc.c (sge: sge.c); "
             "sge for the energy_* cases, sgi for the ib_* ones, sgd for "
             "state_recv_*",
             "# columns: case key value (cases.py values(): the program's KEY VALUE lines and "
             "the energy plugin's lines; time in s, energies in J)"]
    with tempfile.TemporaryDirectory() as tmp:
        for p in ("sgc", "sge", "sgi", "sgd"):
            subprocess.run(["smpicc", "-O1", "-o", os.path.join(tmp, p),
                            os.path.join(root, "tests", "simgrid_compat", p + ".c")],
                           check=True, stderr=subprocess.DEVNULL)
        hf = os.path.join(tmp, "hostfile")
        for name, args, hostfile, _ in CASES:
            if hostfile is not None:
                with open(hf, "w") as f:
                    f.write(hostfile)
            argv = ["smpirun"] + [a.replace("{data}", DATA).replace("{hostfile}", hf)
                                  for a in args]
            argv += ["--cfg=smpi/simulate-computation:no", os.path.join(tmp, program(name))]
            if name.startswith("state_"):  # dates of the failure lines, to 17 digits
                argv[-1:-1] = ["--log=root.fmt:[%.17d]%e%a%e%m%n"]
            print("== " + " ".join(argv), file=sys.stderr)
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               cwd=tmp, timeout=300)
            vals = values(p.stdout)
            failed = "failed_at" in vals or "deadlock_at" in vals
            if (p.returncode != 0 and not failed) or not ("time" in vals or failed):
                print("record_compat: %s failed in SimGrid (exit %d):\n%s" % (
                    name, p.returncode, p.stdout), file=sys.stderr)
                return 1
            for key, v in vals.items():
                lines.append("%s %s %r" % (name, key, v))
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote " + OUT, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
