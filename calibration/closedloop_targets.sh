#!/bin/sh
# Issue 26's targets on real runs, from the "summary:" line of smpi-calibrate's default
# (closed-loop) report:
#   loro      leave-one-run-out mean log error <= 1.2 x the noise floor (each run predicted by
#             the mean of the others) and < the best-fit affine model's
#   coverage  the 95 % prediction intervals contain >= 90 % of the left-out runs' points
#
#   calibration/closedloop_targets.sh loro|coverage SMPI_CALIBRATE FILE.sko...
set -eu
if [ $# -lt 3 ]; then
  sed -n "2,8p" "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
what=$1
calibrate=$2
shift 2
out=$("$calibrate" -q --level=0.95 "$@")
printf '%s\n' "$out" | sed -n '/^errors/,/^summary/p'
printf '%s\n' "$out" | awk -v what="$what" '
  /^summary:/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    found = 1
  }
  END {
    if (!found) { print "no summary line (fewer than 2 runs?)"; exit 1 }
    if (what == "loro") {
      ok = v["loro"] <= 1.2 * v["floor"] && v["loro"] < v["affine"]
      printf "loro %.4f, 1.2 x floor %.4f, affine %.4f: %s\n", v["loro"], 1.2 * v["floor"], v["affine"], ok ? "ok" : "FAIL"
    } else if (what == "coverage") {
      ok = v["coverage"] >= 0.9
      printf "coverage %.4f (>= 0.9 wanted): %s\n", v["coverage"], ok ? "ok" : "FAIL"
    } else { print "unknown target " what; exit 2 }
    exit ok ? 0 : 1
  }'
