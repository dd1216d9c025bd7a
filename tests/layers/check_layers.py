#!/usr/bin/env python3
"""The layering rule, checked on the code itself (docs/architecture.md, "Layers").

    launch/  replay/  bindings/  io/  rma/  collectives/  observe/  mpi/  emulation/  runtime/
    \___________________________ smpi/ (and collectives/) ____________________________/
                                          kernel/
                                           src/

A file may use its own level and the levels below it, never one above. Two views of "use":

  includes   every #include "x/y.h" of every .c/.h below src/, kernel/, smpi/, collectives/,
             calibration/, tools/ (text of the sources);
  symbols    every undefined symbol of every object file of the library (nm -u), resolved to
             the object that defines it (nm --defined-only): a call or a variable reference.

Besides the ladder: collectives/ skip no level (kernel/ only through mpi/); every PMPI_* function is defined in smpi/bindings/ (the MPI interface
is one level: argument checks and error handlers there, internal functions below, so that
the library never goes through its own profiling interface); calibration/ uses only src/ and kernel/
(the network model it fits), never the MPI layer; tools/ use anything but nothing uses tools/;
include/ (the public headers) may be used by all. Prints one line per violation, with the
file, what it uses and why that is refused; exit 1 if there is any.

    usage: check_layers.py SOURCE_ROOT BUILD_DIR
           check_layers.py --selftest      (plants one violation of each kind in a tiny tree)
"""
import json
import os
import re
import subprocess
import sys

# bottom to top; a level may use itself and every level before it
LADDER = ["src", "kernel", "smpi/runtime", "smpi/emulation", "smpi/mpi", "smpi/observe",
          "collectives", "smpi/rma", "smpi/io", "smpi/bindings", "smpi/replay", "smpi/launch"]
RANK = {name: i for i, name in enumerate(LADDER)}


def level_of(path):
    """Level of a source path relative to the root: a ladder name, 'include', 'calibration',
    'tools', 'tests', or None (generated files and others)."""
    for name in sorted(LADDER, key=len, reverse=True):
        if path == name or path.startswith(name + "/"):
            return name
    top = path.split("/", 1)[0]
    return top if top in ("include", "calibration", "tools", "tests") else None


def allowed(user, used):
    """None if `user` may use `used`, else the reason it may not."""
    if used is None or used == "include" or user == used:
        return None
    if used == "tools":
        return "nothing may use tools/ (tools stand apart, on top)"
    if user in ("tools", "tests"):
        return None
    if used == "tests":
        return "nothing may use tests/"
    if user == "calibration":
        return None if used in ("src", "kernel") else "calibration/ uses only src/ and kernel/"
    if used == "calibration":
        return "calibration/ stands apart: only tools/ and tests/ use it"
    if user == "collectives" and used == "kernel":
        return "collectives/ reach the engine only through mpi/ (their messages are messages)"
    if user in RANK and used in RANK:
        if RANK[used] <= RANK[user]:
            return None
        return f"{used}/ is above {user}/"
    return f"{user} may not use {used}"


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def include_violations(root):
    out = []
    for top in ("src", "kernel", "smpi", "collectives", "calibration", "tools"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, f), root)
                user = level_of(path)
                text = open(os.path.join(root, path), encoding="utf-8", errors="replace").read()
                for m in INCLUDE.finditer(text):
                    inc = m.group(1)
                    target = inc if os.path.exists(os.path.join(root, inc)) else None
                    if target is None and os.path.exists(os.path.join(root, "include", inc)):
                        target = "include/" + inc
                    if target is None:  # a sibling include ("x.h" next to the file)
                        sib = os.path.normpath(os.path.join(os.path.dirname(path), inc))
                        target = sib if os.path.exists(os.path.join(root, sib)) else None
                    why = allowed(user, level_of(target)) if target else None
                    if why:
                        line = text.count("\n", 0, m.start()) + 1
                        out.append(f"{path}:{line}: includes {inc}: {why}")
    return out


def nm(args, obj):
    r = subprocess.run(["nm"] + args + [obj], capture_output=True, text=True, check=True)
    return [l.split() for l in r.stdout.splitlines() if l.strip()]


def libc_names():
    """Functions of libc that the library interposes (exit, clock_gettime, ...: smpi/launch/
    rank_exit.c): a lower level calling them calls libc's, not the level defining them."""
    try:
        r = subprocess.run(["cc", "-print-file-name=libc.so.6"], capture_output=True, text=True)
        path = r.stdout.strip()
        if not os.path.isabs(path):
            return set()
        return {p[-1].split("@")[0] for p in nm(["-D", "--defined-only"], path)}
    except (OSError, subprocess.CalledProcessError):
        return set()


