"""Shared by tools/bench/ring_scale, hpl_like and ep_sampling: build a program with the
build-tree smpicc and run it under smpirun in its own memory cgroup, so that what is reported
is the physical memory really charged (RSS counts a folded page once per mapping; see
docs/emulation.md, "Limits and options", Measuring), along with wall and CPU time and max
RSS."""
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CGROOT = "/sys/fs/cgroup/memory"


def tools(build_dir):
    b = build_dir if os.path.isabs(build_dir) else os.path.join(ROOT, build_dir)
    cc, run = os.path.join(b, "tools", "smpicc"), os.path.join(b, "tools", "smpirun")
    for t in (cc, run):
        if not os.path.exists(t):
            sys.exit(f"{t} not found: build first (ninja -C {build_dir}) or pass --build-dir")
    return cc, run


def build(smpicc, program, workdir, extra=()):
    os.makedirs(workdir, exist_ok=True)
    out = os.path.join(workdir, os.path.splitext(os.path.basename(program))[0])
    src = os.path.join(HERE, "programs", program)
    subprocess.run([smpicc, "-O2", "-Wall", "-Wextra", *extra, src, "-o", out], check=True)
    return out


def _cgroup():
    """A fresh memory cgroup (v1), or None when we may not create one."""
    path = os.path.join(CGROOT, f"smpi_bench_{os.getpid()}_{time.monotonic_ns()}")
    try:
        os.mkdir(path)
        return path
    except OSError:
        return None


def run(cmd, timeout=None):
    """Runs cmd; returns dict(out, rc, wall, cpu, maxrss_kib, charge_bytes or None)."""
    cg = _cgroup()
    pre = (lambda: open(os.path.join(cg, "cgroup.procs"), "w").write(str(os.getpid()))) if cg else None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout, preexec_fn=pre)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    charge = None
    if cg:
        try:
            with open(os.path.join(cg, "memory.max_usage_in_bytes")) as f:
                charge = int(f.read())
        except OSError:
            pass
        for _ in range(50):  # the cgroup empties once the processes are reaped
            try:
                os.rmdir(cg)
                break
            except OSError:
                time.sleep(0.1)
    return dict(out=out, rc=rc, wall=wall,
                cpu=(after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
                maxrss_kib=after.ru_maxrss, charge=charge)


def mib(b):
    return "n/a" if b is None else f"{b / 2**20:.1f}"
