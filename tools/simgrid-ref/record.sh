#!/usr/bin/env bash
# Rebuild the reference programs against the installed SimGrid and rewrite every reference
# file under tests/data/simgrid-ref/. Idempotent: the outputs carry no dates or paths that
# change between runs, so re-running on the same SimGrid leaves git clean.
#
# Usage: tools/simgrid-ref/record.sh            (from anywhere)
# Env:   SGREF_BUILD=<dir>   where the programs are built (default: a fresh temp dir)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

out=tests/data/simgrid-ref
plat=$out/platforms
if [ -n "${SGREF_BUILD:-}" ]; then
  build=$SGREF_BUILD
  mkdir -p "$build"
else
  build=$(mktemp -d "${TMPDIR:-/tmp}/simgrid-ref.XXXXXX")
  trap 'rm -rf "$build"' EXIT
fi

say() { printf '== %s\n' "$*" >&2; }

for tool in g++ pkg-config smpicc smpirun; do
  command -v "$tool" >/dev/null || { echo "record.sh: '$tool' not found; install libsimgrid-dev and g++" >&2; exit 1; }
done
sg_version=$(smpirun -version 2>/dev/null | head -n 1)
sg_pkg=$(dpkg-query -W -f='${Package} ${Version}' libsimgrid-dev 2>/dev/null || echo "libsimgrid-dev (version unknown)")
say "SimGrid: $sg_version ($sg_pkg); build dir: $build"

start=$(date +%s)

# ---------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------
netref_build=(g++ -std=c++17 -O2 -Wall -Wextra -o "$build/netref" tools/simgrid-ref/netref.cpp
  $(pkg-config --cflags --libs simgrid))
say "build: ${netref_build[*]}"
"${netref_build[@]}"

pingpong_build=(smpicc -std=c11 -O2 -Wall -Wextra -o "$build/pingpong" tests/mpi/pingpong.c)
say "build: ${pingpong_build[*]}"
# smpicc/smpirun log INFO lines on stderr; keep them out of the way unless something fails.
"${pingpong_build[@]}" 2>"$build/smpicc.log" || { cat "$build/smpicc.log" >&2; exit 1; }

# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------
# quote ARGS...: the arguments as one shell-quoted line (what the header shows).
# Plain words stay bare; anything else is single-quoted (POSIX-shell safe).
quote() {
  local a s="" q="'"
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then s+="${s:+ }$a"; else s+="${s:+ }'${a//$q/$q\\$q$q}'"; fi
  done
  printf '%s' "$s"
}

# record FILE DESCRIPTION PROGRAM ARGS...: run PROGRAM (netref or pingpong, found in $build)
# from the repository root and write FILE with a header. In the header the program is named
# by its bare name; everything else is exactly what ran.
record() {
  local file=$1 desc=$2 prog=$3
  shift 3
  local shown
  local -a cmd
  if [ "$prog" = netref ]; then
    cmd=("$build/netref" "$@")
    shown=$(quote netref "$@")
  else # smpirun ... pingpong ...: the program path sits inside the arguments
    cmd=()
    local a
    for a in "$@"; do
      if [ "$a" = pingpong ]; then cmd+=("$build/pingpong"); else cmd+=("$a"); fi
    done
    shown=$(quote "$@")
  fi
  say "run:  $shown  >  $out/$file"
  local tmp="$build/$file.tmp"
  {
    printf '# %s\n' "$desc"
    printf '# simgrid: %s (%s)\n' "$sg_version" "$sg_pkg"
    printf '# command: %s\n' "$shown"
    printf '# (run from the repository root; netref = tools/simgrid-ref/netref.cpp, pingpong = tests/mpi/pingpong.c, built by tools/simgrid-ref/record.sh)\n'
    if [ "$prog" = netref ]; then
      "${cmd[@]}" 2>"$build/$file.err"
    else
      printf '# columns: pingpong size(bytes) one_way(s)\n'
      "${cmd[@]}" 2>"$build/$file.err"
    fi
  } >"$tmp" || { echo "record.sh: failed producing $file; stderr:" >&2; cat "$build/$file.err" >&2; exit 1; }
  mv "$tmp" "$out/$file"
}

