#!/usr/bin/env python3
"""Runs the programs of tests/porting/ under smpirun and checks what a user of MPICH would
see: every rank's output, the job's exit status, and (smpi's side) the simulated time and
the time-independent traces, which must not depend on how a rank ends.

Usage: porting.py CASE SMPIRUN PROG [PROG2]
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

TIME = re.compile(r"simulated time: ([0-9.e+-]+) s")


def run(cmd, cwd=None):
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=100, cwd=cwd)
    return res.returncode, res.stdout, res.stderr


def case_rank_exit(smpirun, prog):
    problems = []
    np = 4
    # no measured computation: the times are exact, whatever the machine's load
    base = [smpirun, "-np", str(np), "--cfg=smpi/display-timing:yes", "--cfg=smpi/cpu-threshold:-1"]
    ref_time = None
    ref_traces = None
    for mode, want_rc in [("return", 0), ("exit", 0), ("_exit", 0), ("code3", 3), ("abort", 134)]:
        with tempfile.TemporaryDirectory() as tmp:
            rc, out, err = run(base + ["-trace-ti", "--cfg=tracing/filename:ti.txt", prog, mode],
                               cwd=tmp)
            files = sorted(glob.glob(os.path.join(tmp, "ti.txt_files", "*")))
            traces = []
            for f in files:
                with open(f) as fh:
                    traces.append(fh.read())
        where = f"mode {mode}"
        if rc != want_rc:
            problems.append(f"{where}: exit status {rc}, {want_rc} wanted\n{err[-1500:]}")
        for r in range(np):
            if f"rank {r} after MPI_Finalize (token 0)" not in out:
                problems.append(f"{where}: rank {r}'s line after MPI_Finalize is missing:\n{out}")
        if not out.rstrip().endswith("rank_exit: OK"):
            problems.append(f"{where}: the last rank's last line is not the last output:\n{out}")
        m = TIME.search(err)
        if not m:
            problems.append(f"{where}: no simulated time printed:\n{err[-1500:]}")
            continue
        t = float(m.group(1))
        if len(traces) != np or not all(tr.rstrip().endswith("finalize") for tr in traces):
            problems.append(f"{where}: {len(traces)} TI trace files, not all ending with "
                            "finalize")
        if mode == "abort" and "rank 1 called abort() after MPI_Finalize" not in err:
            problems.append(f"{where}: abort() not reported:\n{err[-1500:]}")
        if ref_time is None:
            ref_time, ref_traces = t, traces
        else:
            if t != ref_time:
                problems.append(f"{where}: simulated time {t} s, {ref_time} s with return")
            # the traces differ in their compute amounts (measured): compare the actions
            acts = [[ln.split()[1] for ln in tr.splitlines()] for tr in traces]
            ref_acts = [[ln.split()[1] for ln in tr.splitlines()] for tr in ref_traces]
            if acts != ref_acts:
                problems.append(f"{where}: TI actions differ from the return run")
    # the job ends with rank 0, after the token's 3 hops and the acknowledgement's 3: the
    # time of a run whose ranks all return (checked positive; the ranks' ends change nothing)
    if ref_time is not None and not ref_time > 0:
        problems.append(f"simulated time {ref_time} s is not positive")
    return problems


def case_link_probes(smpicc, functions_h, libsmpi=None):
    """configure's AC_CHECK_FUNC way: declare the function without the header, call it, link.
    Every implemented function links; every STUB is an undefined reference. The same for the
    Fortran bindings (mpi_send_, pmpi_send_): libsmpi.so exports those of IMPL entries only,
    so a Fortran configure probe answers as a C one does."""
    problems = []
    if libsmpi:
        problems += fortran_exports(functions_h, libsmpi)
    entries = re.findall(r"^SMPI_FN\([^,]+, (\w+),.*(IMPL|STUB)\)\s*$", open(functions_h).read(),
                         re.M)
    impl = [n for n, st in entries if st == "IMPL"]
    stub = [n for n, st in entries if st == "STUB"]
    if len(impl) < 100:
        return [f"only {len(impl)} IMPL entries read from {functions_h}"]
    with tempfile.TemporaryDirectory() as tmp:
        for kind, names in [("impl", impl), ("stub", stub)]:
            if not names:
                continue
            src = os.path.join(tmp, kind + ".c")
            with open(src, "w") as f:
                for n in names:
                    f.write(f"char MPI_{n}(void);\n")
                f.write("int main(void)\n{\n  int r = 0;\n")
                for n in names:
                    f.write(f"  r += MPI_{n}();\n")
                f.write("  return r;\n}\n")
            rc, out, err = run([smpicc, "-w", src, "-o", os.path.join(tmp, kind)])
            if kind == "impl" and rc != 0:
                problems.append(f"a probe of the {len(names)} implemented functions does not "
                                f"link:\n{err[-2000:]}")
            if kind == "stub":
                if rc == 0:
                    problems.append("a probe of the functions not implemented links")
                missing = [n for n in names if f"undefined reference to `MPI_{n}'" not in err]
                if missing:
                    problems.append(f"not reported undefined: {missing[:5]}\n{err[-1000:]}")
    return problems


def fortran_exports(functions_h, libsmpi):
    entries = re.findall(r"^SMPI_FN\([^,]+, (\w+),.*(IMPL|STUB)\)\s*$", open(functions_h).read(),
                         re.M)
    rc, out, err = run(["nm", "-D", "--defined-only", libsmpi])
    if rc != 0:
        return [f"nm -D {libsmpi} failed: {err}"]
    exported = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}
    problems = []
    stubs = [n for n, st in entries if st == "STUB"]
    leaked = [f"{p}mpi_{n.lower()}_" for n in stubs for p in ("", "p")
              if f"{p}mpi_{n.lower()}_" in exported]
    if leaked:
        problems.append(f"Fortran bindings of functions not implemented are exported by "
                        f"libsmpi.so (a Fortran configure probe would link them): {leaked[:8]}")
    impl_bound = [n for n, st in entries if st == "IMPL" and f"mpi_{n.lower()}_" in exported]
    if len(impl_bound) < 100 or "mpi_send_" not in exported:
        problems.append(f"only {len(impl_bound)} Fortran bindings of implemented functions "
                        "are exported (mpi_send_ among them?)")
    return problems


def case_cxx_globals(smpirun, prog):
    problems = []
    for priv in ["yes", "mmap", "copy"]:
        np = 4
        rc, out, err = run([smpirun, "-np", str(np), f"--cfg=smpi/privatization:{priv}", prog])
        where = f"privatization:{priv}"
        if rc != 0 or "cxx_globals: OK" not in out:
            problems.append(f"{where}: status {rc}\n{out[-1500:]}{err[-1500:]}")
            continue
        dtors = re.findall(r"cxx_globals: destructor of rank (\d+)", out)
        if sorted(int(r) for r in dtors) != list(range(np)):
            problems.append(f"{where}: destructors ran for ranks {dtors}, one per rank wanted")
    return problems


def case_auto_malloc(smpirun, prog, source):
    problems = []
    base = [smpirun, "-np", "4"]
    rc, out, err = run(base + [prog, "plain"])
    if rc != 0 or "auto_malloc plain: OK" not in out:
        problems.append(f"without the key: status {rc}\n{out}{err[-1500:]}")
    if "smpi: allocations" in err:
        problems.append(f"allocations reported without smpi/display-allocs:\n{err[-1500:]}")
    rc, out, err = run(base + ["--cfg=smpi/auto-shared-malloc-thresh:1M",
                               "--cfg=smpi/display-allocs:yes", prog, "folded"])
    if rc != 0 or "auto_malloc folded: OK" not in out:
        problems.append(f"smpi/auto-shared-malloc-thresh:1M: status {rc}\n{out}{err[-1500:]}")
    with open(source) as fh:
        line = next(i for i, l in enumerate(fh, 1) if "malloc(8 * MIB)" in l)
    listed = [l for l in err.splitlines() if "bytes at once" in l]
    want = f"auto_malloc.c:{line}"
    if not listed or "8388608 bytes at once, 4 calls" not in listed[0] or want not in listed[0]:
        problems.append(f"display-allocs does not list {want} (8 MiB, 4 calls) first:\n{err}")
    m = re.search(r"(\d+) of them \((\d+) bytes\) folded", err)
    # per rank: 8 + 2 + 3 MiB, and 200 x 4 MiB
    if not m or int(m.group(1)) != 4 * 203:
        problems.append(f"folded allocations not counted as 4 x 203:\n{err[-1500:]}")
    return problems


def case_privatize_libs(smpirun, prog):
    problems = []
    for mode, cfg in [("private", ["--cfg=smpi/privatize-libs:libprivlib.so"]),
                      ("private", ["--cfg=smpi/privatize-libs:libprivlib.so",
                                   "--cfg=smpi/privatization:mmap"]),
                      ("private", ["--cfg=smpi/privatize-libs:libprivlib.so",
                                   "--cfg=smpi/privatization:copy"]),
                      ("shared", [])]:
        rc, out, err = run([smpirun, "-np", "4"] + cfg + [prog, mode])
        if rc != 0 or f"privlib {mode}: OK" not in out:
            problems.append(f"{cfg}: status {rc}\n{out}{err[-1500:]}")
    for lib, what in [("libc.so.6", "must never be privatized"),
                      ("libsmpi.so", "must never be privatized"),
                      ("libnothere.so", "not among the libraries")]:
        rc, out, err = run([smpirun, "-np", "2", f"--cfg=smpi/privatize-libs:{lib}", prog,
                            "shared"])
        if rc == 0 or what not in err or "rank 0" in out:
            problems.append(f"privatize-libs:{lib}: status {rc}, not refused before the "
                            f"ranks ran with '{what}':\n{out}{err[-1500:]}")
    return problems


def main():
    case = sys.argv[1]
    problems = globals()["case_" + case](*[os.path.abspath(a) for a in sys.argv[2:]])
    for p in problems:
        print(f"porting {case}: {p}")
    if problems:
        return 1
    print(f"porting {case}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
