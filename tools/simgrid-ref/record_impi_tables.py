#!/usr/bin/env python3
"""Dump the decision tables of SimGrid 3.32's `impi` selector from the installed library.

SimGrid's Intel MPI selector (src/smpi/colls/smpi_intel_mpi_selector.cpp) is data: for each
collective, a table indexed by ranks per host (1, 2, 4, 8, 16), then by a bound on the
number of ranks, then by a bound on the message size, giving an algorithm number, and an
array of functions indexed by that number. This script reads both straight from the data
section of the installed libsimgrid.so.3.32 (the `intel_<coll>_table` and
`intel_<coll>_functions_table` symbols; function pointers through the library's dynamic
relocations), so that tests/data/simgrid-ref/impi_tables.txt is exactly what SimGrid 3.32
decides on, quirks included (a row's element count bounds the size search even where the
source lists more elements than it says).

Layout (x86-64): table = 5 x {int ppn; 12 x {int max_np; int n; 32 x {unsigned max_size;
int algo}}}. Output, one line per (collective, ppn, rank bound):

    table <coll> <ppn> <max_np> <n> <max_size>:<algo> ...     (every element up to the last
                                                               non-zero one)
    functions <coll> <k>:<SimGrid function> ...               (k = algorithm number)

`static@ADDR` is a function local to the selector's file (barrier 5-6: the default barrier;
reduce_scatter 1: recursive halving or, non-commutative, mvapich2; 4-5: the default).
Usage: tools/simgrid-ref/record_impi_tables.py [LIB] > tests/data/simgrid-ref/impi_tables.txt
"""
import re
import struct
import subprocess
import sys

COLLS = ["allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "barrier", "bcast",
         "gather", "reduce", "reduce_scatter", "scatter"]


def main():
    lib = sys.argv[1] if len(sys.argv) > 1 else "/usr/lib/x86_64-linux-gnu/libsimgrid.so.3.32"
    syms = {}
    for l in subprocess.run(["nm", "-D", "-S", lib], capture_output=True, text=True,
                            check=True).stdout.splitlines():
        f = l.split()
        m = len(f) == 4 and re.match(r"_ZN7simgrid4smpi\d+intel_(\w+?)_(functions_)?tableE$", f[3])
        if m:
            syms[(m.group(1), bool(m.group(2)))] = (int(f[0], 16), int(f[1], 16))
    # the data section's address -> file offset
    secs = []
    for l in subprocess.run(["readelf", "-S", "-W", lib], capture_output=True, text=True,
                            check=True).stdout.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", l)
        if m:
            secs.append((int(m.group(2), 16), int(m.group(3), 16), int(m.group(4), 16)))
    relocs = {}
    for l in subprocess.run(["readelf", "-r", "-W", lib], capture_output=True, text=True,
                            check=True).stdout.splitlines():
        f = l.split()
        if len(f) >= 4 and re.match(r"^[0-9a-f]{16}$", f[0]):
            if f[2] == "R_X86_64_RELATIVE":
                relocs[int(f[0], 16)] = "static@0x" + f[3]
            elif f[2] == "R_X86_64_64" and len(f) >= 5:
                m = re.match(r"_ZN7simgrid4smpi\d+(\w+?)E", f[4])
                relocs[int(f[0], 16)] = m.group(1) if m else f[4]
    data = open(lib, "rb").read()

    def at(addr, n):
        for va, off, size in secs:
            if va <= addr < va + size:
                return data[off + addr - va: off + addr - va + n]
        raise SystemExit("address 0x%x in no section" % addr)

    print("# SimGrid 3.32 impi selector tables, read from %s" % lib)
    print("# table <coll> <ppn> <max_np> <n> <max_size>:<algo>...; functions <coll> <k>:<name>")
    for c in COLLS:
        addr, size = syms[(c, False)]
        raw = at(addr, size)
        for p in range(5):
            base = p * 3172
            (ppn,) = struct.unpack_from("<i", raw, base)
            for j in range(12):
                off = base + 4 + j * 264
                max_np, n = struct.unpack_from("<ii", raw, off)
                els = [struct.unpack_from("<Ii", raw, off + 8 + 8 * k) for k in range(32)]
                last = max([k for k, e in enumerate(els) if e != (0, 0)], default=-1)
                if max_np == 0 and last < 0:
                    continue
                print("table %s %d %d %d %s" % (c, ppn, max_np, n,
                                                " ".join("%d:%d" % e for e in els[:last + 1])))
        faddr, fsize = syms[(c, True)]
        print("functions %s %s" % (c, " ".join("%d:%s" % (k + 1, relocs.get(faddr + 8 * k, "?"))
                                               for k in range(fsize // 8))))


if __name__ == "__main__":
    main()
