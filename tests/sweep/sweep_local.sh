#!/usr/bin/env bash
# smpi-sweep, local backend (docs/sweeps.md): a 36-point what-if study of the WAN of
# two_clusters_wan.xml runs whole; a point's row is what the same smpirun command gives by
# hand; the SQLite file holds the same rows; a second run does nothing; ^C stops a sweep that
# then resumes; a failed point is reported, then retried; plots are drawn; bad studies are
# refused with file:line; a sampled profile (smpi/sample-file) is recorded once and reused.
# Usage: sweep_local.sh SMPI_SWEEP SMPIRUN RING SAMPLED SOURCE_ROOT DEMO
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
write_study what_if.yaml

"$SWEEP" run what_if.yaml -j 2 > run1.out 2>&1; rc=$?
check "run: exit 0" [ $rc -eq 0 ]
check "36 rows" [ "$(rows what_if.sweep/results.csv)" -eq 36 ]
check "every row ok ($(statuses what_if.sweep/results.csv 7))" [ "$(statuses what_if.sweep/results.csv 7)" = "ok=36 " ]
head -1 what_if.sweep/results.csv > header.txt
check "CSV header" [ "$(cat header.txt)" = "point,np,bw,lat,flops,seed,status,exit_code,sim_time,rate,cpu_time,wall_time,peak_rss_kib,log" ]
grep -q "ETA\|36/36 points done" run1.out && ok "progress line" || bad "no progress line: $(cat run1.out)"

# point 33 = ((np 1 * 3 + bw 2) * 3 + flops 1) * 2 + seed 1: np 32, bw 100Gbps / lat 100us
# (zipped), flops 1e6, seed 2; its row is what the same smpirun command prints
row=$(awk -F, '$1 == 33' what_if.sweep/results.csv)
check "point 33's parameters ($row)" [ "$(cut -d, -f2-6 <<<"$row")" = "32,100Gbps,100us,1000000,2" ]
hand=$("$SMPIRUN" -np 32 -platform "$SRC/platforms/two_clusters_wan.xml" \
  --platform-set 'link[wan]/bandwidth=100Gbps' --platform-set 'link[wan]/latency=100us' \
  --cfg=smpi/display-timing:yes --cfg=smpi/seed:2 --cfg=smpi/simulate-computation:no \
  "$RING" 100000 3 1000000 2>&1)
want_t=$(sed -n 's/^smpi: simulated time: \([^ ]*\) s.*/\1/p' <<<"$hand")
want_r=$(sed -n 's/^rate: //p' <<<"$hand")
check "point 33 = smpirun by hand ($want_t s, rate $want_r)" \
  [ "$(cut -d, -f9-10 <<<"$row")" = "$want_t,$want_r" ]
# the simulated time must depend on the parameters: 3 WAN settings x 3 flops at np 32
check "np 32 gives 9 different times" [ "$(awk -F, '$2 == 32 {print $9}' what_if.sweep/results.csv | sort -u | wc -l)" -eq 9 ]
check "seeds: 2 rows per point, same time" [ "$(awk -F, '{print $2,$3,$5,$9}' what_if.sweep/results.csv | sort -u | wc -l)" -eq 19 ]

python3 - what_if.sweep/results.sqlite what_if.sweep/results.csv > sql.out 2>&1 <<'PY' && ok "SQLite = CSV" || bad "SQLite: $(cat sql.out)"
import csv, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT point, np, bw, lat, flops, seed, status, exit_code, sim_time, rate FROM points ORDER BY point").fetchall()
ref = list(csv.reader(open(sys.argv[2])))[1:]
assert len(rows) == 36, len(rows)
for r, c in zip(rows, ref):
    assert [str(r[0]), str(r[1]), r[2], r[3], str(r[4]), str(r[5]), r[6], str(r[7])] == c[:8], (r, c)
    assert abs(r[8] - float(c[8])) <= 1e-15 * r[8] and abs(r[9] - float(c[9])) <= 1e-15 * r[9], (r, c)
assert db.execute("SELECT typeof(np), typeof(bw), typeof(sim_time) FROM points").fetchone() == ("integer", "text", "real")
assert "two_clusters_wan" in db.execute("SELECT value FROM study WHERE key = 'text'").fetchone()[0]
PY

