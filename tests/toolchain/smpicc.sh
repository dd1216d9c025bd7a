#!/bin/sh
# smpicc / smpicxx: options in any order, separate compilation, compile-only and
# shared-library modes, -show, SMPI_CC / SMPI_CXX, a C++ program.
#   smpicc.sh SMPICC SMPICXX SMPIRUN
SMPICC=$1 SMPICXX=$2 SMPIRUN=$3
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
cd "$T" || exit 1

# A program in two files, plus a static library with its own header in other directories.
mkdir inc lib
cat >inc/twice.h <<'X'
int twice(int);
X
cat >twice.c <<'X'
#include "twice.h"
int twice(int x) { return 2 * x; }
X
cat >main.c <<'X'
#include <mpi.h>
#include <stdio.h>
#include "twice.h"
int peer_value(int rank);
int main(int argc, char **argv)
{
  int rank, size, got;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int mine = peer_value(rank);
  MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
               (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (got != twice((rank + size - 1) % size) + 1) { printf("wrong value %d\n", got); return 1; }
  MPI_Finalize();
  if (rank == 0) printf("%s\n", MSG);
  return 0;
}
X
cat >peer.c <<'X'
#include <mpi.h>
#include "twice.h"
int peer_value(int rank);
int peer_value(int rank) { return twice(rank) + 1; }
X
cc -c -Iinc twice.c -o twice.o && ar rc lib/libtwice.a twice.o || { echo "FAIL cc/ar"; exit 1; }

runs_ok() { # NAME PROGRAM: runs on 3 ranks and prints the message
  t_run "$1" "$SMPIRUN" -np 3 "$2"
  t_expect_rc 0 && t_grep_out '^hello world$' && t_ok "$1"
}
# one command, options scattered before, between and after the sources
t_run any_order "$SMPICC" -o prog1 -Iinc main.c -DMSG='"hello world"' -L lib peer.c -O1 -ltwice
t_expect_rc 0 && runs_ok any_order_run ./prog1
t_run any_order2 "$SMPICC" main.c -Llib peer.c -ltwice -I inc -o prog2 -DMSG='"hello world"' -lm
t_expect_rc 0 && runs_ok any_order2_run ./prog2
# separate compilation: -c with and without -o, then a link of objects only
t_run compile_o "$SMPICC" -c main.c -o m.o -Iinc -DMSG='"hello world"'
t_expect_rc 0 && [ -f m.o ] && t_ok compile_o
t_run compile "$SMPICC" -Iinc -c peer.c
t_expect_rc 0 && [ -f peer.o ] && [ ! -f a.out ] && t_ok compile
t_run link_objects "$SMPICC" m.o peer.o -Llib -ltwice -o prog3
t_expect_rc 0 && runs_ok link_objects_run ./prog3
# default output name
t_run a_out "$SMPICC" m.o peer.o lib/libtwice.a
t_expect_rc 0 && runs_ok a_out_run ./a.out

# compile-only modes produce what the compiler produces, with smpi's headers
t_run preprocess "$SMPICC" -E -Iinc peer.c
t_expect_rc 0 && t_grep_out 'MPI_Init' && t_ok preprocess
t_run assemble "$SMPICC" -S -Iinc peer.c -o peer.s
t_expect_rc 0 && [ -s peer.s ] && t_ok assemble
t_run depend "$SMPICC" -M -Iinc peer.c
t_expect_rc 0 && t_grep_out 'mpi\.h' && t_ok depend
t_run depend_mm "$SMPICC" -MM -Iinc peer.c
t_expect_rc 0 && t_grep_out 'twice\.h' && t_ok depend_mm
t_run syntax "$SMPICC" -fsyntax-only -Iinc peer.c
t_expect_rc 0 && t_ok syntax

# -show prints the command and builds nothing; link flags only when linking a program
show_has() { # NAME WANT(yes|no) args...: does -show's line carry the program link flags?
  n=$1 want=$2; shift 2
  t_run "$n" "$SMPICC" -show "$@"
  t_expect_rc 0 || return
  if grep -q -e '--wrap=main' out; then has=yes; else has=no; fi
  if [ "$has" != "$want" ]; then t_fail "$n" "--wrap=main present: $has, expected $want"; return; fi
  if ! grep -q -e "-I[^ ]*smpi" out; then t_fail "$n" "no -I of smpi's headers"; return; fi
  t_ok "$n"
}
show_has show_link yes main.c -o never
[ -e never ] && t_fail show_builds_nothing "-show created its output file" || t_ok show_builds_nothing
grep -q -e '-lsmpi' out && grep -q "main.c -o never" out && t_ok show_link_lib ||
  t_fail show_link_lib "$(cat out)"
show_has show_c no -c main.c
show_has show_E no -E main.c
show_has show_S no -S main.c
show_has show_M no -M main.c
show_has show_MM no -MM main.c
show_has show_syntax no -fsyntax-only main.c
show_has show_shared no -shared -fPIC peer.c -o libpeer.so
grep -q -e '-lsmpi' out && t_ok show_shared_lib || t_fail show_shared_lib "-shared should link libsmpi"
show_has show_shared_c no -shared -c peer.c
t_run show_quoting "$SMPICC" -show -DMSG='"a b"' main.c
t_expect_rc 0 && t_grep_out "'-DMSG=\"a b\"'" && t_ok show_quoting

# a shared library of MPI code used by a program
t_run shared_lib "$SMPICC" -shared -fPIC -Iinc peer.c twice.c -o lib/libpeer.so
t_expect_rc 0 && t_ok shared_lib
t_run shared_lib_link "$SMPICC" -Iinc -DMSG='"hello world"' main.c -Llib -lpeer -Wl,-rpath,"$T/lib" -o prog4
t_expect_rc 0 && runs_ok shared_lib_run ./prog4

# SMPI_CC / SMPI_CXX choose the compiler; a fake one records what it was given
cat >fakecc <<'X'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done >"$FAKE_LOG"
X
chmod +x fakecc
FAKE_LOG=$T/fake.log; export FAKE_LOG
t_run smpi_cc_env env SMPI_CC="$T/fakecc" "$SMPICC" -O2 x.c -o 'my prog' -lfoo
if t_expect_rc 0; then
  # the user's arguments arrive unchanged and in order
  grep -x -e '-O2' -e 'x.c' -e '-o' -e 'my prog' -e '-lfoo' fake.log >seen
  printf '%s\n' -O2 x.c -o 'my prog' -lfoo >want
  cmp -s want seen && t_ok smpi_cc_env || t_fail smpi_cc_env "fake compiler got: $(tr '\n' ' ' <fake.log)"
fi
t_run smpi_cc_show env SMPI_CC="$T/fakecc" "$SMPICC" -show x.c
t_expect_rc 0 && t_grep_out "^$T/fakecc " && t_ok smpi_cc_show
# a compiler given with its own options (SMPI_CC="ccache gcc" style)
t_run smpi_cc_words env SMPI_CC="$T/fakecc -DFROM_ENV" "$SMPICC" -c x.c
t_expect_rc 0 && grep -qx -e '-DFROM_ENV' fake.log && t_ok smpi_cc_words ||
  t_fail smpi_cc_words "$(tr '\n' ' ' <fake.log)"
t_run smpi_cxx_env env SMPI_CXX="$T/fakecc" SMPI_CC=false "$SMPICXX" -c y.cc
t_expect_rc 0 && grep -qx 'y.cc' fake.log && t_ok smpi_cxx_env
t_run smpi_cxx_default env -u SMPI_CXX SMPI_CC="$T/fakecc" "$SMPICXX" -show -c y.cc
t_expect_rc 0 && ! grep -q fakecc out && t_ok smpi_cxx_default

# C++: smpicxx builds and runs a C++ MPI program
if command -v c++ >/dev/null 2>&1; then
  t_run cxx "$SMPICXX" -O1 -Wall -Wextra "$here/hello.cc" -o hello_cxx
  if t_expect_rc 0; then
    t_run cxx_run "$SMPIRUN" -np 4 ./hello_cxx
    t_expect_rc 0 && t_grep_out '^hello_cxx: OK$' && t_ok cxx_run
  fi
  # a C++ source and a C object in one program
  t_run cxx_mixed "$SMPICC" -c -Iinc peer.c -o peer_c.o
  cat >mix.cc <<'X'
#include <mpi.h>
#include <cstdio>
extern "C" int peer_value(int rank);
int main(int argc, char **argv) { MPI_Init(&argc, &argv); int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (peer_value(r) != 2 * r + 1) return 1; MPI_Finalize(); if (r == 0) std::puts("hello world"); }
X
  t_run cxx_mixed "$SMPICXX" mix.cc peer_c.o -Llib -ltwice -o mix
  t_expect_rc 0 && runs_ok cxx_mixed_run ./mix
fi

# a program run without smpirun is one ordinary process: one rank (it sends to itself)
t_run no_launcher ./prog1
t_expect_rc 0 && t_grep_out '^hello world$' && t_ok no_launcher
t_done
