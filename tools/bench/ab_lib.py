#!/usr/bin/env python3
"""Same-window A/B of two builds of libsmpi under one program binary.

On a shared machine the CPU time of one build moves by tens of percent from one window to
the next, more than a per-message cut changes it. This runs one bench_mpi binary (built
with BUILD's smpicc) alternately with library A and library B (LD_PRELOAD of each
libsmpi.so: the loader takes it for the soname the binary needs), N times each, and prints
the CPU time (user + sys of the process tree, from wait4) of each: minimum, first quartile,
median. Only the library differs between the two columns.

    tools/bench/ab_lib.py --build-dir build --a /tmp/before/libsmpi.so.0.1.0 \\
        --b build/libsmpi.so.0.1.0 --case stencilflops --platform flat --np 256 --runs 40

Copy the "before" library somewhere first (a rebuild overwrites it). The options are the
harness's for the message cases (computation not measured, no privatization).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PLATFORMS = {"flat": os.path.join(HERE, "platforms", "cluster_flat.xml"),
             "fattree": os.path.join(HERE, "platforms", "fattree.xml")}
sys.path.insert(0, HERE)
import harness  # noqa: E402  (platform_hosts)


def run(cmd, env):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execve(cmd[0], cmd, env)
    _, status, ru = os.wait4(pid, 0)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        raise SystemExit("ab_lib: %s failed (status %d)" % (" ".join(cmd), status))
    return (ru.ru_utime + ru.ru_stime) * 1000.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, help="its smpicc and smpirun are used")
    ap.add_argument("--a", required=True, help="libsmpi.so of the first build")
    ap.add_argument("--b", required=True, help="libsmpi.so of the second build")
    ap.add_argument("--case", default="stencilflops", help="a bench_mpi.c case")
    ap.add_argument("--platform", default="flat", choices=sorted(PLATFORMS))
    ap.add_argument("--np", type=int, default=256)
    ap.add_argument("--runs", type=int, default=40, help="per library")
    a = ap.parse_args()
    libs = [os.path.abspath(a.a), os.path.abspath(a.b)]
    for lib in libs:
        if not os.path.exists(lib):
            raise SystemExit("ab_lib: %s does not exist" % lib)
    build = os.path.abspath(a.build_dir)
    with tempfile.TemporaryDirectory() as work:
        prog = os.path.join(work, "bench_mpi")
        subprocess.run([os.path.join(build, "tools", "smpicc"), "-O2", "-o", prog,
                        os.path.join(HERE, "programs", "bench_mpi.c")], check=True)
        hosts = os.path.join(work, "hosts")
        names = harness.platform_hosts(PLATFORMS[a.platform])
        if len(names) < a.np:
            raise SystemExit("ab_lib: platform %s has %d hosts" % (a.platform, len(names)))
        with open(hosts, "w") as f:
            f.write("\n".join(names[:a.np]) + "\n")
        cmd = [os.path.join(build, "tools", "smpirun"), "-np", str(a.np), "-platform",
               PLATFORMS[a.platform], "-hostfile", hosts, "--cfg=smpi/display-timing:yes",
               "--cfg=smpi/simulate-computation:no", "--cfg=smpi/privatization:no", prog, a.case]
        times = {lib: [] for lib in libs}
        load0 = os.getloadavg()
        for i in range(a.runs):
            for lib in (libs if i % 2 == 0 else libs[::-1]):  # alternate who goes first
                env = dict(os.environ, LD_PRELOAD=lib)
                times[lib].append(run(cmd, env))
        load1 = os.getloadavg()
    print("# %s %s %d ranks, %d runs each, CPU ms (user + sys); load %.1f -> %.1f"
          % (a.case, a.platform, a.np, a.runs, load0[0], load1[0]))
    for name, lib in zip("AB", libs):
        x = sorted(times[lib])
        print("%s  min %.2f  q1 %.2f  median %.2f  %s"
              % (name, x[0], x[len(x) // 4], statistics.median(x), lib))
    ma, mb = (statistics.median(times[lib]) for lib in libs)
    print("B/A median: %.3f" % (mb / ma))


if __name__ == "__main__":
    main()
