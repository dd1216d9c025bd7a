#!/usr/bin/env bash
# Fingerprints of simulated times, to show that a restructuring or an optimisation left every
# simulated date where it was (CONTRIBUTING.md, "Performance and simulated times").
#
#   tools/bench/same_bits.sh BUILD_DIR > after.txt      then   diff before.txt after.txt
#
# For each harness case (tools/bench/harness.py's programs and platforms, computation not
# measured so nothing depends on the real clock) it runs the program with a Paje trace of
# every MPI call at 15 decimals (tracing/precision:15: below a double's spacing for dates
# under ~8 s, so a changed low bit of any date shows) and prints one line:
#
#   case platform ranks  sha256-of-the-trace  simulated-time-line
#
# Two builds agree on every date of every event when their outputs are identical.
set -euo pipefail
build=$(cd "${1:?usage: same_bits.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tools/smpicc" -O2 "$here/programs/bench_mpi.c" -o "$work/bench_mpi"
"$build/tools/smpicc" -O2 "$here/programs/hpl_like.c" -o "$work/hpl_like" -lm
"$build/tools/smpicc" -O2 "$here/programs/is_like.c" -o "$work/is_like"

. "$here/same_bits_lib.sh"
run() { # name platform np cfg... -- prog args...
  local out
  out=$(sb_sim "${@:2}" 2>&1 >/dev/null | grep -o 'simulated time: [^ ]* s')
  sb_line "$1" "$2" "$3" "$out"
}

nc=(--cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no)
for plat in cluster_flat fattree; do
  for np in 16 64 256; do
    for c in pingpong tokenring shiftring allreduce bcast reduceburst stencilflops; do
      run "$c" "$plat" "$np" "${nc[@]}" -- "$work/bench_mpi" "$c"
    done
    run allreduce_rdb "$plat" "$np" "${nc[@]}" --cfg=smpi/allreduce:rdb -- "$work/bench_mpi" allreduce
    if [ "$np" -le 64 ]; then
      run alltoall "$plat" "$np" "${nc[@]}" -- "$work/bench_mpi" alltoall
      run alltoall_pair "$plat" "$np" "${nc[@]}" --cfg=smpi/alltoall:pair -- "$work/bench_mpi" alltoall
    fi
    # the default selector's choice for small blocks on many ranks (its scratch skips folded
    # blocks: the same messages either way)
    run alltoall_bruck "$plat" "$np" "${nc[@]}" --cfg=smpi/alltoall:bruck -- "$work/bench_mpi" alltoall 2
  done
  run hpl "$plat" 16 --cfg=smpi/simulate-computation:no -- "$work/hpl_like" 2048 64 4 4
  run hpl "$plat" 64 --cfg=smpi/simulate-computation:no -- "$work/hpl_like" 4096 64 8 8
  # saturated sharing (saturated.py's IS-like Alltoallv): the solver's local passes that
  # fall back, and full passes of 4 000 flows
  run is_like "$plat" 64 "${nc[@]}" -- "$work/is_like" 22 3
done
