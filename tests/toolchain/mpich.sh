#!/bin/sh
# The MPI test programs under a real MPI (Debian's mpich): each program of the mpi_tests list
# of tests/mpi/meson.build, built with mpicc and run with `mpirun -np N` (the same N), must
# print the same final line "<name>: OK" as under smpirun. 77 (skip) without mpicc/mpirun.
#   mpich.sh SOURCE_ROOT
SRC=$1
. "$(dirname "$0")/lib.sh"
for p in mpicc mpirun; do
  command -v $p >/dev/null 2>&1 || { echo "SKIP: $p is not installed (Debian: mpich)"; exit 77; }
done

# Simulator-only programs of the list, skipped here (space-separated names). Empty today:
# every mpi_tests program is an ordinary MPI program (shared_malloc and partial_shared
# fall back to malloc outside smpi, p2p_globals is a plain exchange there; all pass under
# mpich 4.0). Programs that only make sense in simulation are kept out of mpi_tests anyway:
# p2p_deadlock (expects the deadlock report), p2p_timing and pingpong (SimGrid's dates),
# privatize_* (per-rank copies of globals under --cfg=smpi/privatization).
excluded=" "
# Real processes beyond this many oversubscribe the 2 cores of the machines this runs on so
# much that a 64-process collective sweep takes minutes under mpich (it takes seconds in
# simulation); run with SMPI_MPICH_MAX_NP=64 to include them.
max_np=${SMPI_MPICH_MAX_NP:-16}

# entries look like:  ['p2p_basic', 4, []],
list=$(sed -n '/^mpi_tests = \[/,/^\]/p' "$SRC/tests/mpi/meson.build" |
       sed -n "s/^ *\['\([A-Za-z0-9_]*\)', *\([0-9]*\),.*/\1 \2/p")
[ -n "$list" ] || { echo "FAIL: no mpi_tests entry found in tests/mpi/meson.build"; exit 1; }
cd "$T" || exit 1
echo "$list" | while read -r name np; do
  case $excluded in *" $name "*) echo "skip $name (simulator-only)"; continue ;; esac
  if [ "$np" -gt "$max_np" ]; then
    echo "skip $name (-np $np: more real processes than SMPI_MPICH_MAX_NP=$max_np)"
    continue
  fi
  if ! mpicc -O1 -o "$name" "$SRC/tests/mpi/$name.c" >"$T/err" 2>&1; then
    echo "FAIL $name: does not compile with mpicc"; sed 's/^/     /' "$T/err" | head -10
    echo fail >>"$T/failed"; continue
  fi
  timeout 60 mpirun -np "$np" "./$name" >"$T/out" 2>"$T/err" </dev/null
  rc=$?
  if [ $rc -eq 0 ] && [ "$(tail -n 1 "$T/out")" = "$name: OK" ]; then
    echo "ok   $name (mpirun -np $np)"
  else
    echo "FAIL $name (mpirun -np $np): exit code $rc$([ $rc -eq 124 ] && echo ', timed out'), last line '$(tail -n 1 "$T/out")'"
    sed 's/^/     stderr| /' "$T/err" | head -10
    echo fail >>"$T/failed"
  fi
done
[ ! -f "$T/failed" ] || { echo "$(wc -l <"$T/failed") program(s) failed under mpich"; exit 1; }
echo "all passed"