# ---------------------------------------------------------------------------------------
# 1a. One transfer per size between two hosts
# ---------------------------------------------------------------------------------------
# Powers of two 1 B .. 16 MiB, the empty message, and each default SMPI factor breakpoint B
# (payload thresholds) at B-1, B, B+1 and at B-17, B-16, B-15 (the sizes whose MPI payload,
# size + 16, sits on the breakpoint).
sizes=(0)
for ((p = 0; p <= 24; p++)); do sizes+=($((1 << p))); done
for b in 257 732 1426 3484 5776 9376 15424 65472; do
  for d in -17 -16 -15 -1 0 1; do sizes+=($((b + d))); done
done
mapfile -t sizes < <(printf '%s\n' "${sizes[@]}" | sort -n -u)

quiet=(--log=xbt_cfg.thresh:warning)
smpi=(--cfg=network/model:SMPI --cfg=surf/precision:1e-9)
nofactors=(--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1)

declare -A cfgs_desc=(
  [smpi]="network/model:SMPI with its default factors (what smpirun uses)"
  [smpi_nofactors]="network/model:SMPI with bw and lat factors disabled"
  [smpi_nocrosstraffic]="network/model:SMPI with network/crosstraffic:0 (not a default; isolates the 0.05 reverse-route consumption)"
  [cm02]="network/model:CM02 (no factors, no weight-S), surf/precision 1e-9 as under smpirun"
  [lv08]="network/model:LV08 (S4U's default model: lat factor 13.01, bw factor 0.97, weight-S 20537), surf/precision 1e-9"
)
cfg_args() {
  case $1 in
    smpi) printf '%s\n' "${smpi[@]}" ;;
    smpi_nofactors) printf '%s\n' "${smpi[@]}" "${nofactors[@]}" ;;
    smpi_nocrosstraffic) printf '%s\n' "${smpi[@]}" --cfg=network/crosstraffic:0 ;;
    cm02) printf '%s\n' --cfg=network/model:CM02 --cfg=surf/precision:1e-9 ;;
    lv08) printf '%s\n' --cfg=network/model:LV08 --cfg=surf/precision:1e-9 ;;
  esac
}

for c in smpi smpi_nofactors smpi_nocrosstraffic cm02 lv08; do
  mapfile -t ca < <(cfg_args $c)
  record "net_pair_$c.txt" "one transfer per size, A -> B over one SHARED link (platforms/pair.xml); ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/pair.xml pair A B "${sizes[@]}"
  record "net_c16pair_$c.txt" "one transfer per size, node-0 -> node-1 of a flat cluster with backbone (platforms/cluster16.xml); ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/cluster16.xml pair node-0 node-1 "${sizes[@]}"
done
for c in smpi smpi_nofactors cm02 lv08; do
  mapfile -t ca < <(cfg_args $c)
  record "net_wan_$c.txt" "one transfer per size, w-0 -> w-1 through a 20 ms backbone: TCP-gamma bound (platforms/cluster_wan.xml); ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/cluster_wan.xml pair w-0 w-1 "${sizes[@]}"
done

# ---------------------------------------------------------------------------------------
# 1b. Concurrent flows
# ---------------------------------------------------------------------------------------
kib=1024
mib=$((1024 * 1024))
# flow i: node-i -> node-((i+8) mod 16); for N <= 8 all hosts are distinct, for N = 16 each
# host sends one flow and receives one.
equal=()
for n in 1 2 4 8 16; do
  s=""
  for ((i = 0; i < n; i++)); do s+="${s:++}node-$i,node-$(((i + 8) % 16)),$mib"; done
  equal+=("$s")
done
# same pairs, flow i carries (i+1)*100 KiB, so completions are staggered and rates re-shared
staggered=()
for n in 2 4 8 16; do
  s=""
  for ((i = 0; i < n; i++)); do s+="${s:++}node-$i,node-$(((i + 8) % 16)),$(((i + 1) * 100 * kib))"; done
  staggered+=("$s")
