"""What the --record modes of the SimGrid comparison scripts in this directory share: which
SimGrid wrote a reference file, and building one of the test programs with its smpicc."""
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
