#!/bin/sh
# smpif90 as build systems use it (tests/toolchain/lib.sh helpers):
#   toolchain.sh cli SMPIF90 SMPIRUN        -show, smpiff/smpifort, SMPI_FC, separate compile
#                                           and link with options in any order
#   toolchain.sh autotools SMPIF90 SMPIRUN  FC=smpif90 ./configure && make (77: no autotools)
#   toolchain.sh cmake SMPIF90 SMPIRUN      FC=smpif90 cmake: find_package(MPI COMPONENTS
#                                           Fortran), then make (77: cmake not installed)
# The project is tests/fortran/project: a module and a program in two files (fring: OK).
MODE=$1 SMPIF90=$2 SMPIRUN=$3
. "$(dirname "$0")/../toolchain/lib.sh"
src=$(cd "$(dirname "$0")/project" && pwd)
dir=$(dirname "$SMPIF90")
cd "$T" || exit 1
cp "$src/fring.f90" "$src/fring_mod.f90" .
case $MODE in
  cli)
    t_run show_compile "$SMPIF90" -show -c fring.f90
    t_expect_rc 0 && t_grep_out "^gfortran .*-I$dir .*-c fring.f90" &&
      ! grep -q -e '--wrap' "$T/out" && t_ok show_compile
    t_run show_link "$SMPIF90" -show fring.o -o fring
    t_expect_rc 0 && t_grep_out '-Wl,--wrap=main' && t_grep_out '-Wl,--wrap=_gfortran_stop_numeric' &&
      t_grep_out '-lsmpi' && t_ok show_link
    for w in smpiff smpifort; do
      t_run "$w" "$dir/$w" -show -c fring.f90
      t_expect_rc 0 && t_grep_out "^gfortran .*-c fring.f90" && t_ok "$w"
    done
    t_run smpi_fc env SMPI_FC=my-fortran "$SMPIF90" -show -c fring.f90
    t_expect_rc 0 && t_grep_out '^my-fortran ' && t_ok smpi_fc
    # mpif.h in fixed form and the mpi module under the strict standards
    printf '%s\n' '      PROGRAM STD' "      INCLUDE 'mpif.h'" '      INTEGER IERR' \
      '      DOUBLE PRECISION T' '      CALL MPI_INIT(IERR)' '      T = MPI_WTIME()' \
      '      CALL MPI_FINALIZE(IERR)' '      END' >std.f
    t_run mpif_std "$SMPIF90" -std=f95 -Wall -c std.f
    t_expect_rc 0 && t_ok mpif_std
    t_run module_std "$SMPIF90" -std=f2008 -Wall -c fring_mod.f90 fring.f90
    t_expect_rc 0 && t_ok module_std
    t_run compile_module "$SMPIF90" -O1 -c fring_mod.f90
    t_expect_rc 0 && t_ok compile_module
    t_run compile_main "$SMPIF90" -c -g fring.f90 -O1
    t_expect_rc 0 && t_ok compile_main
    # -o first, -L/-l after the objects
    t_run link "$SMPIF90" -o fring fring_mod.o -O1 fring.o -L"$T" -lm
    t_expect_rc 0 && [ -x fring ] && t_ok link
    t_run run "$SMPIRUN" -np 5 ./fring
    t_expect_rc 0 && t_grep_out '^fring: OK (5 ranks)' && t_ok run
    # run without smpirun: one rank, as a configure test program is
    t_run run_alone ./fring
    t_expect_rc 0 && t_grep_out '^fring: OK (1 ranks)' && t_ok run_alone ;;
  autotools)
    for p in autoreconf autoconf automake make; do
      command -v $p >/dev/null 2>&1 || { echo "SKIP: $p is not installed"; exit 77; }
    done
    cp "$src/configure.ac" "$src/Makefile.am" .
    t_run autoreconf autoreconf -i
    t_expect_rc 0 && t_ok autoreconf || t_done
    t_run configure env FC="$SMPIF90" ./configure
    if ! t_expect_rc 0; then
      [ -f config.log ] && tail -40 config.log
      t_done
    fi
    t_grep_out "an MPI program runs without a launcher... yes" && t_ok configure
    t_run make make
    t_expect_rc 0 && [ -x fring ] && t_ok make
    t_run fring "$SMPIRUN" -np 4 ./fring
    t_expect_rc 0 && t_grep_out '^fring: OK (4 ranks)' && t_ok fring ;;
  cmake)
    for p in cmake make; do
      command -v $p >/dev/null 2>&1 || { echo "SKIP: $p is not installed"; exit 77; }
    done
    cp "$src/CMakeLists.txt" .
    t_run cmake env FC="$SMPIF90" cmake .
    t_expect_rc 0 && t_grep_out 'Found MPI_Fortran: ' && t_ok cmake
    t_run make make
    t_expect_rc 0 && [ -x fring ] && t_ok make
    t_run fring "$SMPIRUN" -np 3 ./fring
    t_expect_rc 0 && t_grep_out '^fring: OK (3 ranks)' && t_ok fring ;;
  *) echo "usage: toolchain.sh cli|autotools|cmake SMPIF90 SMPIRUN"; exit 2 ;;
esac
t_done