# a second run finds everything done
cp what_if.sweep/results.csv first.csv
"$SWEEP" run what_if.yaml -j 2 > run2.out 2>&1
check "second run: nothing to do" [ "$(grep -c 'points run in' run2.out)" -eq 0 ]
check "second run: same table" cmp -s <(stable_columns first.csv) <(stable_columns what_if.sweep/results.csv)

# a changed study may not reuse the directory
sed 's/seeds: \[1, 2\]/seeds: [1, 3]/' what_if.yaml > changed.yaml && cp changed.yaml what_if2.yaml
mkdir -p other && cp what_if.sweep/study.yaml other/study.yaml
"$SWEEP" run what_if2.yaml -o other > changed.out 2>&1; rc=$?
check "changed study refused (exit $rc)" grep -q "holds the results of another version" changed.out

# ^C: stop after a few points, resume
cat > slow.yaml <<EOS
program: $RING
args: [1000, 20000, 0]
np: 4
params:
  size: {range: [1, 24, 1]}
EOS
"$SWEEP" run slow.yaml -j 1 > slow1.out 2>&1 &
pid=$!
for _ in $(seq 300); do
  [ "$(ls slow.sweep/points 2>/dev/null | grep -c rec)" -ge 3 ] && break
  sleep 0.1
done
kill -INT $pid
wait $pid; rc=$?
n1=$(ls slow.sweep/points | grep -c '\.rec$')
[ $rc -eq 130 ] && [ "$n1" -lt 24 ]
verdict "interrupted: exit 130 ($rc), $n1 of 24 points done"
grep -q "run the same command again to resume" slow1.out || bad "no resume hint: $(tail -3 slow1.out)"
"$SWEEP" run slow.yaml -j 2 > slow2.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "^\[smpi-sweep\] $((24 - n1)) points run in" slow2.out
verdict "resumed: exit 0, ran the $((24 - n1)) others"
check "resumed: 24 ok" [ "$(statuses slow.sweep/results.csv 3)" = "ok=24 " ]

# a failed point: reported, then retried (the wrapper fails point 5's first attempt)
cat > flaky.sh <<EOS
#!/bin/sh
case "\$*" in *" 5 3 0") [ -e "$tmp/flaky.done" ] || { touch "$tmp/flaky.done"; echo "flaky: no" >&2; exit 3; } ;; esac
exec "$SMPIRUN" "\$@"
EOS
chmod +x flaky.sh
cat > flaky.yaml <<EOS
program: $RING
args: ["{n}", 3, 0]
np: 2
params:
  n: {range: [1, 8, 1]}
EOS
"$SWEEP" run flaky.yaml --smpirun ./flaky.sh -j 2 > flaky1.out 2>&1; rc=$?
[ $rc -eq 1 ] && [ "$(awk -F, '$1 == 4 {print $3 "," $4}' flaky.sweep/results.csv)" = "failed,3" ]
verdict "failed point: exit 1 ($rc), row 4 failed with exit 3"
grep -q "1 failed" flaky1.out || bad "the summary does not count the failure: $(tail -2 flaky1.out)"
grep -q "flaky: no" flaky.sweep/logs/000004.log || bad "the failed point's log lacks its stderr"
"$SWEEP" run flaky.yaml --smpirun ./flaky.sh --skip-failed -j 2 > flaky2.out 2>&1; rc=$?
[ $rc -eq 1 ] && ! grep -q "points run in" flaky2.out
verdict "--skip-failed: still failed, nothing run"
"$SWEEP" run flaky.yaml --smpirun ./flaky.sh -j 2 > flaky3.out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "^\[smpi-sweep\] 1 points run in" flaky3.out
verdict "retried: exit 0, one point run"

# plots
"$SWEEP" plot what_if.yaml --x bw --lines np line.png && "$SWEEP" plot what_if.yaml --heat bw,flops --y rate heat.svg
[ "$(head -c 4 line.png | tail -c 3)" = "PNG" ] && grep -q "<svg" heat.svg
verdict "plots drawn"
"$SWEEP" plot what_if.yaml --x bandwidth out.png > plotbad.out 2>&1
check "plot of an unknown parameter refused" grep -q "no parameter 'bandwidth'.*(its parameters: np bw lat flops)" plotbad.out

