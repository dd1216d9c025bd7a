#!/usr/bin/env bash
# A 1000-point study (10 message sizes x 10 bandwidths x 10 latencies of the built-in
# platform's cluster, 4 ranks) runs whole with the local backend on 2 workers: 1000 rows, all
# ok; then a tenth of its points run again (records removed, the sweep resumed) through GNU
# parallel and give the same rows. About 12 s in all on 2 quiet cores (30 s at load 13);
# prints the wall time and smpi-sweep's overhead per point.
# Under sanitizers (meson's is_sanitized), 2 latencies instead of 10: 200 points.
# Usage: sweep_1000.sh SMPI_SWEEP SMPIRUN RING SAMPLED SOURCE_ROOT DEMO [LATENCIES]
. "$(dirname "$0")/lib.sh"
nlat=${7:-10} n=$((100 * ${7:-10}))
cd "$tmp" || exit 1
cat > thousand.yaml <<EOS
program: $RING
args: ["{size}", 2, 1e5]
np: 4
platform-set: ["cluster[default]/bw={bw}", "cluster[default]/lat={lat}"]
cfg: ["smpi/simulate-computation:no"]
params:
  size: {log: [1000, 1000000, 10]}
  bw: {log: [1Gbps, 100Gbps, 10]}
  lat: {log: [0.1us, 100us, $nlat]}
outputs:
  rate: "rate: ([0-9.e+-]+)"
EOS
start=$(date +%s%N)
"$SWEEP" run thousand.yaml -o a -j 2 > a.out 2>&1; rc=$?
echo "first run: $(( ($(date +%s%N) - start) / 1000000 )) ms wall, load $(cut -d' ' -f1-3 /proc/loadavg)"
grep "points run in" a.out
check "$n points: exit 0 ($rc)" [ $rc -eq 0 ]
[ "$(rows a/results.csv)" -eq $n ] && [ "$(statuses a/results.csv 5)" = "ok=$n " ]
verdict "$n rows, all ok ($(statuses a/results.csv 5))"
check "$n different (size, bw, lat)" [ "$(cut -d, -f2-4 a/results.csv | sort -u | wc -l)" -eq $((n + 1)) ]
check "the simulated time varies" [ "$(cut -d, -f7 a/results.csv | sort -u | wc -l)" -gt $((n / 2)) ]
# reproducible: 100 points (every 10th) run again, through GNU parallel (the local backend
# when parallel is missing), must give the same rows
for i in $(seq 0 10 $((n - 1))); do rm "a/points/$(printf %06d "$i").rec"; done
cp a/results.csv first.csv
backend=parallel
parallel --version 2>/dev/null | grep -q "GNU parallel" || backend=local
"$SWEEP" run thousand.yaml -o a -j 2 --backend $backend > b.out 2>&1; rc=$?
grep "points run in" b.out
[ $rc -eq 0 ] && grep -q "^\[smpi-sweep\] $((n / 10)) points run in" b.out && cmp -s <(cut -d, -f1-8 first.csv) <(cut -d, -f1-8 a/results.csv)
verdict "$((n / 10)) points again with $backend: exit 0 ($rc), the same $n rows"
finish
