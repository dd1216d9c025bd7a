#!/usr/bin/env bash
# Instructions per simulated message under callgrind (README.md, "Instructions per message"):
# each case runs twice, as written and with its communication doubled, so that start-up and
# platform parsing cancel out of the difference.
#
#   tools/bench/per_message.sh BUILD_DIR [RANKS]      (default 1 024 ranks; LTO build, as shipped)
#
#   tokenring  flat cluster   laps 10 -> 20           messages: ranks x 10
#   allreduce  fat tree       each MPI_Allreduce twice  messages: 3 x ranks x log2(ranks)
# Prints, per case, both totals and the instructions per message. Takes minutes (valgrind).
set -euo pipefail
build=$(cd "${1:?usage: per_message.sh BUILD_DIR [RANKS]}" && pwd)
np=${2:-1024}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$here/programs/bench_mpi.c
sed 's/laps = 10;/laps = 20;/' "$src" > "$work/ring_x2.c"
sed 's|^\( *\)MPI_Allreduce(sb, rb, (int)(b / sizeof(double)), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);|&\n&|' \
  "$src" > "$work/allreduce_x2.c"
for v in ring_x2 allreduce_x2; do
  cmp -s "$src" "$work/$v.c" && { echo "per_message.sh: could not double $v in $src" >&2; exit 1; }
done
"$build/tools/smpicc" -O2 "$src" -o "$work/x1"
"$build/tools/smpicc" -O2 "$work/ring_x2.c" -o "$work/ring_x2"
"$build/tools/smpicc" -O2 "$work/allreduce_x2.c" -o "$work/allreduce_x2"
seq 0 $((np - 1)) | sed 's/^/node-/' > "$work/hosts"
count() { # platform prog case
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cg.%p" \
    "$build/tools/smpirun" -np "$np" -platform "$here/platforms/$1.xml" -hostfile "$work/hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no "$work/$2" "$3" 2>&1 \
    >/dev/null | sed -n 's/.*Collected : //p' | tail -1
}
log2=$(awk -v n="$np" 'BEGIN { l = 0; while (2 ^ l < n) l++; print l }')
a=$(count cluster_flat x1 tokenring); b=$(count cluster_flat ring_x2 tokenring)
echo "tokenring $np flat: $a -> $b: $(( (b - a) / (np * 10) )) instructions per message"
a=$(count fattree x1 allreduce); b=$(count fattree allreduce_x2 allreduce)
echo "allreduce $np fattree: $a -> $b: $(( (b - a) / (3 * np * log2) )) instructions per message"
