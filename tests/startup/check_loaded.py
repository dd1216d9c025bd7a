#!/usr/bin/env python3
"""Start-up: with libxml2 linked from its archive (src/xml_static.py, -Dstatic_libxml2), a
program smpicc builds loads neither the shared libxml2 nor the ICU -> libstdc++ chain behind
it, libsmpi.so exports none of libxml2's symbols (a program's own libxml2 stays its own), and
the platform loader still parses, validates and reports as libxml2 does, including the one
path that reached ICU (an encoding that neither libxml2 nor iconv knows).

Usage: check_loaded.py SMPIRUN LOADED LIBSMPI NM PLATFORM static|shared
Before (main at 2b92a08): 12 objects, libxml2.so.2, libicuuc.so.72, libicudata.so.72,
libstdc++.so.6 and libgcc_s.so.1 among them."""
import os
import re
import subprocess
import sys
import tempfile

smpirun, prog, libsmpi, nm, platform, mode = sys.argv[1:7]
CHAIN = ("libxml2.so", "libicuuc.so", "libicudata.so", "libicui18n.so", "libstdc++.so",
         "libgcc_s.so")
fails = []


def run(plat, np_=2):
    return subprocess.run([smpirun, "-np", str(np_), "-platform", plat, prog],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=60)


r = run(platform)
names = re.findall(r"^loaded: (\S+)$", r.stdout, re.M)
m = re.search(r"^objects: (\d+)$", r.stdout, re.M)
if r.returncode != 0 or not m:
    fails.append("the program did not run (exit %d):\n%s" % (r.returncode, r.stdout[-1500:]))
else:
    print("%s objects: %s" % (m.group(1), " ".join(names)))
    chain = [n for n in names if n.startswith(CHAIN)]
    if mode == "static" and chain:
        fails.append("libsmpi.so links libxml2 statically, yet the program loaded %s"
                     % " ".join(chain))
    if mode == "shared" and not any(n.startswith("libxml2.so") for n in names):
        fails.append("the shared libxml2 is not loaded: the test cannot see what it checks")

if mode == "static":
    out = subprocess.run([nm, "-D", "--defined-only", libsmpi], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    leaked = [l.split()[-1] for l in out.splitlines()
              if re.match(r"(xml|html|ucnv_|UCNV_|smpi_xml_)", l.split()[-1])]
    print("libsmpi.so exports %d libxml2 or glue symbols" % len(leaked))
    if leaked:
        fails.append("libsmpi.so exports %d of libxml2's or its glue's symbols: %s ..."
                     % (len(leaked), " ".join(leaked[:5])))

# libxml2's validation and its errors, through the library the program loaded
with tempfile.TemporaryDirectory() as d:
    cases = [
        ("unknown encoding", '<?xml version="1.0" encoding="X-NO-SUCH-CODEPAGE"?>\n'
         '<platform version="4.1"/>\n', r":1: not well-formed XML: Unsupported encoding "
         r"X-NO-SUCH-CODEPAGE"),
        ("iconv encoding", '<?xml version="1.0" encoding="KOI8-R"?>\n<platform version="4.1">'
         '<zone id="z" routing="Full"><host id="h0" speed="1Gf"/><host id="h1" speed="1Gf"/>'
         '</zone></platform>\n', r"^objects: \d+$"),
        ("bad attribute", '<?xml version="1.0"?>\n<platform version="4.1">\n'
         '<zone id="z" routing="Full"><host id="h0" speed="1Gf" colour="red"/></zone>'
         '</platform>\n', r":3: unknown attribute 'colour' in <host>"),
    ]
    for what, text, want in cases:
        path = os.path.join(d, what.replace(" ", "_") + ".xml")
        with open(path, "w") as f:
            f.write(text)
        r = run(path, 1 if what == "bad attribute" else 2)
        ok = re.search(want, r.stdout, re.M) and (r.returncode == 0) == want.startswith("^objects")
        print("%s: exit %d, %s" % (what, r.returncode, "as expected" if ok else "WRONG"))
        if not ok:
            fails.append("%s: want /%s/, got exit %d:\n%s" % (what, want, r.returncode,
                                                            r.stdout[-800:]))
for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
