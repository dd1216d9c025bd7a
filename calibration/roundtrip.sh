#!/bin/sh
# Round trip of the legacy open-loop calibration (smpi-calibrate --open-loop, one-way = round
# trip / 2): fit FILE.sko, simulate our ping-pong (pingpong_skampi.c) on the
# emitted platform with the emitted settings, and check that the simulated one-way times
# (round trip / 2) reproduce the fitted model within TOL at every measured size.
#
#   calibration/roundtrip.sh SMPI_CALIBRATE FILE.sko [smpi-calibrate options...]
#
# Environment: SMPICC and SMPIRUN (default: smpicc and smpirun from PATH; ours, e.g. the build
# tree's tools/smpicc and tools/smpirun as the 'calibration' test suite uses, or SimGrid's),
# TOL (default 0.01 = 1 %), KEEP=1 keeps the work directory.
# The simulation runs with smpi/wtime:0 (each MPI_Wtime call would otherwise add 10 ns to the
# measured time) and smpi/simulate-computation:no (the host's own CPU time between MPI calls
# is not the network's), 2 repetitions per size (the simulation is deterministic).
set -eu
if [ $# -lt 2 ]; then
  sed -n "2,14p" "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
calibrate=$1
sko=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
SMPICC=${SMPICC:-smpicc}
SMPIRUN=${SMPIRUN:-smpirun}
TOL=${TOL:-0.01}
work=$(mktemp -d "${TMPDIR:-/tmp}/smpi-roundtrip.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

"$calibrate" --open-loop -q "$@" --platform-out "$work/platform.xml" --csv "$work/fit.csv" "$sko" \
  > "$work/calibrate.txt"
sizes=$(awk -F, 'NR > 1 { printf "%s%s", sep, $1; sep = "," }' "$work/fit.csv")
"$SMPICC" -O2 -o "$work/pingpong" "$here/pingpong_skampi.c" -lm
printf 'node-0\nnode-1\n' > "$work/hosts"
"$SMPIRUN" -np 2 -platform "$work/platform.xml" -hostfile "$work/hosts" \
  --cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no \
  "$work/pingpong" -sizes "$sizes" -reps-min 2 -reps-max 2 -decimals 6 -o "$work/sim.sko" \
  > "$work/smpirun.log" 2>&1 || { cat "$work/smpirun.log" >&2; exit 1; }

awk -v tol="$TOL" '
  FNR == NR { if (FNR > 1) { split($0, f, ","); model[f[1]] = f[4]; order[++n] = f[1] } next }
  /^count=/ { sim[$3] = $4 / 2 }
  END {
    bad = 0; worst = 0
    printf "%10s %14s %14s %10s\n", "size (B)", "model (us)", "simulated (us)", "diff"
    for (i = 1; i <= n; i++) {
      s = order[i]
      if (!(s in sim)) { printf "%10s: not simulated\n", s; bad++; continue }
      d = sim[s] / model[s] - 1; if (d < 0) d = -d
      if (d > worst) worst = d
      if (d > tol) bad++
      printf "%10s %14.6f %14.6f %9.4f%%%s\n", s, model[s], sim[s], 100 * d, (d > tol) ? "  <-- over" : ""
    }
    printf "worst difference %.6f%% over %d sizes (tolerance %g%%): %s\n", 100 * worst, n, 100 * tol, bad ? "FAIL" : "ok"
    exit bad ? 1 : 0
  }' "$work/fit.csv" FS=' ' "$work/sim.sko"
