#!/usr/bin/env python3
"""Runs a command and wants its exit status 0 and "<name>: OK" as the last line of its
standard output (the examples of this directory check their own data); echoes the output.

    last_line_ok.py NAME COMMAND..."""
import subprocess
import sys

name, cmd = sys.argv[1], sys.argv[2:]
run = subprocess.run(cmd, capture_output=True, text=True, timeout=110)
sys.stdout.write(run.stdout)
sys.stderr.write(run.stderr)
lines = run.stdout.strip().splitlines()
if run.returncode != 0 or not lines or lines[-1] != f"{name}: OK":
    print(f"{name}: exit status {run.returncode}, last line {lines[-1] if lines else '(none)'!r}")
    sys.exit(1)
