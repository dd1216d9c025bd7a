#!/usr/bin/env bash
# Records the routes SimGrid 3.32 computes on the platforms of this directory into
# <platform>.routes, for tests/check_routing.c to compare ours against. Idempotent.
#
# Usage: tests/data/routing/record.sh [platform...]   (needs g++, pkg-config, libsimgrid-dev)
#   with no argument, every platform below; else only <platform>.xml (every pair of hosts),
#   e.g. the platform of a new topology (kernel/topo.h)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
build=$(mktemp -d "${TMPDIR:-/tmp}/routing-probe.XXXXXX")
trap 'rm -rf "$build"' EXIT
g++ -std=c++17 -O1 -Wall -Wextra -o "$build/probe" probe.cpp $(pkg-config --cflags --libs simgrid)
version=$(smpirun -version 2>/dev/null | head -n 1 || echo "SimGrid (version unknown)")
pkg=$(dpkg-query -W -f='${Package} ${Version}' libsimgrid-dev 2>/dev/null || echo "libsimgrid-dev")

record() { # platform pair-spec...
  local plat=$1
  shift
  {
    echo "# routes computed by SimGrid for $plat"
    echo "# simgrid: $version ($pkg)"
    echo "# command: tests/data/routing/probe $plat $*   (probe built from probe.cpp, run in tests/data/routing)"
    "$build/probe" "$plat" "$@" 2>/dev/null
  } > "${plat%.xml}.routes"
}

if [ $# -gt 0 ]; then
  for p in "$@"; do
    record "${p%.xml}.xml" all
  done
  exit 0
fi

for p in flat flat_shared flat_fatpipe flat_splitduplex full nested floyd tie_floyd tie_dijkstra \
         tie_dijkstra_cache chain_floyd bypass bypass_deep cluster_zone nested_clusters \
         fat_tree fat_tree_parallel fat_tree_3l fat_tree_limiter fat_tree_offset \
         torus torus_ring4 torus_limiter torus_offset \
         dragonfly dragonfly_3c dragonfly_limiter dragonfly_bw; do
  record "$p.xml" all
done
# SimGrid's Dijkstra loops forever on unreachable pairs: only reachable ones
for p in dijkstra dijkstra_cache; do
  record "$p.xml" a a a b b a c d b b d d
done