done
# flows starting at different dates: 1 MiB each, flow i starts at i * 200 us
delayed=""
i=0
for t in 0 0.0002 0.0004 0.0006; do delayed+="${delayed:++}node-$i,node-$((i + 8)),$mib,$t"; i=$((i + 1)); done
# one host to 8 hosts: 1 MiB each, then (i+1)*100 KiB each
fan_eq=""
fan_st=""
for ((i = 1; i <= 8; i++)); do
  fan_eq+="${fan_eq:++}node-0,node-$i,$mib"
  fan_st+="${fan_st:++}node-0,node-$i,$((i * 100 * kib))"
done
# both directions at once (cross-traffic lands on the other flow's links)
bidir_pair=("A,B,$mib+B,A,$mib" "A,B,$mib+B,A,$((512 * kib))")
bidir_c16=("node-0,node-1,$mib+node-1,node-0,$mib" "node-0,node-1,$mib+node-1,node-0,$((512 * kib))")

# a large flow and a small one whose bandwidth factor differs (the small one starts later,
# during the large one's bandwidth phase): shows that the factor scales the speed of a flow
# that still holds its whole max-min share
mixedsizes=()
for small in 500 5000 10000 60000; do mixedsizes+=("node-0,node-8,$mib+node-1,node-9,$small,0.0001"); done
mixedsizes+=("node-0,node-8,$mib+node-1,node-9,300000+node-2,node-10,3000,0.0002")
# the same fan-out through genuinely FATPIPE host links (star_fatpipe.xml has h0..h8)
star_eq=""
star_st=""
for ((i = 1; i <= 8; i++)); do
  star_eq+="${star_eq:++}h0,h$i,$mib"
  star_st+="${star_st:++}h0,h$i,$((i * 100 * kib))"
done
# flows with different penalties on one link (mixed.xml): alone, then competing
weights=("A,C,1e7" "B,C,1e7" "D,C,1e7" "A,C,1e7+B,C,1e7" "A,C,1e7+D,C,1e7" "A,C,1e7+B,C,1e7+D,C,1e7"
  "A,C,1e6+B,C,4e6+D,C,2e6")

for c in smpi smpi_nofactors cm02 lv08; do
  mapfile -t ca < <(cfg_args $c)
  record "net_weights_$c.txt" "flows with different route latencies and link counts sharing one link: scenarios 0-2 alone (A->C, B->C, D->C), then competing; platforms/mixed.xml; ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/mixed.xml flows "${weights[@]}"
done

