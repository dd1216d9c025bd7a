#!/usr/bin/env python3
"""The cuts of issue 27's 16-rank payload cells stay made (counts, not times):

- MPI_Reduce's linear root receives the last vector straight into its result when the result
  buffer is not its own vector: a 4-rank Reduce of 1 MiB copies 3 MiB (4 MiB when the last
  vector went through scratch), and the root's first call faults in 2 scratch vectors (512
  pages), not 3 (768); in place and root = last rank keep the old path, sums checked;
- MPI_SUM's vectorized path (aligned, non-overlapping operands) gives the same bits as the
  scalar one, but for the payload of a sum of two NaNs (the compiler's choice in either
  loop) (this checks the path is right, not that it is taken);
- a receive of 16 KiB or more into pages never written is populated in one system call: 4 MiB
  received in one message or in 16 KiB ones traps on almost none of its 1 024 pages (perf_event_open's software page-fault count; skipped
  where the kernel refuses the counter).

    check_cuts.py SMPIRUN CUTS_PROGRAM [asan]"""
import re
import subprocess
import sys

MIB = 1024 * 1024
COPIED = re.compile(r"^smpi: bytes copied: (\d+) in (\d+) copies", re.M)
bad = 0


def run(smpirun, prog, args, np=4):
    # page faults are counted at 4 KiB: no huge-page heap (smpi/huge-heap's default, said
    # here so that the counts do not follow a change of that default)
    cmd = [smpirun, "-np", str(np), "--cfg=smpi/display-timing:yes", "--cfg=smpi/huge-heap:no",
           prog] + args
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=120)
    c = COPIED.search(r.stdout)
    if r.returncode != 0 or not c:
        sys.exit("FAIL %s: exit %d, output:\n%s" % (" ".join(args), r.returncode, r.stdout))
    return int(c.group(1)), r.stdout


def expect(what, ok, got):
    global bad
    print("%s %s%s" % ("ok  " if ok else "FAIL", what, "" if ok else ": got %s" % got))
    bad += not ok


def main():
    smpirun, prog = sys.argv[1], sys.argv[2]
    faults = re.compile(r"^cuts: reduce faults=(\d+)$", re.M)
    # the root lands the 3 other vectors, one after the other, in one scratch vector and
    # combines each at once (collectives/reduce/reduce_linear.c): 1 MiB of its own into rbuf
    # + 3 x 1 MiB landed; the scratch is 1 vector of 256 pages, not 3
    for root in (0, 1, 3):
        copied, out = run(smpirun, prog, ["reduce", str(root)])
        expect("reduce to %d: its own vector and 3 landed ones copied (4 MiB)" % root,
               copied == 4 * MIB, copied)
        m = faults.search(out)
        if sys.argv[3:] == ["asan"]:  # its allocator and shadow memory fault on their own
            continue
        # a few pages of slack for the simulator's own
        expect("reduce to %d: the root's first call faults in 1 scratch vector, not 3" % root,
               m is not None and 256 <= int(m.group(1)) < 330, m.group(0) if m else out[-300:])
    for root in (0, 3):
        copied, _ = run(smpirun, prog, ["reduce", str(root), "inplace"])
        expect("reduce in place to %d: 3 landed vectors copied (3 MiB)" % root,
               copied == 3 * MIB, copied)

    _, out = run(smpirun, prog, ["sumbits"], np=1)
    for t in ("double", "float", "int", "long"):
        expect("MPI_SUM on %ss: the vectorized path gives the scalar path's bits" % t,
               "cuts: sumbits %s same" % t in out, out[-400:])

    for block in (4 * MIB, 16 * 1024):
        _, out = run(smpirun, prog, ["prefault", str(block)], np=2)
        what = "prefault, %d KiB messages" % (block // 1024)
        m = re.search(r"^cuts: prefault traps=(-?\d+) resident=(\d+) of (\d+)$", out, re.M)
        if not m:
            expect("%s: the receiver's line" % what, False, out[-300:])
        elif int(m.group(1)) < 0:
            print("skip %s: perf_event_open refused (kernel.perf_event_paranoid?)" % what)
        else:
            expect("%s: 4 MiB received into fresh pages, all resident" % what,
                   m.group(2) == m.group(3) == "1024", m.group(0))
            if sys.argv[3:] == ["asan"]:  # its checks fault the shadow of the buffer in
                continue
            expect("%s: the copies trap on fewer than 64 of the 1 024 fresh pages" % what,
                   int(m.group(1)) < 64, m.group(0))
    sys.exit(1 if bad else 0)


main()
