#!/bin/sh
# The short fuzz run of the meson test suite 'fuzz': every seed, then SECONDS of fuzzing.
#   run_fuzz.sh FUZZER SEED_DIR WORK_DIR SECONDS MAX_LEN
# New inputs go to WORK_DIR/corpus (libFuzzer writes into its first corpus directory, and
# the seeds in tests/ must stay small and hand-picked); a crashing input is saved under
# WORK_DIR/artifacts/ and the test fails with libFuzzer's report (exit 1: libFuzzer's own
# default, 77, means "skipped" to meson).
set -eu
exe=$1 seeds=$2 work=$3 secs=$4 maxlen=$5
# the dictionary tests/fuzz/<name>.dict, or that of the name's first word (platform_route
# uses platform.dict)
name=$(basename "$seeds")
dict="$(dirname "$(dirname "$seeds")")/$name.dict"
[ -f "$dict" ] || dict="$(dirname "$(dirname "$seeds")")/${name%%_*}.dict"
set -- -max_total_time="$secs" -max_len="$maxlen" -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1
if [ -f "$dict" ]; then
  set -- "$@" -dict="$dict"
fi
mkdir -p "$work/corpus" "$work/artifacts"
exec "$exe" "$@" "$work/corpus" "$seeds"
