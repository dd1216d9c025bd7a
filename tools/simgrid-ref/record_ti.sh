#!/bin/sh
# Records the time-independent traces of tests/data/ti/ with SimGrid 3.32 and the dates
# SimGrid's own replay gives them (tests/data/ti/README.md). Run from anywhere; ~10 s.
#
#   tools/simgrid-ref/record_ti.sh
#
# For each program P of tests/data/ti/P.c (np ranks on cluster16.xml, node-i for rank i):
#   smpicc -O1 P.c; smpirun -trace-ti ... --cfg=smpi/simulate-computation:no ./P
#     -> tests/data/ti/P.txt (the list) and P_files/rank-R.txt (R from 0)
#   smpirun -replay P.txt on cluster16.xml and on cluster16_2xbw.xml
#     -> one line of tests/data/ti/simgrid_times.txt each
# plus bw.txt, a written-out pure-bandwidth trace (16 MiB each way, nothing else).
# SimGrid names its per-rank files after the wall-clock time; they are renamed so that a
# re-run leaves git clean.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
data=$top/tests/data/ti
plat=$top/tests/data/simgrid-ref/platforms/cluster16.xml
plat2=$data/cluster16_2xbw.xml
build=${SGREF_BUILD:-$(mktemp -d)}
hosts=$build/hosts16
: > "$hosts"
for i in $(seq 0 15); do echo "node-$i" >> "$hosts"; done

simtime() { sed -n 's/.*Simulated time: \([0-9.e+-]*\) seconds.*/\1/p' | tail -1; }

out=$data/simgrid_times.txt
{
  echo "# SimGrid's dates for the traces of this directory (tools/simgrid-ref/record_ti.sh)"
  echo "# simgrid: $(smpirun -version 2>/dev/null | head -1) (libsimgrid-dev $(dpkg-query -W -f '${Version}' libsimgrid-dev 2>/dev/null || echo '?'))"
  echo "# app: smpirun -np N -platform cluster16.xml -hostfile H -no-privatize --cfg=smpi/simulate-computation:no -trace-ti ./P"
  echo "# replay: smpirun -np N -platform PLATFORM -hostfile H -no-privatize -replay P.txt --cfg=smpi/display-timing:yes"
  echo "# columns: trace np platform simgrid_app_time simgrid_replay_time (seconds; app_time - for written traces)"
} > "$out"

record() { # name np
  name=$1 np=$2
  echo "smpicc -O1 $data/$name.c -o $build/$name" >&2
  smpicc -O1 "$data/$name.c" -o "$build/$name" 2>/dev/null
  rm -rf "$build/rec" && mkdir "$build/rec"
  (cd "$build/rec" && smpirun -np "$np" -platform "$plat" -hostfile "$hosts" -no-privatize \
     --cfg=smpi/simulate-computation:no -trace-ti --cfg=tracing/filename:"$name.txt" \
     --cfg=smpi/display-timing:yes "$build/$name" > app.out 2> app.err)
  apptime=$(simtime < "$build/rec/app.err")
  rm -rf "$data/${name}_files" "$data/$name.txt"
  mkdir "$data/${name}_files"
  r=0
  while read -r f; do
    cp "$build/rec/$f" "$data/${name}_files/rank-$r.txt"
    echo "${name}_files/rank-$r.txt" >> "$data/$name.txt"
    r=$((r + 1))
  done < "$build/rec/$name.txt"
  replay "$name" "$np" "$apptime"
}

replay() { # name np apptime
  for p in "$plat" "$plat2"; do
    t=$(cd "$data" && smpirun -np "$2" -platform "$p" -hostfile "$hosts" -no-privatize \
          -replay "$1.txt" --cfg=smpi/display-timing:yes 2>&1 | simtime)
    echo "$1 $2 $(basename "$p") $3 $t" >> "$out"
  done
}

sed 's/bw="10Gbps"/bw="20Gbps"/; s/bb_bw="10Gbps"/bb_bw="20Gbps"/' "$plat" |
  sed 's/<!-- Flat cluster/<!-- cluster16.xml with every bandwidth doubled (record_ti.sh). Flat cluster/' > "$plat2"

record ti_pingpong 2
record ti_ring 8
record ti_stencil 8

# pure bandwidth: rank 0 sends 16 MiB to rank 1, which sends it back
rm -rf "$data/bw_files" && mkdir "$data/bw_files"
printf '0 init\n0 send 1 0 16777216 6\n0 recv 1 0 16777216 6\n0 finalize\n' > "$data/bw_files/rank-0.txt"
printf '1 init\n1 recv 0 0 16777216 6\n1 send 0 0 16777216 6\n1 finalize\n' > "$data/bw_files/rank-1.txt"
printf 'bw_files/rank-0.txt\nbw_files/rank-1.txt\n' > "$data/bw.txt"
replay bw 2 -
cat "$out"