for c in smpi smpi_nofactors; do
  mapfile -t ca < <(cfg_args $c)
  record "net_flows_mixedsizes_$c.txt" "1 MiB node-0 -> node-8 plus a small flow node-1 -> node-9 (500, 5000, 10000, 60000 B) starting at 100us, then 1 MiB + 300000 B + 3000 B at 200us; platforms/cluster16.xml; ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/cluster16.xml flows "${mixedsizes[@]}"
  record "net_fanout_star_fatpipe_$c.txt" "8 simultaneous flows out of h0 to h1..8 through FATPIPE host links: scenario 0 1 MiB each, scenario 1 i*100 KiB to hi; platforms/star_fatpipe.xml; ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/star_fatpipe.xml flows "$star_eq" "$star_st"
  record "net_flows_equal_$c.txt" "N = 1, 2, 4, 8, 16 simultaneous 1 MiB flows node-i -> node-(i+8 mod 16) through the shared backbone (scenario k has N = 2^k); platforms/cluster16.xml; ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/cluster16.xml flows "${equal[@]}"
  record "net_flows_staggered_$c.txt" "N = 2, 4, 8, 16 simultaneous flows node-i -> node-(i+8 mod 16) of (i+1)*100 KiB (scenario k has N = 2^(k+1)); platforms/cluster16.xml; ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/cluster16.xml flows "${staggered[@]}"
  record "net_flows_delayed_$c.txt" "4 flows of 1 MiB node-i -> node-(i+8), flow i starts at i*200us; platforms/cluster16.xml; ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/cluster16.xml flows "$delayed"
  for p in cluster16 cluster16_fastbb cluster16_fastbb_fatpipe; do
    note=""
    [ $p = cluster16_fastbb_fatpipe ] && note=" (SimGrid 3.32 makes this cluster's FATPIPE private links SHARED)"
    record "net_fanout_${p}_$c.txt" "8 simultaneous flows out of node-0 to node-1..8: scenario 0 1 MiB each, scenario 1 i*100 KiB to node-i; platforms/$p.xml$note; ${cfgs_desc[$c]}" \
      netref "${quiet[@]}" "${ca[@]}" $plat/$p.xml flows "$fan_eq" "$fan_st"
  done
  record "net_bidir_pair_$c.txt" "A -> B and B -> A at once over one SHARED link: scenario 0 1 MiB both ways, scenario 1 1 MiB and 512 KiB; platforms/pair.xml; ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/pair.xml flows "${bidir_pair[@]}"
  record "net_bidir_c16_$c.txt" "node-0 -> node-1 and node-1 -> node-0 at once: scenario 0 1 MiB both ways, scenario 1 1 MiB and 512 KiB; platforms/cluster16.xml; ${cfgs_desc[$c]}" \
    netref "${quiet[@]}" "${ca[@]}" $plat/cluster16.xml flows "${bidir_c16[@]}"
done

# SimGrid's lazy max-min update (network/optim:Lazy, its default) gets this one wrong: A and
# B both enter node-0 (its DOWN link can give each 1.25e9/2), C enters A's source, D enters
# B's source. When the four leave their latency phase at the same date in the order
# A, B, C, D, Lazy gives all four 1.25e9/1.05 (node-0's DOWN link then carries 1.9 times its
# bandwidth) until another event touches those links; in the order C, D, A, B, at date 0,
# or without D it shares correctly, and network/optim:Full always does. smpi's solver has
# no lazy mode: its answer is Full's. Not named net_*: check_network replays those.
lz_a=node-1,node-0,65536 lz_b=node-3,node-0,65536 lz_c=node-2,node-1,65536 lz_d=node-4,node-3,65536
lazybug=("$lz_a,0.0001+$lz_b,0.0001+$lz_c,0.0001+$lz_d,0.0001"
  "$lz_c,0.0001+$lz_d,0.0001+$lz_a,0.0001+$lz_b,0.0001"
  "$lz_a+$lz_b+$lz_c+$lz_d"
  "$lz_a,0.0001+$lz_b,0.0001+$lz_c,0.0001")
lazybug_desc="A = node-1 -> node-0, B = node-3 -> node-0, C = node-2 -> node-1, D = node-4 -> node-3, 64 KiB each: scenario 0 A B C D all starting at 100 us, 1 the same in the order C D A B, 2 A B C D at 0, 3 A B C at 100 us; platforms/cluster16_fastbb.xml; ${cfgs_desc[smpi]}"
record lazybug_c16fastbb_smpi.txt "$lazybug_desc; network/optim:Lazy (default): scenario 0 is wrong (tools/simgrid-ref/README.md)" \
  netref "${quiet[@]}" "${smpi[@]}" $plat/cluster16_fastbb.xml flows "${lazybug[@]}"
record lazybug_c16fastbb_smpi_full.txt "$lazybug_desc; network/optim:Full" \
  netref "${quiet[@]}" "${smpi[@]}" --cfg=network/optim:Full $plat/cluster16_fastbb.xml flows "${lazybug[@]}"

