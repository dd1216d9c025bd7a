#!/bin/sh
# Records SimGrid 3.32's Paje trace of tests/trace22/categories.c (tracing categories) into
# tests/data/trace22/simgrid_categories.trace, which tests/trace22/categories.py compares
# with ours: container types, variable types (names, colours), containers, their fixed
# variables. The line holding SimGrid's command (temporary build path) is dropped.
# Needs smpicc and smpirun of SimGrid 3.32 (Debian libsimgrid-dev). Run from anywhere.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(mktemp -d /tmp/simgrid-trace22.XXXXXX)
trap 'rm -rf "$build"' EXIT
cd "$root"
echo "== smpicc -O1 -o $build/categories tests/trace22/categories.c" >&2
smpicc -O1 -o "$build/categories" tests/trace22/categories.c
cmd="smpirun -np 3 -platform tests/data/trace22/star3.xml -hostfile tests/data/trace22/star3_hosts.txt \
-trace -trace-file $build/t.trace --cfg=tracing/categorized:yes --cfg=tracing/uncategorized:yes \
--cfg=tracing/precision:9 --cfg=smpi/simulate-computation:no $build/categories"
echo "== $cmd" >&2
$cmd >"$build/log" 2>&1 || { cat "$build/log" >&2; exit 1; }
grep -v '^#\[' "$build/t.trace" >tests/data/trace22/simgrid_categories.trace
echo "== wrote tests/data/trace22/simgrid_categories.trace" >&2
