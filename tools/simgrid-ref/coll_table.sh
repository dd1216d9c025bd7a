#!/bin/sh
# Writes tests/data/simgrid-ref/coll_256_table.md: smpi's simulated time of every collective
# algorithm SimGrid 3.32 also has against SimGrid's (the references record_coll.py recorded),
# at 256 ranks on the flat cluster and the fat tree, 8 B and 1 MiB, with the cases SimGrid
# could not produce and why. The meson test coll_simgrid_256 checks a quick subset; this
# runs them all (a few minutes).
#
# With --full it writes tests/data/simgrid-ref/coll_fattree_full_table.md instead, from the
# fat-tree references recorded with SimGrid's exact max-min update (coll_fattree256_*_full.txt,
# record_coll.py --sg-cfg network/optim:Full --tag full).
#
# The explanations that are not per row (tools/simgrid-ref/coll_256_notes.md,
# coll_full_notes.md) are inserted after the table's summary, so that a regenerated table
# keeps them.
#
# usage: tools/simgrid-ref/coll_table.sh [--full] [BUILD_DIR] [REF_FILE...]
#        (default: build, coll_flat256_256.txt and coll_fattree256_256.txt; with --full the
#        coll_fattree256_<np>_full.txt files in rank order)
# The exit status is coll_timing_ref.py's: 1 if a case differs by more than 1 % and is not a
# known, explained difference.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
full=0
[ "${1:-}" = --full ] && { full=1; shift; }
build=${1:-$root/build}
[ $# -gt 0 ] && shift
ref=$root/tests/data/simgrid-ref
if [ $full = 1 ]; then
  out=$ref/coll_fattree_full_table.md
  notes=$root/tools/simgrid-ref/coll_full_notes.md
  if [ $# -eq 0 ]; then
    for np in 5 16 64 256; do
      [ -f "$ref/coll_fattree256_${np}_full.txt" ] && set -- "$@" "$ref/coll_fattree256_${np}_full.txt"
    done
  fi
else
  out=$ref/coll_256_table.md
  notes=$root/tools/simgrid-ref/coll_256_notes.md
  if [ $# -eq 0 ]; then
    set -- "$ref/coll_flat256_256.txt"
    [ -f "$ref/coll_fattree256_256.txt" ] && set -- "$@" "$ref/coll_fattree256_256.txt"
  fi
fi
cd "$root" || exit 2
python3 tests/mpi/coll_timing_ref.py --markdown "$out" \
  "$build/tools/smpirun" "$build/tests/mpi/coll_timing" "$@"
rc=$?
python3 - "$out" "$notes" <<'PY' || rc=2
import sys
table, notes = sys.argv[1], sys.argv[2]
text = open(table).read()
add = open(notes).read().strip()
# the summary is the paragraph starting with "Summary:"; the notes go right after it
i = text.index("\nSummary: ")
j = text.index("\n\n", i + 1)
open(table, "w").write(text[:j] + "\n\n" + add + text[j:])
PY
echo "wrote $out" >&2
exit $rc
