#!/usr/bin/env python3
"""smpi/huge-heap (tools/smpirun.c, smpi/launch/launch.c, smpi/runtime/copies.c):

- off by default: 16 MiB written by rank 0 take >= 4 000 page faults (4 KiB pages);
- --cfg=smpi/huge-heap:yes (or `--cfg smpi/huge-heap:on`) gives the program a heap in huge
  pages: a few page faults, not 4 096, and /proc/self/smaps shows the heap's AnonHugePages
  (skipped where the kernel has transparent huge pages off, and under ASan, whose allocator
  replaces glibc's); the last setting on the command line wins;
- set in a platform file's <config>, which smpirun does not read, it is refused by name;
- display-timing charges first touches at the cheapest way measured on this host (trap,
  populated, huge pages), huge pages only when the heap has them: from a cache file.

usage: check_huge.py SMPIRUN PROG ON_PLATFORM [asan]"""
import os
import re
import socket
import subprocess
import sys
import tempfile

HUGE = re.compile(r"huge: heap-huge-kib=(-?\d+) faults=(\d+)")
TOUCH = re.compile(r"first touches \S+ s \((\d+) pages at (\S+) us\)")
# the cost the floor charges the pages a receive did not populate itself (those it populated
# cost the time the run took them: docs/emulation.md)
CALIBRATED = re.compile(r"first touches \d+ pages populated in \S+ s \(\S+ us a page, "
                        r"against (\S+) us calibrated\)")
bad = 0


def run(smpirun, prog, cfg=(), env=None, plat=None):
    cmd = [smpirun, "-np", "2"] + (["-platform", plat] if plat else []) + \
        ["--cfg=smpi/display-timing:yes"] + list(cfg) + [prog]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120, env=env)


def expect(what, ok, got):
    global bad
    print("%s %s%s" % ("ok  " if ok else "FAIL", what, "" if ok else ": got %s" % got))
    bad += not ok


def parsed(r):
    m = HUGE.search(r.stdout)
    if r.returncode != 0 or not m:
        sys.exit("FAIL: exit %d, output:\n%s" % (r.returncode, r.stdout))
    return int(m.group(1)), int(m.group(2))


def main():
    smpirun, prog, on_xml = sys.argv[1:4]
    # meson's MALLOC_PERTURB_ makes malloc write every block it hands out: no first touch left
    env = {k: v for k, v in os.environ.items() if k not in ("GLIBC_TUNABLES", "MALLOC_PERTURB_")}
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            thp = "[never]" not in f.read()
    except OSError:
        thp = False

    kib, faults = parsed(run(smpirun, prog, env=env))
    expect("default: no huge page in the heap", kib <= 0, kib)
    expect("default: 16 MiB written in >= 4 000 page faults", faults >= 4000, faults)
    kib, faults = parsed(run(smpirun, prog, ["--cfg=smpi/huge-heap:yes",
                                             "--cfg=smpi/huge-heap:no"], env=env))
    expect("yes then no: the last one wins", kib <= 0 and faults >= 4000, (kib, faults))
    if sys.argv[4:] == ["asan"]:
        print("skip huge pages checks: ASan's allocator, not glibc's malloc, serves the program")
    elif not thp:
        print("skip huge pages checks: transparent huge pages are off on this kernel")
    else:
        for cfg in (["--cfg=smpi/huge-heap:yes"], ["--cfg", "smpi/huge-heap:on"]):
            kib, faults = parsed(run(smpirun, prog, cfg, env=env))
            expect("%s: the heap is in huge pages (AnonHugePages of [heap] > 0)" % cfg, kib > 0,
                   kib)
            expect("%s: 16 MiB written in < 512 page faults" % cfg, faults < 512, faults)

    r = run(smpirun, prog, env=env, plat=on_xml)
    expect("smpi/huge-heap in a platform file's <config> is refused by name",
           r.returncode != 0 and "smpi/huge-heap" in r.stdout and "command line" in r.stdout,
           r.stdout[-300:])

    # the cost per page: trap 3 us, populated 2 us, huge pages 1 us (a cache file)
    with tempfile.TemporaryDirectory() as cache:
        os.makedirs(os.path.join(cache, "smpi"))
        with open(os.path.join(cache, "smpi", "first-touch"), "w") as f:
            f.write("%s v2 3e-06 2e-06 1e-06\n" % socket.gethostname())
        # rates configured: measuring them would malloc and free buffers that the program's
        # receive buffer would then reuse, resident (no first touch)
        rates = ["--cfg=smpi/memcpy-bandwidth:10", "--cfg=smpi/reduce-bandwidth:10"]
        for cfg, want in (([], "2.00"), (["--cfg=smpi/huge-heap:yes"], "1.00")):
            r = run(smpirun, prog, rates + cfg, env=dict(env, XDG_CACHE_HOME=cache))
            m, c = TOUCH.search(r.stdout), CALIBRATED.search(r.stdout)
            expect("first touches calibrated at %s us per page with %s" % (want, cfg or "defaults"),
                   m is not None and c is not None and c.group(1) == want
                   and int(m.group(1)) > 0, c.group(0) if c else r.stdout[-300:])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
