#!/usr/bin/env python3
"""Reproducibility of sampling: sample_replay.py SMPIRUN PROGRAM

1. a first run measures the sampled blocks and saves them in a sample file;
2. runs reading that file are bit-identical (mean mode, and replay mode with one seed);
3. replay with another seed, and compute noise with another seed, give other times.
Ordinary CPU bursts are not simulated (cpu-threshold:-1) so that only sampling counts; measured
seconds count as seconds (host-speed:1Gf on 1 Gf hosts), far above the clock precision."""
import os
import subprocess
import sys
import tempfile

smpirun, prog = sys.argv[1], sys.argv[2]
failures = []


def run(*cfg):
    cmd = [smpirun, "-np", "2", "--cfg=smpi/cpu-threshold:-1", "--cfg=smpi/host-speed:1Gf"] + [f"--cfg={c}" for c in cfg] + [prog]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"sample_replay: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    lines = [l for l in p.stdout.splitlines() if l.startswith("T=")]
    if len(lines) != 1:
        sys.exit(f"sample_replay: {' '.join(cmd)} printed no time:\n{p.stdout}{p.stderr}")
    return lines[0][2:]


def expect(cond, what):
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as d:
    f = os.path.join(d, "profile.txt")
    measured = run(f"smpi/sample-file:{f}")
    with open(f) as fh:
        rows = [l.rstrip("\n").split("\t") for l in fh if not l.startswith("#")]
    expect(len(rows) == 2, f"the sample file has {len(rows)} profiles, expected 2 (one per rank)")
    expect(sorted(r[1] for r in rows) == ["0", "1"] and all(r[2] == "4" for r in rows),
           f"the sample file's profiles are not rank 0 and 1 with 4 samples each: {rows}")
    mean1 = run(f"smpi/sample-file:{f}")
    mean2 = run(f"smpi/sample-file:{f}")
    expect(mean1 == mean2, f"mean mode from a sample file: {mean1} then {mean2}")
    expect(float(mean1) > 0.02, f"simulated time {mean1} does not include the sampled blocks")
    r1 = run(f"smpi/sample-file:{f}", "smpi/sample-mode:replay", "smpi/seed:1")
    r1b = run(f"smpi/sample-file:{f}", "smpi/sample-mode:replay", "smpi/seed:1")
    r2 = run(f"smpi/sample-file:{f}", "smpi/sample-mode:replay", "smpi/seed:2")
    expect(r1 == r1b, f"replay with seed 1 twice: {r1} then {r1b}")
    expect(r1 != r2, f"replay with seeds 1 and 2 gave the same time {r1}")
    with open(f) as fh:
        expect(len([l for l in fh if not l.startswith("#")]) == 2,
               "runs that read the sample file appended to it")
    n1 = run(f"smpi/sample-file:{f}", "smpi/compute-noise:normal:0.2", "smpi/seed:1")
    n1b = run(f"smpi/sample-file:{f}", "smpi/compute-noise:normal:0.2", "smpi/seed:1")
    n3 = run(f"smpi/sample-file:{f}", "smpi/compute-noise:normal:0.2", "smpi/seed:3")
    expect(n1 == n1b, f"compute noise with seed 1 twice: {n1} then {n1b}")
    expect(n1 != n3 and n1 != mean1, f"compute noise: seed 1 {n1}, seed 3 {n3}, none {mean1}")

for f in failures:
    print("sample_replay: " + f, file=sys.stderr)
if failures:
    sys.exit(1)
print("sample_replay: OK")
