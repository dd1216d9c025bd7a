#!/usr/bin/env bash
# smpi-sweep, GNU parallel backend: the what-if study of sweep_local.sh gives the same table
# through `parallel -j 2` and through `parallel --sshloginfile` (a file naming the local
# machine, ':', so no ssh server is needed), as through the local backend; a failed point is
# reported and retried. Skipped (exit 77, with the reason) when GNU parallel is missing.
# Usage: sweep_parallel.sh SMPI_SWEEP SMPIRUN RING SAMPLED SOURCE_ROOT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
if ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
  echo "SKIP: GNU parallel is not installed (apt-get install parallel)"
  exit 77
fi
write_study what_if.yaml
"$SWEEP" run what_if.yaml -o local -j 2 -q
check "local reference: 36 ok" [ "$(statuses local/results.csv 7)" = "ok=36 " ]

"$SWEEP" run what_if.yaml -o par --backend parallel -j 2 > par.out 2>&1; rc=$?
check "parallel: exit 0 ($rc)" [ $rc -eq 0 ]
check "parallel: 36 ok ($(statuses par/results.csv 7))" [ "$(statuses par/results.csv 7)" = "ok=36 " ]
check "parallel: same table as local" cmp -s <(stable_columns local/results.csv) <(stable_columns par/results.csv)
grep -q "36/36 points done" par.out || bad "parallel: no progress line: $(cat par.out)"
grep -q -- "-n" par/parallel.log 2>/dev/null; [ -e par/parallel-points.txt ] && ok "parallel: point list written" || bad "parallel: no point list"

echo ":" > sshlogins
"$SWEEP" run what_if.yaml -o ssh --backend parallel --sshloginfile sshlogins --chunk 4 -q; rc=$?
[ $rc -eq 0 ] && cmp -s <(stable_columns local/results.csv) <(stable_columns ssh/results.csv)
verdict "parallel --sshloginfile: exit 0, same table"

# a failed point: reported, then retried by the next run
cat > flaky.sh <<EOS
#!/bin/sh
case "\$*" in *"/ring 100000 3 2000000") [ -e "$tmp/flaky.done" ] || { touch "$tmp/flaky.done"; exit 3; } ;; esac
exec "$SMPIRUN" "\$@"
EOS
chmod +x flaky.sh
"$SWEEP" run what_if.yaml -o flaky --backend parallel --smpirun "$tmp/flaky.sh" -j 2 > f1.out 2>&1; rc=$?
[ $rc -eq 1 ] && [ "$(statuses flaky/results.csv 7)" = "failed=1 ok=35 " ]
verdict "parallel: failed point reported (exit $rc, $(statuses flaky/results.csv 7))"
"$SWEEP" run what_if.yaml -o flaky --backend parallel --smpirun "$tmp/flaky.sh" -j 2 > f2.out 2>&1; rc=$?
[ $rc -eq 0 ] && cmp -s <(stable_columns local/results.csv) <(stable_columns flaky/results.csv)
verdict "parallel: retried, same table as local"
finish
