#!/usr/bin/env python3
"""Generated documentation: compare the build's copies with the committed ones, or write
them back into the source tree.

    docs_sync.py check  GENERATED COMMITTED [GENERATED COMMITTED ...]
    docs_sync.py update GENERATED COMMITTED [GENERATED COMMITTED ...]

The build generates docs/collectives.md (tools/coll-doc.c: the hand-written text with the
tables between its markers regenerated from the collectives' selectors) and
docs/mpi-coverage.md (tools/mpi-coverage.c --doc, from include/smpi/mpi_functions.h) into
the build tree (tools/meson.build). `check` is the meson test `docs_uptodate`: it exits 1,
printing the start of a diff and the command that regenerates the files, when a committed
copy differs. `update` is `ninja -C build update-docs`: it copies each generated file over
its committed copy (only where they differ, so that unchanged files keep their dates)."""
import difflib
import os
import shutil
import sys

MAX_DIFF_LINES = 40


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def main(argv):
    if len(argv) < 4 or len(argv) % 2 != 0 or argv[1] not in ("check", "update"):
        sys.stderr.write(__doc__)
        return 2
    mode, pairs = argv[1], list(zip(argv[2::2], argv[3::2]))
    stale = []
    for generated, committed in pairs:
        new, old = read(generated), read(committed)
        if new is None:
            print(f"docs_sync: {generated} is missing (was the build run?)", file=sys.stderr)
            return 2
        if new == old:
            continue
        if mode == "update":
            shutil.copyfile(generated, committed)
            print(f"updated {committed}")
            continue
        stale.append(committed)
        diff = list(difflib.unified_diff((old or "").splitlines(), new.splitlines(),
                                         committed + " (committed)",
                                         generated + " (generated)", lineterm=""))
        print("\n".join(diff[:MAX_DIFF_LINES]))
        if len(diff) > MAX_DIFF_LINES:
            print(f"... ({len(diff) - MAX_DIFF_LINES} more diff lines)")
    if stale:
        build = os.environ.get("MESON_BUILD_ROOT", "build")
        print(f"\nFAIL: stale generated documentation: {', '.join(stale)}\n"
              f"It is generated from the code: regenerate it with\n"
              f"    ninja -C {build} update-docs\n"
              f"and commit the result (never edit the generated parts by hand).")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
