#!/usr/bin/env python3
"""smpirun's own start-up (issue 27: every run pays it, a tenth of a 16-rank payload cell).

Usage: check_launcher.py SMPIRUN LIBC, LIBC = how tools/meson.build linked it: musl (static,
against musl: what a build with Debian's musl-tools gets), glibc (static), dynamic.

- musl: the binary is static (no PT_INTERP), holds none of glibc's start-up CPU probing
  (init_cpu_features and the cache descriptors' walk: ~70 cpuid instructions, each a VM exit
  of ~6 us here). Its CPU time is a benchmark's business (tools/bench/results/
  2026-11-29-0405-small-cells.md: 0.05-0.11 ms against 0.61 on this VM), not a test's: these
  machines are shared and noisy.
- glibc: static at least.
- every kind: `smpirun --version` works.
"""
import os
import struct
import subprocess
import sys

smpirun, libc = sys.argv[1], sys.argv[2]
fails = []


def has_interp(path):
    with open(path, "rb") as f:
        ident = f.read(64)
        if ident[:4] != b"\x7fELF" or ident[4] != 2:
            return None
        phoff, = struct.unpack_from("<Q", ident, 32)
        phentsize, phnum = struct.unpack_from("<HH", ident, 54)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    return any(struct.unpack_from("<I", table, i * phentsize)[0] == 3 for i in range(phnum))


r = subprocess.run([smpirun, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                   text=True)
if r.returncode != 0 or "smpirun" not in r.stdout:
    fails.append("smpirun --version: exit %d, %r" % (r.returncode, r.stdout[:200]))

if libc in ("musl", "glibc") and has_interp(smpirun):
    fails.append("%s: linked dynamically, expected static (%s)" % (smpirun, libc))

if libc == "musl":
    nm = subprocess.run(["nm", smpirun], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                        text=True).stdout
    probes = [w for w in ("init_cpu_features", "_dl_x86_cpu_features", "intel_check_word",
                          "init_cacheinfo") if w in nm]
    if probes:
        fails.append("%s: glibc's CPU probing is linked in (%s)" % (smpirun, ", ".join(probes)))

for f in fails:
    print("FAIL: " + f)
print("launcher (%s): %s" % (libc, "FAIL" if fails else "ok"))
sys.exit(1 if fails else 0)