# bad studies: exit 2, file:line
refuse() { # NAME TEXT EXPECTED
  printf '%s\n' "$2" > "$1.yaml"
  local out rc
  out=$("$SWEEP" list "$1.yaml" 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$3" <<<"$out"; then ok "refused $1"; else bad "$1: exit $rc, expected '$3', got: $out"; fi
}
refuse unknown_key "program: $RING
progam: x" "unknown_key.yaml:2: unknown key 'progam'"
refuse unknown_param "program: $RING
args: [\"{size}\"]
params:
  n: [1, 2]" "unknown_param.yaml:2: args: '{size}': no parameter 'size' in params"
refuse zip_lengths "program: $RING
params:
  a: [1, 2]
  b: [1, 2, 3]
zip: [[a, b]]" "zip_lengths.yaml:5: zip: a has 2 values and b 3"
refuse bad_range "program: $RING
params:
  a: {range: [1, 10, -1]}" "bad_range.yaml:3: parameter a: range [1, 10, -1]"
refuse units "program: $RING
params:
  a: {log: [1Gbps, 10GBps, 3]}" "the values must have the same unit"
refuse yaml "program: [" "yaml.yaml:2: "

# a sampled computation: the profile is recorded by one point, then read by all; two sweeps
# with it agree to the digit although the first measured its samples
cat > sampled.yaml <<EOS
program: $SAMPLED
args: [20]
np: "{np}"
sample-file: prof.txt
cfg: ["smpi/simulate-computation:no"]
params:
  np: [2, 4, 8]
  bw: [1Gbps, 10Gbps]
platform-set: ["cluster[default]/bw={bw}"]
EOS
"$SWEEP" run sampled.yaml -j 2 > s1.out 2>&1
grep -q "recording the sample profile .*prof.txt with point 0" s1.out || bad "no recording step: $(cat s1.out)"
check "profile recorded once" [ "$(grep -vc '^#' prof.txt)" -eq 1 ]
"$SWEEP" run sampled.yaml -o again -j 2 > s2.out 2>&1
[ "$(grep -vc '^#' prof.txt)" -eq 1 ] && ! grep -q recording s2.out
verdict "profile not re-recorded"
check "sampled sweeps agree" cmp -s <(cut -d, -f1-6 sampled.sweep/results.csv) <(cut -d, -f1-6 again/results.csv)
check "sampled: 6 ok" [ "$(statuses again/results.csv 4)" = "ok=6 " ]

# timeout: a point that runs too long is killed (SIGKILL: exit 137) and counted failed;
# repeat: 2 is seeds 1 and 2
cat > timeout.yaml <<EOS
program: $RING
args: [1000, "{rounds}", 0]
np: 4
timeout: 3
repeat: 2
params:
  rounds: [1, 100000000]
EOS
"$SWEEP" run timeout.yaml -q -j 2; rc=$?
[ $rc -eq 1 ] && [ "$(cut -d, -f2-5 timeout.sweep/results.csv | tr '\n' ' ')" = "rounds,seed,status,exit_code 1,1,ok,0 1,2,ok,0 100000000,1,failed,137 100000000,2,failed,137 " ]
verdict "timeout and repeat: $(cut -d, -f2-5 timeout.sweep/results.csv | tr '\n' ' ')"
grep -q "^timeout" timeout.sweep/points/000002.rec || bad "the record does not say timeout"

# the README's study, with the build's demo: 48 points and the README's plot
sed "s|../../build/tools/demo|$DEMO|" "$SRC/tools/examples/what_if.yaml" > readme.yaml
"$SWEEP" run readme.yaml -o what_if -q && "$SWEEP" plot readme.yaml -o what_if --x bw --lines lat what_if.png
[ "$(statuses what_if/results.csv 5)" = "ok=48 " ] && [ -s what_if.png ]
verdict "README's study: 48 ok and a plot"
finish
