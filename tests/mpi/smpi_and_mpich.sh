#!/bin/sh
# One MPI semantics test, run twice in the same test: under smpirun (the program built by our
# smpicc) and under Debian's MPICH (the same source built with mpicc, run by mpiexec with the
# same number of processes), which proves the test itself right. Both must end with the line
# "NAME: OK". Without mpicc/mpiexec the MPICH half is reported as skipped, not failed.
#   smpi_and_mpich.sh NAME NP SMPIRUN PROG SOURCE [smpirun options...]
set -u
name=$1 np=$2 smpirun=$3 prog=$4 src=$5
shift 5
T=$(mktemp -d "${TMPDIR:-/tmp}/smpi-mpich.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
fail=0

"$smpirun" -np "$np" "$@" "$prog" >"$T/out" 2>"$T/err" </dev/null
rc=$?
if [ $rc -eq 0 ] && [ "$(tail -n 1 "$T/out")" = "$name: OK" ]; then
  echo "ok   $name under smpirun -np $np"
else
  echo "FAIL $name under smpirun -np $np: exit code $rc, last line '$(tail -n 1 "$T/out")'"
  sed 's/^/     stderr| /' "$T/err" | head -30
  fail=1
fi

if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpiexec >/dev/null 2>&1; then
  echo "skip $name under MPICH: mpicc/mpiexec not installed (Debian: mpich)"
  exit $fail
fi
if ! mpicc -O1 -o "$T/$name" "$src" >"$T/err" 2>&1; then
  echo "FAIL $name: does not compile with mpicc"
  sed 's/^/     /' "$T/err" | head -10
  exit 1
fi
timeout 120 mpiexec -np "$np" "$T/$name" >"$T/out" 2>"$T/err" </dev/null
rc=$?
if [ $rc -eq 0 ] && [ "$(tail -n 1 "$T/out")" = "$name: OK" ]; then
  echo "ok   $name under mpiexec -np $np (MPICH)"
else
  echo "FAIL $name under mpiexec -np $np (MPICH): exit code $rc, last line '$(tail -n 1 "$T/out")'"
  sed 's/^/     stderr| /' "$T/err" | head -10
  fail=1
fi
exit $fail
