#!/usr/bin/env bash
# Fingerprints of simulated times of polling loops (issue 27, docs/polling.md), as
# same_bits.sh does for the harness's cases: programs/overlap.c (MPI_Wtime, MPI_Test and
# MPI_Iprobe loops, all ranks polling at the same dates or only even ranks), ring_probe.c and
# hpl_seed.c, computation not measured. Every line: case platform ranks trace-sha256 time.
#
#   tools/bench/same_bits_polling.sh BUILD_DIR [CFG...] > after.txt   then   diff before.txt after.txt
#
# Extra arguments go to every run (e.g. --cfg=smpi/wtime-ahead:no to compare a fast path
# with the plain one in the same build).
set -euo pipefail
build=$(cd "${1:?usage: same_bits_polling.sh BUILD_DIR [CFG...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tools/smpicc" -O2 "$here/programs/overlap.c" -o "$work/overlap"
"$build/tools/smpicc" -O2 "$here/programs/ring_probe.c" -o "$work/ring_probe"
"$build/tools/smpicc" -O2 "$here/programs/hpl_seed.c" -o "$work/hpl_seed" -lm

. "$here/same_bits_lib.sh"
sb_extra=(--cfg=smpi/simulate-computation:no "$@")
run() { # name platform np cfg... -- prog args...
  local out
  out=$(sb_sim "${@:2}" 2>&1 | grep -o 'simulated time: [^ ]* s\|polls=[0-9]*\|probes[^,]*' \
          | tr '\n' ' ')
  sb_line "$1" "$2" "$3" "$out"
}

for plat in cluster_flat fattree; do
  for np in 2 16; do
    for mode in wtime test iprobe; do
      run "overlap_$mode" "$plat" "$np" -- "$work/overlap" "$mode" 3 16384
      run "overlap_${mode}_lone" "$plat" "$np" -- "$work/overlap" "$mode" 3 16384 lone
    done
    run overlap_wtime_priv "$plat" "$np" --cfg=smpi/privatization:yes -- "$work/overlap" wtime 3 16384
  done
  run ring_probe "$plat" 16 -- "$work/ring_probe" 8
  run ring_probe_per_rank "$plat" 16 --cfg=smpi/iprobe-counter:per-rank -- "$work/ring_probe" 8
  run hpl_seed "$plat" 16 -- "$work/hpl_seed" 2048 64 4 4 4
done
