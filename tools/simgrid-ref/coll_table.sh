#!/bin/sh
# Writes tests/data/simgrid-ref/coll_256_table.md: smpi's simulated time of every collective
# algorithm SimGrid 3.32 also has against SimGrid's (the references record_coll.py recorded),
# at 256 ranks on the flat cluster and the fat tree, 8 B and 1 MiB, with the cases SimGrid
# could not produce and why. The meson test coll_simgrid_256 checks a quick subset; this
# runs them all (a few minutes).
#
# usage: tools/simgrid-ref/coll_table.sh [BUILD_DIR] [REF_FILE...]
#        (default: build, coll_flat256_256.txt and coll_fattree256_256.txt)
# The exit status is coll_timing_ref.py's: 1 if a case differs by more than 1 % and is not a
# known, explained difference.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
ref=$root/tests/data/simgrid-ref
if [ $# -eq 0 ]; then
  set -- "$ref/coll_flat256_256.txt"
  [ -f "$ref/coll_fattree256_256.txt" ] && set -- "$@" "$ref/coll_fattree256_256.txt"
fi
cd "$root" || exit 2
python3 tests/mpi/coll_timing_ref.py --markdown "$ref/coll_256_table.md" \
  "$build/tools/smpirun" "$build/tests/mpi/coll_timing" "$@"
rc=$?
echo "wrote $ref/coll_256_table.md" >&2
exit $rc
