#!/usr/bin/env python3
"""smpi-gantt (docs/visualisation.md): charts of a Paje trace are valid SVG/PNG files of the
requested size, with one row per rank, one legend entry per state, a time window, and rows
aggregated at 1 024 ranks.

  gantt_test.py SMPI_GANTT tests/data/paje/stencil8.trace [SMPIRUN TI_STENCIL]

With SMPIRUN and the ti_stencil program (tests/data/ti/ti_stencil.c built by our smpicc),
also charts our own `smpirun -trace` of the same program: the same ranks, states and
messages as SimGrid's trace.
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

failures = []
BACKGROUND = "fill:rgb(93%,93%,93%)"  # the "outside MPI calls" band of every row


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def gantt(tool, *args):
    p = subprocess.run([tool] + list(args), capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def svg_info(path):
    """(width, height, plot-area background bands' top y values, legend swatch colours)"""
    root = ET.parse(path).getroot()  # raises if the XML is broken
    w = float(root.get("width").rstrip("pt"))
    h = float(root.get("height").rstrip("pt"))
    rows, swatches = [], []
    for el in root.iter("{http://www.w3.org/2000/svg}path"):
        style, d = el.get("style", ""), el.get("d", "")
        m = re.match(r"M ([0-9.]+) ([0-9.]+) L ([0-9.]+) ([0-9.]+) L ([0-9.]+) ([0-9.]+) L", d)
        fill = re.search(r"fill:rgb\([^)]*\)", style)
        if not m or not fill:
            continue
        x0, y0, x1, _, _, y1 = map(float, m.groups())
        if abs(x1 - x0 - 26) < 0.01 and abs(y1 - y0 - 10) < 0.01:
            swatches.append(fill.group(0))  # legend swatches are 26 x 10
        elif fill.group(0) == BACKGROUND and x1 - x0 > 100:
            rows.append(y0)
    return w, h, sorted(set(rows)), swatches


def main():
    tool, trace = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        svg, png = os.path.join(tmp, "g.svg"), os.path.join(tmp, "g.png")
        rc, out, err = gantt(tool, trace, svg)
        check(rc == 0, "SVG written (%s)" % (out.strip() or err.strip()))
        m = re.search(r"(\d+) ranks in (\d+) rows, (\d+) states, (\d+) messages", out)
        check(m and m.groups() == ("8", "8", "16", "140"), "8 ranks, 8 rows, 16 states, 140 messages")
        w, h, rows, swatches = svg_info(svg)
        check(w == 1200 and h >= 240, "SVG is 1200 wide (%gx%g)" % (w, h))
        check(len(rows) == 8, "one row per rank: %d background bands" % len(rows))
        # 16 states, "outside MPI calls"; all in distinct colours
        check(len(swatches) == 17 and len(set(swatches)) == 17,
              "legend: 16 states + outside, distinct colours (%d, %d distinct)"
              % (len(swatches), len(set(swatches))))

        rc, out, err = gantt(tool, "--arrows", "--width", "800", "--height", "500", trace, png)
        check(rc == 0 and png_size(png) == (800, 500), "PNG 800x500 with arrows: %s" % (png_size(png),))

        rc, out, err = gantt(tool, "--from", "0.0008", "--to", "0.0013", trace, svg)
        m = re.search(r"(\d+) states, \d+ messages, ([0-9.e-]+)\.\.([0-9.e-]+) s", out)
        check(rc == 0 and m and m.group(2) == "0.0008" and m.group(3) == "0.0013"
              and int(m.group(1)) < 16, "time window 0.0008..0.0013 s keeps fewer states (%s)" % out.strip())

        # 1 024 ranks: more ranks than pixel rows, so rows are shared
        big = os.path.join(tmp, "big.trace")
        random.seed(1)
        lines = [l for l in open(trace) if l.startswith("%")]
        lines += ["0 1 0 MPI\n", "2 2 1 MPI_STATE\n", '5 10 2 PMPI_Recv "0 0 1"\n',
                  '5 11 2 computing "0 1 0"\n']
        n = 1024
        lines += ['6 0 %d 1 0 "rank-%d"\n' % (100 + r, r) for r in range(n)]
        ev = []
        for r in range(n):
            t = 0.0
            for k in range(6):
                d = random.uniform(0.5, 1.5)
                ev.append((t, 0, "12 %.6f 2 %d %d\n" % (t, 100 + r, 10 + k % 2)))
                ev.append((t + d, 1, "13 %.6f 2 %d\n" % (t + d, 100 + r)))
                t += d
        lines += [e[2] for e in sorted(ev)]
        with open(big, "w") as f:
            f.writelines(lines)
        rc, out, err = gantt(tool, big, png)
        m = re.search(r"1024 ranks in (\d+) rows", out)
        check(rc == 0 and m and int(m.group(1)) < 1024 and png_size(png) == (1200, 900),
              "1024 ranks: %s rows in a 1200x900 PNG (%s)" % (m.group(1) if m else "?", png_size(png)))
        rc, out, err = gantt(tool, big, svg)
        _, _, rows, _ = svg_info(svg)
        check(m and len(rows) == int(m.group(1)), "aggregated SVG has one band per row (%d)" % len(rows))

        # errors name the file and the line
        bad = os.path.join(tmp, "bad.trace")
        with open(bad, "w") as f:
            f.write("%EventDef PajePushState 12\n% Time date\n% Type string\n% Container string\n"
                    "% Value string\n%EndEventDef\n12 0.5 2 nowhere 3\n")
        rc, out, err = gantt(tool, bad, svg)
        check(rc != 0 and "bad.trace:7:" in err and "never created" in err, "bad container: %s" % err.strip())
        rc, out, err = gantt(tool, trace, os.path.join(tmp, "g.jpg"))
        check(rc != 0 and ".svg or .png" in err, "unknown output format refused: %s" % err.strip())

        # /dev/zero was read without end (memory grew until killed); a file without newlines
        # too: a device or a directory is refused, a line is at most 1 MiB
        def limited(*args, data=None):
            try:
                p = subprocess.run([tool] + list(args), capture_output=True, text=True,
                                   timeout=10, input=data)
                return p.returncode, p.stdout + p.stderr
            except subprocess.TimeoutExpired:
                return None, "did not end within 10 s"
        rc, err = limited("/dev/zero", png)
        check(rc == 1 and "cannot read /dev/zero: it is a character device" in err,
              "/dev/zero refused: %s" % err.strip())
        rc, err = limited(tmp, png)
        check(rc == 1 and "it is a directory" in err, "a directory refused: %s" % err.strip())
        long_line = os.path.join(tmp, "long.trace")
        with open(trace, "rb") as src, open(long_line, "wb") as f:
            head = src.read()
            f.write(head + b"\0" * (3 << 20))
        rc, err = limited(long_line, png)
        check(rc == 1 and "long.trace:%d: line longer than 1 MiB" % (head.count(b"\n") + 1) in err,
              "a line over 1 MiB refused, naming file and line: %s" % err.strip())
        # a pipe is read (the bound above applies)
        with open(trace) as src:
            rc, err = limited("/dev/stdin", svg, data=src.read())
        check(rc == 0 and "8 ranks" in err, "trace read from a pipe: %s" % err.strip())

        if len(sys.argv) > 4:
            smpirun, prog = sys.argv[3], sys.argv[4]
            ours = os.path.join(tmp, "ours.trace")
            plat = os.path.join(os.path.dirname(os.path.abspath(trace)), "..", "simgrid-ref",
                                "platforms", "cluster16.xml")
            p = subprocess.run([smpirun, "-np", "8", "-platform", plat, "-trace",
                                "--cfg=tracing/filename:" + ours, prog],
                               capture_output=True, text=True, timeout=120)
            rc, out, err = gantt(tool, ours, svg)
            m = re.search(r"(\d+) ranks in (\d+) rows, (\d+) states, (\d+) messages", out)
            check(p.returncode == 0 and rc == 0 and m and m.groups() == ("8", "8", "16", "140"),
                  "our own -trace of ti_stencil: %s" % (out.strip() or err.strip() or p.stderr))
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("gantt_test: OK")


if __name__ == "__main__":
    main()
