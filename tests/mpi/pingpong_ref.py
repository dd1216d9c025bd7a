#!/usr/bin/env python3
"""Run tests/mpi/pingpong.c under our smpirun with the very options SimGrid 3.32 was run with
for a reference file (its "# command:" line), and compare the one-way times.

Usage: pingpong_ref.py SMPIRUN PINGPONG [--tol REL] [--table] REF.txt...

Paths in the recorded command are relative to the repository root, which is where the
commands run. SimGrid-only options (--log=xbt_cfg...) are dropped. Exit status 1 if a size
is missing or differs by more than REL (default 1e-9) from SimGrid's value.
"""
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read_ref(path):
    command, values = None, {}
    with open(path) as f:
        for line in f:
            if line.startswith("# command:"):
                command = shlex.split(line[len("# command:"):])
            elif line.startswith("pingpong "):
                _, size, t = line.split()
                values[int(size)] = float(t)
    if not command or not values:
        raise SystemExit(f"{path}: no '# command:' line or no data")
    return command, values


def our_command(command, smpirun, prog):
    if command[0] != "smpirun" or command[-1] != "pingpong":
        raise SystemExit(f"unexpected reference command: {' '.join(command)}")
    args = [a for a in command[1:-1] if not a.startswith("--log=")]
    return [smpirun] + args + [prog]


def main():
    argv = sys.argv[1:]
    tol, table, refs = 1e-9, False, []
    if len(argv) < 3:
        raise SystemExit(__doc__)
    smpirun, prog = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    i = 2
    while i < len(argv):
        if argv[i] == "--tol":
            tol = float(argv[i + 1])
            i += 2
        elif argv[i] == "--table":
            table = True
            i += 1
        else:
            refs.append(os.path.abspath(argv[i]))
            i += 1
    failed = False
    for ref in refs:
        command, want = read_ref(ref)
        cmd = our_command(command, smpirun, prog)
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
        if res.returncode != 0:
            print(f"{os.path.basename(ref)}: our run failed ({res.returncode}): {' '.join(cmd)}")
            print(res.stderr[-2000:])
            failed = True
            continue
        got = {}
        for line in res.stdout.splitlines():
            if line.startswith("pingpong "):
                _, size, t = line.split()
                got[int(size)] = float(t)
        worst, worst_size = 0.0, None
        rows = []
        for size, w in sorted(want.items()):
            if size not in got:
                print(f"{os.path.basename(ref)}: size {size} missing from our output")
                failed = True
                continue
            rel = abs(got[size] - w) / w if w else abs(got[size])
            rows.append((size, w, got[size], rel))
            if rel > worst:
                worst, worst_size = rel, size
        name = os.path.basename(ref)
        if table:
            print(f"{name}:")
            print(f"  {'size':>9} {'SimGrid 3.32 (s)':>24} {'smpi (s)':>24} {'rel. error':>10}")
            for size, w, g, rel in rows:
                print(f"  {size:>9} {w:>24.17g} {g:>24.17g} {rel:>10.2e}")
        status = "ok" if worst <= tol else "FAILED"
        print(f"{name}: {len(rows)} sizes, worst relative error {worst:.3g}"
              f"{f' at {worst_size} B' if worst_size is not None else ''} (tolerance {tol:g}): {status}")
        failed |= worst > tol
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