# ---------------------------------------------------------------------------------------
# 1c. Computations
# ---------------------------------------------------------------------------------------
execs=(
  "one,1e9"
  "odd,1e9"
  "odd,123456789.5"
  "one,1e9+one,1e9"
  "one,1e9+one,2e9"
  "one,1e9+one,1e9,0.25"
  "two,1e9"
  "two,1e9+two,1e9"
  "two,1e9+two,2e9"
  "two,1e9+two,1e9+two,1e9"
  "two,1e9+two,2e9+two,3e9"
)
record "cpu_exec_smpi.txt" "executions on platforms/cpu.xml (one: 1 core 1Gf; two: 2 cores 1Gf each; odd: 1 core 1.7Gf), the executions of a scenario run concurrently; network/model:SMPI, surf/precision 1e-9" \
  netref "${quiet[@]}" "${smpi[@]}" $plat/cpu.xml exec "${execs[@]}"

# ---------------------------------------------------------------------------------------
# 2. MPI ping-pong under smpirun
# ---------------------------------------------------------------------------------------
# Ranks 0 and 1 map to node-0 and node-1 (smpirun -platform without -hostfile takes the
# platform's hosts in order). smpi/wtime:0 so that MPI_Wtime injects no time into the
# measured interval (with the default 1e-8 s, one injection lands inside it: +1e-8/6 s on
# each one-way value; pingpong_default_wtime.txt records that).
pp=(smpirun -np 2 -platform $plat/cluster16.xml --cfg=smpi/simulate-computation:no "${quiet[@]}")
affine=(--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=smpi/os:0:0:0 --cfg=smpi/or:0:0:0 --cfg=smpi/ois:0:0:0)
custom=("--cfg=smpi/bw-factor:0:0.5;1024:0.8;65536:0.95" "--cfg=smpi/lat-factor:0:2;1024:3;65536:5"
  "--cfg=smpi/os:0:1e-6:1e-9;1024:2e-6:5e-10;65536:5e-6:1e-10"
  "--cfg=smpi/or:0:1.5e-6:2e-9;1024:3e-6:1e-9;65536:6e-6:2e-10"
  "--cfg=smpi/ois:0:5e-7:1e-10")
record pingpong_default.txt "MPI ping-pong node-0 <-> node-1, platforms/cluster16.xml, default SMPI factors, smpi/wtime:0" \
  pingpong "${pp[@]}" --cfg=smpi/wtime:0 pingpong
record pingpong_default_wtime.txt "as pingpong_default.txt but with the default smpi/wtime (1e-8 s per MPI_Wtime call)" \
  pingpong "${pp[@]}" pingpong
record pingpong_affine.txt "MPI ping-pong node-0 <-> node-1, platforms/cluster16.xml, factors and overheads disabled (affine), smpi/wtime:0" \
  pingpong "${pp[@]}" --cfg=smpi/wtime:0 "${affine[@]}" pingpong
record pingpong_custom.txt "MPI ping-pong node-0 <-> node-1, platforms/cluster16.xml, custom piecewise factors and non-zero os/or/ois, smpi/wtime:0" \
  pingpong "${pp[@]}" --cfg=smpi/wtime:0 "${custom[@]}" pingpong
record pingpong_nocrosstraffic.txt "MPI ping-pong node-0 <-> node-1, platforms/cluster16.xml, default SMPI factors, network/crosstraffic:0 (not a default), smpi/wtime:0" \
  pingpong "${pp[@]}" --cfg=smpi/wtime:0 --cfg=network/crosstraffic:0 pingpong
record pingpong_wan.txt "MPI ping-pong w-0 <-> w-1 through a 20 ms backbone (TCP-gamma bound), platforms/cluster_wan.xml, default SMPI factors, smpi/wtime:0" \
  pingpong smpirun -np 2 -platform $plat/cluster_wan.xml --cfg=smpi/simulate-computation:no "${quiet[@]}" --cfg=smpi/wtime:0 pingpong

say "done in $(($(date +%s) - start)) s; files in $out"

# The references are whatever SimGrid printed; this only tells whether the documented model
# (README.md, model.py) still explains them.
if command -v python3 >/dev/null; then
  say "check: tools/simgrid-ref/model.py"
  python3 tools/simgrid-ref/model.py | tail -n 1 >&2 || say "WARNING: the model in model.py no longer explains every file (see its output)"
fi
