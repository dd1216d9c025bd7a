#!/bin/sh
# "Calibrate on one run, predict the others" (the SMPI paper's griffon -> gdx experiment) on
# the real SKaMPI runs: fits each run, evaluates the model on every run, and prints a
# Markdown table of mean / worst logarithmic errors (e^err - 1) for the piecewise model and
# the two affine baselines. It runs the legacy open-loop fit (--open-loop, one run at a time);
# the default closed-loop fit does the same by leave-one-run-out in its own report.
#
#   calibration/evidence.sh SMPI_CALIBRATE DATA_DIR [smpi-calibrate options...]
#
# DATA_DIR holds pingpong_np2_{bindcore,nobind}_run{1,2}.sko (tests/data/skampi/).
set -eu
if [ $# -lt 2 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
calibrate=$1
dir=$2
shift 2
runs="bindcore_run1 bindcore_run2 nobind_run1 nobind_run2"
echo "| fitted on | predicted | piecewise mean / worst | best-fit affine mean / worst | default affine mean / worst |"
echo "| --- | --- | --- | --- | --- |"
for train in $runs; do
  predict=""
  for test in $runs; do
    [ "$test" = "$train" ] || predict="$predict -p $dir/pingpong_np2_$test.sko"
  done
  # shellcheck disable=SC2086
  "$calibrate" --open-loop -q "$@" "$dir/pingpong_np2_$train.sko" $predict | awk -v train="$train" '
    function row(test, pm, pw, am, aw, dm, dw) {
      printf "| %s | %s | %s / %s | %s / %s | %s / %s |\n", train, test, pm, pw, am, aw, dm, dw
    }
    /^errors \(mean \/ worst\)/ {
      gsub(/,/, ""); row(train " (itself)", $6, $8, $11, $13, $16, $18)
    }
    /^.*pingpong_np2_.*\.sko +[0-9]+ / {
      n = split($1, p, "/"); t = p[n]; sub(/^pingpong_np2_/, "", t); sub(/\.sko$/, "", t)
      row(t, $3, $5, $6, $8, $9, $11)
    }'
done
