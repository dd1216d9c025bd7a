"""What the SimGrid comparison scripts share (hpl_simgrid.py, execute_units.py here and
tools/simgrid-ref/fortran_cg.py): which SimGrid wrote a reference file, building a test
program with its smpicc, a node-0.. hostfile, and reading the compare mode's arguments and
reference lines."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def simgrid_version():
    """'SimGrid version 3.32 (libsimgrid-dev 3.32-2+b2)', for a reference file's header."""
    version = subprocess.run(["smpirun", "-version"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout.splitlines()[0]
    pkg = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Version}", "libsimgrid-dev"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return "%s (%s)" % (version, pkg or "libsimgrid-dev, version unknown")


def simgrid_build(tmp, name):
    """tests/mpi/NAME.c built by SimGrid's smpicc -O2 into TMP; returns the program's path."""
    prog = os.path.join(tmp, name)
    subprocess.run(["smpicc", "-O2", "-o", prog, "tests/mpi/%s.c" % name], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return prog


def hostfile(tmp, n):
    """node-0 .. node-(n-1): SimGrid's smpirun without a hostfile sorts the hosts by name."""
    path = os.path.join(tmp, "hosts%d" % n)
    with open(path, "w") as f:
        f.write("".join("node-%d\n" % i for i in range(n)))
    return path


def compare_args(argv, tol, usage):
    """SMPIRUN PROG REF.txt [--tol REL] -> absolute smpirun and prog, ref, tolerance."""
    argv = list(argv)
    if "--tol" in argv:
        i = argv.index("--tol")
        tol = float(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 3:
        raise SystemExit(usage)
    return os.path.abspath(argv[0]), os.path.abspath(argv[1]), argv[2], tol


def read_refs(path, tag, script):
    """The 'TAG a b c d time' lines of a reference file: [((a, b, c, d), time), ...]."""
    refs = []
    with open(path) as f:
        for line in f:
            if line.startswith(tag + " "):
                v = line.split()
                refs.append((tuple(int(x) for x in v[1:5]), float(v[5])))
    if not refs:
        raise SystemExit("%s: %s: no '%s' line" % (script, path, tag))
    return refs
