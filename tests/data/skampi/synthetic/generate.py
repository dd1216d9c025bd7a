#!/usr/bin/env python3
"""Writes the synthetic SKaMPI files of this directory (and the malformed ones of ../bad/).

The synthetic files follow known piecewise-linear one-way models,

    t(size) = lat + inv_bw * (size + 16)        (microseconds; inv_bw in us per byte)

printed as ping-pong round trips (2 t) in SKaMPI 5's layout, so that tests can check that
smpi-calibrate recovers the breakpoints and parameters. The models are repeated in
tests/check_calibration.c: change both together. Deterministic (seeded noise); run it from
anywhere: python3 generate.py
"""
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "..", "bad")


def pow2(lo, hi):
    s, out = lo, []
    while s <= hi:
        out.append(s)
        s *= 2
    return out


def sqrt2_grid(hi):
    """SKaMPI's 'for count = 1 to hi step *sqrt(2)': exact product, rounded, no repeats."""
    x, s, out = 1.0, 1, [1]
    while True:
        n = s
        while n <= s:
            x *= math.sqrt(2)
            n = int(math.floor(x + 0.5))
        if n > hi:
            return out
        out.append(n)
        s = n


def model(segs, size):
    """segs: [(start, lat, inv_bw)] by increasing start; the last start <= size applies."""
    seg = [s for s in segs if s[0] <= size][-1]
    return seg[1] + seg[2] * (size + 16)


def block(name, sizes, segs, decimals=3, noise=0.0, rng=None, dash_line=None):
    lines = ['# begin result "%s"' % name]
    for i, s in enumerate(sizes):
        rt = 2 * model(segs, s)
        se = 0.0
        if noise:
            se = noise * rt  # the mean's standard error: the spread of the noise drawn
            rt *= 1 + noise * rng.gauss(0, 1)
        r0 = "%9.*f" % (decimals, rt)
        r1 = "    ---   " if dash_line == i else "%9.*f" % (decimals, rt * 0.97)
        lines.append("count= %d %8d %9.*f %9.*f %8d %s %s"
                     % (s, s, decimals, rt, decimals, se, 16, r0, r1))
    lines.append('# end result "%s"' % name)
    lines.append("# duration = 0.01 sec")
    lines.append("")
    return lines


HEADER = ["# SKaMPI Version 5.0.4 rev. 355", "", "# Started at Sun Nov 22 08:00:00 2026", "", ""]
FOOTER = ["", "# Finished at Sun Nov 22 08:00:01 2026", "# Total runtime 1 seconds", ""]

THREE = [(0, 1.0, 1e-3), (4096, 8.0, 2e-4), (262144, 0.5, 3e-4)]
SQRT2 = [(0, 0.6, 5e-4), (11585, 12.0, 1.5e-4)]
CONT = [(0, 2.0, 2e-3), (1024, 3.56, 5e-4), (65536, 19.948, 2.5e-4)]


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    p2 = pow2(1, 4194304)
    write(os.path.join(HERE, "three_segments.sko"),
          HEADER + block("Pingpong_Send_Recv", p2, THREE) + FOOTER)
    rng = random.Random(20261122)
    write(os.path.join(HERE, "three_segments_noisy.sko"),
          HEADER + block("Pingpong_Send_Recv", p2, THREE, noise=0.02, rng=rng) + FOOTER)
    for tag, seed in (("a", 1), ("b", 2)):
        rng = random.Random(seed)
        write(os.path.join(HERE, "run_%s.sko" % tag),
              HEADER + block("Pingpong_Send_Recv", p2, THREE, noise=0.01, rng=rng) + FOOTER)
    # skampi -s style: echoed source, two blocks, one decimal, a process without a value
    echo = ['#> begin measurement "Pingpong_Send_Recv"',
            "#>    for count = 1 to 1048576 step *sqrt(2) do",
            "#>       measure comm_pt2pt : Pingpong_Send_Recv(count, MPI_CHAR, 0, 1)",
            "#>    od", "#> end measurement", ""]
    other = [(0, 0.7, 5e-4), (11585, 13.0, 1.5e-4)]
    g = sqrt2_grid(1048576)
    write(os.path.join(HERE, "sqrt2_two_segments.sko"),
          HEADER + echo + block("Pingpong_Send_Recv", g, SQRT2, decimals=1, dash_line=3)
          + ['#> begin measurement "Pingpong_Isend_Recv"', "#> end measurement", ""]
          + block("Pingpong_Isend_Recv", g, other, decimals=1) + FOOTER)
    write(os.path.join(HERE, "continuous.sko"),
          HEADER + block("Pingpong_Send_Recv", p2, CONT) + FOOTER)

    # Malformed files: a valid file with one defect each. The expected line numbers are in
    # tests/check_calibration.c.
    good = HEADER + block("Pingpong_Send_Recv", pow2(1, 64), THREE) + FOOTER
    # good: lines 1-5 header, 6 begin, 7-13 data (1 .. 64), 14 end, 15 duration
    def bad(name, lines):
        write(os.path.join(BAD, name), lines)

    def with_line(n, text):  # replace line n (1-based)
        l = list(good)
        l[n - 1] = text
        return l

    bad("unterminated.sko", good[:11])                     # EOF inside the block, line 11
    bad("data_outside.sko", good[:3] + ["count= 1 1 2.0 0.0 16 2.0 2.0"] + good[3:])  # 4
    bad("mismatched_end.sko", with_line(14, '# end result "Pingpong_Isend_Recv"'))
    bad("nested_begin.sko", good[:9] + ['# begin result "Other"'] + good[9:])  # line 10
    bad("end_without_begin.sko", good + ['# end result "Pingpong_Send_Recv"'])  # line 21
    bad("not_a_number.sko", with_line(9, "count= 4 4 2.0x 0.0 16 2.0 2.0"))
    bad("truncated_line.sko", with_line(10, "count= 8 8 2.0"))
    bad("rank_count.sko", with_line(12, "count= 32 32 2.1 0.0 16 2.1"))
    bad("negative_time.sko", with_line(8, "count= 2 2 -2.0 0.0 16 2.0 2.0"))
    bad("zero_reps.sko", with_line(13, "count= 64 64 2.3 0.0 0 2.3 2.3"))
    bad("begin_no_quotes.sko", with_line(6, "# begin result Pingpong_Send_Recv"))
    bad("text_line.sko", good[:16] + ["Killed"] + good[16:])  # line 17, after the block
    bad("fractional_size.sko", with_line(11, "count= 16 16.5 2.0 0.0 16 2.0 2.0"))
    bad("loop_var_no_value.sko", with_line(7, "count="))
    bad("bad_rank_time.sko", with_line(7, "count= 1 1 2.0 0.0 16 2.0 n/a"))


if __name__ == "__main__":
    main()
