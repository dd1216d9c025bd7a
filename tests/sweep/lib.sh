# Helpers of the smpi-sweep tests (sourced). Each test gets SWEEP SMPIRUN RING SAMPLED SRC
# as arguments and works in a temporary directory $tmp, removed at the end.
set -u
DEMO=${6:+$(realpath "$6")}
SWEEP=$(realpath "$1") SMPIRUN=$(realpath "$2") RING=$(realpath "$3") SAMPLED=$(realpath "$4") SRC=$(realpath "$5")
tmp=$(mktemp -d /tmp/smpi-sweep-test.XXXXXX) && trap 'cleanup; rm -rf "$tmp"' EXIT
cleanup() { :; }
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { # DESCRIPTION COMMAND...: the command must succeed
  local d=$1; shift
  if "$@"; then ok "$d"; else bad "$d"; fi
}
# COMMAND && COMMAND ...; verdict DESCRIPTION: the status of the list before it
verdict() {
  if [ $? -eq 0 ]; then ok "$1"; else bad "$1"; fi
}
finish() { echo "$(basename "$0"): $fails failure(s)"; [ $fails -eq 0 ]; }

# the what-if study of the tests: 36 points (2 np x 3 zipped bw/lat x 3 flops x 2 seeds)
# on two_clusters_wan.xml, the WAN link overridden per point
write_study() { # FILE
  cat > "$1" <<EOS
program: $RING
args: [100000, 3, "{flops}"]
np: "{np}"
platform: $SRC/platforms/two_clusters_wan.xml
platform-set: ["link[wan]/bandwidth={bw}", "link[wan]/latency={lat}"]
cfg: ["smpi/simulate-computation:no"]
params:
  np: [16, 32]
  bw: {log: [1Gbps, 100Gbps, 3]}
  lat: [10ms, 1ms, 100us]
  flops: {range: [0, 2e6, 1e6]}
zip: [[bw, lat]]
seeds: [1, 2]
outputs:
  rate: "rate: ([0-9.e+-]+)"
EOS
}

# column N of results.csv's rows (no header), or the row count
rows() { tail -n +2 "$1" | wc -l; }
statuses() { tail -n +2 "$1" | awk -F, -v c="$2" '{print $c}' | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}'; }
# the columns that must not depend on how or where the points ran (not cpu, wall, memory, log)
stable_columns() { cut -d, -f1-10 "$1"; }
