#!/bin/sh
# The closed loop, checked by simulation: fit the runs with smpi-calibrate (closed loop is its
# default, so this checks what a user gets), then
# simulate every SKaMPI point-to-point pattern present in them (skampi_patterns.c: SKaMPI's
# calls and timing, back-to-back repetitions, trimmed mean) on the emitted platform with the
# emitted settings, and check that each simulated time is within TOL of the fitted time the
# tool printed (--pattern-table), at every measured size. Runs written by our ping-pong
# (pattern "pingpong_skampi") are simulated with pingpong_skampi.c itself.
#
#   calibration/closedloop.sh SMPI_CALIBRATE FILE.sko... [-- smpi-calibrate options...]
#
# Environment: SMPICC and SMPIRUN (default: smpicc and smpirun from PATH), TOL (default
# 0.02 = 2 %), KEEP=1 keeps the work directory. The simulation runs with
# smpi/simulate-computation:no (the host's CPU time between MPI calls is not the network's);
# smpi/wtime:0 comes with the emitted settings.
set -eu
if [ $# -lt 2 ]; then
  sed -n "2,15p" "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
calibrate=$1
shift
files=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do files="$files $1"; shift; done
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
SMPICC=${SMPICC:-smpicc}
SMPIRUN=${SMPIRUN:-smpirun}
TOL=${TOL:-0.02}
work=$(mktemp -d "${TMPDIR:-/tmp}/smpi-closedloop.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
ours=0
for f in $files; do
  if head -n 1 "$f" | grep -q '^# pingpong_skampi '; then ours=1; fi
done

# shellcheck disable=SC2086
"$calibrate" -q "$@" --platform-out "$work/platform.xml" \
  --pattern-table "$work/table.txt" $files > "$work/calibrate.txt"
if [ "$ours" = 1 ] && ! grep -q '^pingpong_skampi ' "$work/table.txt"; then
  echo "closedloop.sh: runs written by pingpong_skampi.c were not fitted as its pattern" >&2
  exit 1
fi
"$SMPICC" -O2 -o "$work/patterns" "$here/skampi_patterns.c"
"$SMPICC" -O2 -o "$work/pingpong" "$here/pingpong_skampi.c" -lm
printf 'node-0\nnode-1\n' > "$work/hosts"
: > "$work/sim.txt"
for pat in $(awk '!/^#/ { print $1 }' "$work/table.txt" | sort -u); do
  sizes=$(awk -v p="$pat" '$1 == p { printf "%s%s", sep, $2; sep = "," }' "$work/table.txt")
  if [ "$pat" = pingpong_skampi ]; then
    "$SMPIRUN" -np 2 -platform "$work/platform.xml" -hostfile "$work/hosts" \
      --cfg=smpi/simulate-computation:no \
      "$work/pingpong" -sizes "$sizes" -reps-min 2 -reps-max 2 -decimals 6 -o "$work/pp.sko" \
      2> "$work/smpirun.log" || { cat "$work/smpirun.log" >&2; exit 1; }
    awk '/^count=/ { print "pingpong_skampi", $3, $4 }' "$work/pp.sko" >> "$work/sim.txt"
    continue
  fi
  "$SMPIRUN" -np 2 -platform "$work/platform.xml" -hostfile "$work/hosts" \
    --cfg=smpi/simulate-computation:no \
    "$work/patterns" -pattern "$pat" -sizes "$sizes" -reps 16 >> "$work/sim.txt" \
    2> "$work/smpirun.log" || { cat "$work/smpirun.log" >&2; exit 1; }
done

awk -v tol="$TOL" '
  FNR == NR { if (!/^#/) { k = $1 " " $2; if (!(k in model)) order[++n] = k; model[k] = $3 } next }
  { sim[$1 " " $2] = $3 }
  END {
    bad = 0; worst = 0
    printf "%-18s %10s %14s %14s %10s\n", "pattern", "size (B)", "fitted (us)", "simulated (us)", "diff"
    for (i = 1; i <= n; i++) {
      k = order[i]; split(k, f, " ")
      if (!(k in sim)) { printf "%-18s %10s: not simulated\n", f[1], f[2]; bad++; continue }
      d = sim[k] / model[k] - 1; if (d < 0) d = -d
      if (d > worst) worst = d
      if (d > tol) bad++
      printf "%-18s %10s %14.6f %14.6f %9.4f%%%s\n", f[1], f[2], model[k], sim[k], 100 * d, (d > tol) ? "  <-- over" : ""
    }
    printf "worst difference %.6f%% over %d pattern sizes (tolerance %g%%): %s\n", 100 * worst, n, 100 * tol, bad ? "FAIL" : "ok"
    exit bad ? 1 : 0
  }' "$work/table.txt" "$work/sim.txt"
