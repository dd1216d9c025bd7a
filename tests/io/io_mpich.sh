#!/bin/sh
# The MPI-IO test programs under Debian's MPICH (ROMIO): each program of io_tests in
# tests/io/meson.build, built with mpicc and run with `mpirun -np N` in a temporary directory
# (the files they make land there), must print the same "<name>: OK" as under smpirun: the
# data and error classes smpi gives are ROMIO's. 77 (skip) without mpicc/mpirun.
#   io_mpich.sh SOURCE_ROOT
SRC=$1
. "$SRC/tests/toolchain/lib.sh"
for p in mpicc mpirun; do
  command -v $p >/dev/null 2>&1 || { echo "SKIP: $p is not installed (Debian: mpich)"; exit 77; }
done
# simulator-only programs (simulated dates): space-separated names
excluded=" io_timing "
list=$(sed -n '/^io_tests = \[/,/^\]/p' "$SRC/tests/io/meson.build" |
       sed -n "s/^ *\['\([A-Za-z0-9_]*\)', *\([0-9]*\),.*/\1 \2/p")
[ -n "$list" ] || { echo "FAIL: no io_tests entry found in tests/io/meson.build"; exit 1; }
cd "$T" || exit 1
echo "$list" | while read -r name np; do
  case $excluded in *" $name "*) echo "skip $name (simulator-only)"; continue ;; esac
  if ! mpicc -O1 -o "$name" "$SRC/tests/io/$name.c" >"$T/err" 2>&1; then
    echo "FAIL $name: does not compile with mpicc"; sed 's/^/     /' "$T/err" | head -10
    echo fail >>"$T/failed"; continue
  fi
  timeout 120 mpirun -np "$np" "./$name" >"$T/out" 2>"$T/err" </dev/null
  rc=$?
  if [ $rc -eq 0 ] && [ "$(tail -n 1 "$T/out")" = "$name: OK" ]; then
    echo "ok   $name (mpirun -np $np)"
  else
    echo "FAIL $name (mpirun -np $np): exit code $rc, last line '$(tail -n 1 "$T/out")'"
    sed 's/^/     stderr| /' "$T/err" | head -10
    echo fail >>"$T/failed"
  fi
done
# the MPI-IO examples of tools/examples/io/ (they check their own data)
for name in io_bench io_checkpoint; do
  if ! mpicc -O1 -o "$name" "$SRC/tools/examples/io/$name.c" >"$T/err" 2>&1; then
    echo "FAIL $name: does not compile with mpicc"; echo fail >>"$T/failed"; continue
  fi
  for args in "" "-c"; do
    [ "$name" = io_checkpoint ] && [ -n "$args" ] && continue
    timeout 120 mpirun -np 4 "./$name" $args >"$T/out" 2>"$T/err" </dev/null
    if [ $? -eq 0 ] && [ "$(tail -n 1 "$T/out")" = "$name: OK" ]; then
      echo "ok   $name $args (mpirun -np 4)"
    else
      echo "FAIL $name $args (mpirun -np 4): last line '$(tail -n 1 "$T/out")'"
      sed 's/^/     stderr| /' "$T/err" | head -10
      echo fail >>"$T/failed"
    fi
  done
done
[ ! -f "$T/failed" ] || { echo "$(wc -l <"$T/failed") program(s) failed under mpich"; exit 1; }
echo "all passed"