def symbol_violations(root, build):
    cc = json.load(open(os.path.join(build, "compile_commands.json")))
    objs = {}  # object path -> source path relative to root
    for e in cc:
        out = e.get("output")
        if not out or "libsmpi_internal.a.p" not in out:
            continue
        src = os.path.relpath(os.path.normpath(os.path.join(e["directory"], e["file"])), root)
        objs[os.path.join(build, out) if not os.path.isabs(out) else out] = src
    if not objs:
        return ["no object of libsmpi_internal in compile_commands.json: is this a build dir?"]
    owner = {}
    out = []
    libc = libc_names()
    for obj, src in objs.items():
        if not os.path.exists(obj):
            return [f"{obj} is missing: build first (ninja -C {build})"]
        pmpi = []
        for p in nm(["--defined-only", "-g"], obj):
            if len(p) == 3 and p[2] not in libc:
                owner[p[2]] = src
                if p[2].startswith("PMPI_"):
                    pmpi.append(p[2])
        if pmpi and level_of(src) != "smpi/bindings":
            more = f" (+{len(pmpi) - 4} more)" if len(pmpi) > 4 else ""
            out.append(f"{src}: defines {', '.join(sorted(pmpi)[:4])}{more}: PMPI_* functions "
                       "belong in smpi/bindings/")
    for obj, src in sorted(objs.items(), key=lambda kv: kv[1]):
        user = level_of(src)
        seen = {}
        for p in nm(["-u"], obj):
            sym = p[-1]
            if sym not in owner:
                continue
            why = allowed(user, level_of(owner[sym]))
            if why:
                seen.setdefault(owner[sym], []).append(sym)
                seen[owner[sym]].append(why)
        for defsrc, items in sorted(seen.items()):
            syms, whys = items[0::2], items[1::2]
            more = f" (+{len(syms) - 4} more)" if len(syms) > 4 else ""
            out.append(f"{src}: uses {', '.join(sorted(syms)[:4])}{more} of {defsrc}: {whys[0]}")
    return out


def selftest():
    """A tiny tree, compiled for real, with one violation of each kind and one legal use of
    each kind: the checker must report exactly the four violations."""
    import tempfile
    files = {
        "src/base.h": "int base(void);\n",
        "src/base.c": '#include "src/base.h"\nint base(void) { return 1; }\n',
        "kernel/k.c": '#include "src/base.h"\n#include "smpi/mpi/m.h"\n'
                      "int k(void) { return base() + m(); }\n",          # include + symbol
        "smpi/mpi/m.h": "int m(void);\n",
        "smpi/mpi/m.c": '#include "smpi/mpi/m.h"\nint m(void) { return 2; }\n'
                        "int PMPI_Fake(void) { return 0; }\n",          # PMPI outside bindings
        "collectives/c.c": '#include "kernel/e.h"\nint c(void) { return e(); }\n',
        "kernel/e.h": "int e(void);\n",
        "kernel/e.c": '#include "kernel/e.h"\nint e(void) { return 3; }\n',
        "calibration/f.c": '#include "src/base.h"\nint f(void) { return base(); }\n',
    }
    with tempfile.TemporaryDirectory() as root:
        build = os.path.join(root, "build")
        os.makedirs(os.path.join(build, "libsmpi_internal.a.p"))
        cc = []
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            open(os.path.join(root, path), "w").write(text)
        for path in files:
            if path.endswith(".c"):
                out = "libsmpi_internal.a.p/" + path.replace("/", "_") + ".o"
                subprocess.run(["cc", "-c", "-I", root, path, "-o", os.path.join(build, out)],
                               cwd=root, check=True)
                cc.append({"directory": root, "file": path, "output": os.path.join(build, out)})
        json.dump(cc, open(os.path.join(build, "compile_commands.json"), "w"))
        bad = include_violations(root) + symbol_violations(root, build)
    want = ["kernel/k.c:2: includes smpi/mpi/m.h", "kernel/k.c: uses m of smpi/mpi/m.c",
            "smpi/mpi/m.c: defines PMPI_Fake", "collectives/c.c:1: includes kernel/e.h",
            "collectives/c.c: uses e of kernel/e.c"]
    missing = [w for w in want if not any(b.startswith(w) for b in bad)]
    extra = [b for b in bad if not any(b.startswith(w) for w in want)]
    for line in missing:
        print("selftest: not reported:", line)
    for line in extra:
        print("selftest: reported wrongly:", line)
    print(f"check_layers selftest: {len(want) - len(missing)} of {len(want)} planted violations "
          f"reported, {len(extra)} false report(s)")
    return 1 if missing or extra else 0


def main():
    if sys.argv[1:] == ["--selftest"]:
        return selftest()
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    root, build = (os.path.abspath(a) for a in sys.argv[1:])
    bad = include_violations(root) + symbol_violations(root, build)
    for line in bad:
        print(line)
    n_inc = sum(1 for b in bad if ": includes " in b)
    print(f"check_layers: {n_inc} include and {len(bad) - n_inc} symbol violation(s) of the "
          f"layering rule (docs/architecture.md)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
