#!/bin/sh
# Prediction interval of a program's simulated run time under the calibration's uncertainty:
# runs the simulator once per parameter set of a samples file (smpi-calibrate -B N
# --samples-out FILE: by default N draws from the closed-loop fit's prediction intervals; with
# --open-loop, N bootstrap replicates of the legacy fit) and prints the percentile interval of
# the simulated times.
#
#   calibration/predict.sh SAMPLES PLATFORM NP PROGRAM [ARGS...]
#
# Environment: SMPIRUN (default smpirun from PATH; ours or SimGrid's),
# LEVEL (default 0.95), MAX (use at most MAX samples, default all), HOSTFILE (optional),
# EXTRA (more smpirun options, e.g. "--cfg=smpi/simulate-computation:no").
# The run time is read from the line that smpirun prints with --cfg=smpi/display-timing:yes:
# "smpi: simulated time: <seconds> s (...)" (ours) or "Simulated time: <seconds> seconds"
# (SimGrid's).
set -eu
if [ $# -lt 4 ]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
samples=$1
platform=$2
np=$3
shift 3
SMPIRUN=${SMPIRUN:-smpirun}
LEVEL=${LEVEL:-0.95}
MAX=${MAX:-0}
times=$(mktemp "${TMPDIR:-/tmp}/smpi-predict.XXXXXX")
trap 'rm -f "$times"' EXIT
n=0
grep -v '^#' "$samples" | while read -r line; do
  [ -n "$line" ] || continue
  n=$((n + 1))
  if [ "$MAX" -gt 0 ] && [ "$n" -gt "$MAX" ]; then
    break
  fi
  cfgs=""
  for kv in $line; do
    cfgs="$cfgs --cfg=$kv"
  done
  # shellcheck disable=SC2086
  out=$("$SMPIRUN" -np "$np" -platform "$platform" ${HOSTFILE:+-hostfile "$HOSTFILE"} \
        --cfg=smpi/display-timing:yes ${EXTRA:-} $cfgs "$@" 2>&1) || {
    printf '%s\n' "$out" >&2
    echo "predict.sh: run $n failed (settings: $line)" >&2
    exit 1
  }
  t=$(printf '%s\n' "$out" |
      sed -n -e 's/^smpi: simulated time: \([0-9.eE+-]*\) s.*/\1/p' \
             -e 's/.*Simulated time: \([0-9.eE+-]*\) seconds.*/\1/p' | tail -n 1)
  if [ -z "$t" ]; then
    printf '%s\n' "$out" >&2
    echo "predict.sh: run $n printed no simulated time line (is --cfg=smpi/display-timing:yes honoured?)" >&2
    exit 1
  fi
  echo "$t" >> "$times"
done
sort -g "$times" | awk -v level="$LEVEL" '
  { v[NR] = $1 }
  function q(p,  h, lo) { h = (NR - 1) * p; lo = int(h); return lo + 1 >= NR ? v[NR] : v[lo + 1] + (h - lo) * (v[lo + 2] - v[lo + 1]) }
  END {
    if (NR == 0) { print "predict.sh: no sample ran" > "/dev/stderr"; exit 1 }
    printf "%d runs: simulated time median %.9g s, %.0f%% interval [%.9g, %.9g] s\n", NR, q(0.5), 100 * level, q((1 - level) / 2), q((1 + level) / 2)
  }'
