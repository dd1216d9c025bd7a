#!/bin/sh
# Propagation of the calibration's uncertainty to a program's run time, checked end to end:
# fit the runs with the default closed-loop fit and N parameter draws (-B N --samples-out), simulate a
# program once per draw (predict.sh) and once with the fit itself, and check that the fit's
# own time lies inside the ensemble's 95 % interval, near its median (within 10 %), and
# that the interval has a width (the draws differ).
#
#   calibration/closedloop_ensemble.sh SMPI_CALIBRATE FILE.sko...
#
# The program is SKaMPI's Send_Recv pattern at 64 B and 1 MiB (skampi_patterns.c).
# Environment: SMPICC, SMPIRUN (default from PATH), N (default 40), KEEP=1.
set -eu
if [ $# -lt 2 ]; then
  sed -n "2,11p" "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
calibrate=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
SMPICC=${SMPICC:-smpicc}
SMPIRUN=${SMPIRUN:-smpirun}
N=${N:-40}
work=$(mktemp -d "${TMPDIR:-/tmp}/smpi-ensemble.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

"$calibrate" -q -B "$N" --samples-out "$work/samples.txt" \
  --platform-out "$work/platform.xml" "$@" > "$work/calibrate.txt"
"$SMPICC" -O2 -o "$work/patterns" "$here/skampi_patterns.c"
printf 'node-0\nnode-1\n' > "$work/hosts"
args="-pattern Send_Recv -sizes 64,1048576 -reps 16"
# shellcheck disable=SC2086
own=$("$SMPIRUN" -np 2 -platform "$work/platform.xml" -hostfile "$work/hosts" \
  --cfg=smpi/simulate-computation:no --cfg=smpi/display-timing:yes "$work/patterns" $args 2>&1 |
  sed -n 's/.*simulated time: \([0-9.e+-]*\) s.*/\1/p')
# shellcheck disable=SC2086
ens=$(SMPIRUN="$SMPIRUN" HOSTFILE="$work/hosts" EXTRA=--cfg=smpi/simulate-computation:no \
  sh "$here/predict.sh" "$work/samples.txt" "$work/platform.xml" 2 "$work/patterns" $args)
echo "fit's own settings: $own s"
echo "$ens"
echo "$ens" | awk -v own="$own" '
  /median/ {
    for (i = 1; i <= NF; i++) {
      if ($i == "median") med = $(i + 1)
      if ($i == "interval") { lo = $(i + 1); hi = $(i + 2) }
    }
    gsub(/[][,]/, "", lo); gsub(/[][,]/, "", hi)
    ok = own >= lo && own <= hi && own / med < 1.1 && med / own < 1.1 && hi / lo > 1.01
    printf "own %g in [%g, %g], median %g: %s\n", own, lo, hi, med, ok ? "ok" : "FAIL"
    found = 1
    exit ok ? 0 : 1
  }
  END { if (!found) { print "no ensemble result"; exit 1 } }'
