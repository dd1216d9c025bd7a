#!/bin/sh
# The installed toolchain works: `meson install --destdir` into a temporary directory, then
# build tests/mpi/p2p_basic.c with the INSTALLED smpicc (and with pkg-config's flags) and
# run it with the INSTALLED smpirun; and every other installed program too, from the staged
# prefix with no LD_LIBRARY_PATH: smpicxx, smpirun -replay (smpi-replay, which links
# libsmpi.so and finds it by its run path), smpi-gantt and smpi-calibrate (when cairo was
# found), smpi-sweep (when libyaml and SQLite were). An executable in BINDIR that this script does not know fails the test, so a new
# installed tool comes with its check here.
#   install.sh BUILD_ROOT SOURCE_ROOT PREFIX BINDIR LIBDIR INCLUDEDIR DATADIR TOOLS
# TOOLS: the space-separated names of the programs the build installs into BINDIR.
#
# The installed smpicc names its files by the configured prefix (/usr/local by default),
# which a test must not write to. Staged under DESTDIR, the files sit at DESTDIR/PREFIX, so
# the test points the staged smpicc's three paths there (what a relocating packager does)
# and pkg-config's prefix with --define-variable. Everything else is the installed files as
# they are; the checks below also make sure that none of them refers to the build tree.
BUILD=$1 SRC=$2 PREFIX=$3 BINDIR=$4 LIBDIR=$5 INCLUDEDIR=$6 DATADIR=$7 TOOLS=$8
. "$(dirname "$0")/lib.sh"
case $BINDIR in /*) ;; *) BINDIR=$PREFIX/$BINDIR ;; esac
case $LIBDIR in /*) ;; *) LIBDIR=$PREFIX/$LIBDIR ;; esac
case $INCLUDEDIR in /*) ;; *) INCLUDEDIR=$PREFIX/$INCLUDEDIR ;; esac
case $DATADIR in /*) ;; *) DATADIR=$PREFIX/$DATADIR ;; esac
D=$T/stage

t_run install meson install -C "$BUILD" --no-rebuild --destdir "$D"
t_expect_rc 0 && t_ok install || t_done
for f in "$LIBDIR/libsmpi.so" "$LIBDIR/libsmpi_main.a" "$INCLUDEDIR/smpi/mpi.h" \
         "$INCLUDEDIR/smpi/smpi.h" "$LIBDIR/pkgconfig/smpi.pc" "$DATADIR/smpi/smpi.dtd" \
         "$DATADIR/smpi/platforms/cluster_flat.xml"; do
  [ -e "$D$f" ] && t_ok "installed $f" || t_fail "installed $f" "missing"
done
for tool in $TOOLS; do
  [ -x "$D$BINDIR/$tool" ] && t_ok "installed $tool" || t_fail "installed $tool" "missing"
done
# every installed program is one this script runs below
for f in "$D$BINDIR"/*; do
  case ${f##*/} in
    smpicc | smpicxx | smpirun | smpi-replay | smpi-gantt | smpi-calibrate | smpi-sweep) ;;
    smpif90 | smpiff | smpifort) ;;
    *) t_fail "known ${f##*/}" "installed into $BINDIR but not exercised by install.sh" ;;
  esac
done
# no installed executable has a run path into the build tree (meson rewrites them on install)
if command -v readelf >/dev/null 2>&1; then
  for f in "$D$BINDIR"/*; do
    if readelf -d "$f" 2>/dev/null | grep -i 'r.*path' | grep -q -e "$BUILD"; then
      t_fail "runpath ${f##*/}" "$(readelf -d "$f" | grep -i 'r.*path')"
    fi
  done
fi
# no installed text file (wrappers, pkg-config, headers) points into the build or source tree
if grep -rIl -e "$BUILD" -e "$SRC/include" "$D" >"$T/leaks" 2>/dev/null; then
  t_fail no_build_paths "files naming the build tree: $(tr '\n' ' ' <"$T/leaks")"
else
  t_ok no_build_paths
fi
grep -q "^incdir='$INCLUDEDIR/smpi'" "$D$BINDIR/smpicc" && t_ok smpicc_paths ||
  t_fail smpicc_paths "installed smpicc does not name $INCLUDEDIR/smpi"

# relocate the staged wrappers: PREFIX/... -> DESTDIR/PREFIX/...
for w in smpicc smpicxx; do
  sed -e "s#^\(incdir\|libdir\|mainlib\)='$PREFIX/#\1='$D$PREFIX/#" "$D$BINDIR/$w" >"$T/$w.new" &&
    cat "$T/$w.new" >"$D$BINDIR/$w"
done
cd "$T" || exit 1
unset LD_LIBRARY_PATH
t_run installed_smpicc "$D$BINDIR/smpicc" -O1 "$SRC/tests/mpi/p2p_basic.c" -o p2p_basic
t_expect_rc 0 && t_ok installed_smpicc
t_run installed_run "$D$BINDIR/smpirun" -np 4 ./p2p_basic
t_expect_rc 0 && t_grep_out '^p2p_basic: OK$' && t_ok installed_run
# the program loads the installed library, not the build tree's
if command -v ldd >/dev/null 2>&1; then
  lib=$(ldd ./p2p_basic | sed -n 's/.*libsmpi\.so[^ ]* => \([^ ]*\).*/\1/p')
  case $lib in "$D$LIBDIR"/*) t_ok installed_lib ;; *) t_fail installed_lib "loads libsmpi from '$lib'" ;; esac
fi

# smpicxx: a C++ program with the C++ library and exceptions
t_run installed_smpicxx "$D$BINDIR/smpicxx" -O1 "$SRC/tests/toolchain/hello.cc" -o hello_cxx
if t_expect_rc 0; then
  t_ok installed_smpicxx
  t_run installed_cxx_run "$D$BINDIR/smpirun" -np 3 ./hello_cxx
  t_expect_rc 0 && t_grep_out '^hello_cxx: OK$' && t_ok installed_cxx_run
fi

# smpif90 (built with gfortran): mpif.h and the mpi module installed beside mpi.h; a
# Fortran program of two files built with the installed smpif90, run by the installed smpirun
if [ -x "$D$BINDIR/smpif90" ]; then
  for f in mpif.h mpi.mod smpi.mod; do
    [ -e "$D$INCLUDEDIR/smpi/$f" ] && t_ok "installed $f" || t_fail "installed $f" "missing"
  done
  for w in smpif90 smpiff smpifort; do
    sed -e "s#^\(incdir\|libdir\|mainlib\)='$PREFIX/#\1='$D$PREFIX/#" "$D$BINDIR/$w" >"$T/$w.new" &&
      cat "$T/$w.new" >"$D$BINDIR/$w"
  done
  t_run installed_smpif90 "$D$BINDIR/smpif90" -O1 "$SRC/tests/fortran/project/fring_mod.f90" \
    "$SRC/tests/fortran/project/fring.f90" -o fring
  t_expect_rc 0 && t_ok installed_smpif90
  t_run installed_fortran_run "$D$BINDIR/smpirun" -np 3 ./fring
  t_expect_rc 0 && t_grep_out '^fring: OK (3 ranks)$' && t_ok installed_fortran_run
fi

# smpirun -replay runs the installed smpi-replay: a small hand-written trace, then what the
# installed smpirun records with -trace-ti (p2p_basic has MPI_PROC_NULL peers), both on an
# installed platform
plat=$D$DATADIR/smpi/platforms/cluster_flat.xml
printf '%s\n' '0 init' '0 compute 1e6' '0 send 1 0 1000 6' '0 recv 1 0 1000 6' '0 finalize' \
  >ti_r0.txt
printf '%s\n' '1 init' '1 recv 0 0 1000 6' '1 send 0 0 1000 6' '1 compute 2e6' '1 finalize' \
  >ti_r1.txt
printf '%s\n' ti_r0.txt ti_r1.txt >ti.txt
t_run installed_replay "$D$BINDIR/smpirun" -np 2 -platform "$plat" -replay ti.txt \
  --cfg=smpi/display-timing:yes
t_expect_rc 0 && t_grep_err 'simulated time: [0-9]' && t_ok installed_replay
t_run installed_trace_ti "$D$BINDIR/smpirun" -np 4 -platform "$plat" -trace-ti \
  --cfg=tracing/filename:own_ti.txt ./p2p_basic
if t_expect_rc 0 && [ -s own_ti.txt ]; then
  t_ok installed_trace_ti
  t_run installed_replay_own "$D$BINDIR/smpirun" -np 4 -platform "$plat" -replay own_ti.txt
  t_expect_rc 0 && t_ok installed_replay_own
fi

# smpi-gantt draws what the installed smpirun traces (Paje)
if [ -x "$D$BINDIR/smpi-gantt" ]; then
  t_run installed_paje "$D$BINDIR/smpirun" -np 4 -platform "$plat" -trace \
    --cfg=tracing/filename:run.trace ./p2p_basic
  if t_expect_rc 0 && [ -s run.trace ]; then
    t_ok installed_paje
    t_run installed_gantt "$D$BINDIR/smpi-gantt" run.trace run.svg
    if t_expect_rc 0 && grep -q '<svg' run.svg; then t_ok installed_gantt; fi
  fi
fi

# smpi-sweep runs a study with the smpirun installed next to it (no --smpirun, no PATH)
if [ -x "$D$BINDIR/smpi-sweep" ]; then
  printf 'program: ./p2p_basic\nnp: "{np}"\nparams:\n  np: [2, 4]\n' > study.yaml
  t_run installed_sweep env PATH=/usr/bin:/bin "$D$BINDIR/smpi-sweep" run study.yaml -q
  if t_expect_rc 0 && [ "$(grep -c ',ok,0,' study.sweep/results.csv)" = 2 ] &&
     grep -q "^# $D$BINDIR/smpirun -np 4 " study.sweep/logs/000001.log; then
    t_ok installed_sweep
  else
    t_fail installed_sweep "expected 2 ok rows run by $D$BINDIR/smpirun: $(cat study.sweep/results.csv)"
  fi
fi

# smpi-calibrate fits real SKaMPI output (two runs: the default closed-loop fit needs them)
# and writes the --cfg lines
if [ -x "$D$BINDIR/smpi-calibrate" ]; then
  t_run installed_calibrate "$D$BINDIR/smpi-calibrate" --cfg-out=fit.cfg \
    "$SRC/tests/data/skampi/skampi_pt2pt_np2.sko" \
    "$SRC/tests/data/skampi/pingpong_np2_bindcore_run1.sko"
  if t_expect_rc 0 && grep -q 'smpi/' fit.cfg; then t_ok installed_calibrate; fi
fi

# pkg-config: plain cc with the flags of the installed smpi.pc builds a program smpirun runs
if command -v pkg-config >/dev/null 2>&1; then
  PKG_CONFIG_PATH=$D$LIBDIR/pkgconfig; export PKG_CONFIG_PATH
  t_run pkgconfig pkg-config --define-variable=prefix="$D$PREFIX" --cflags --libs smpi
  if t_expect_rc 0 && t_grep_out "-I$D$INCLUDEDIR/smpi" && t_grep_out '-lsmpi'; then
    t_ok pkgconfig
    flags=$(cat out)
    # shellcheck disable=SC2086
    t_run pkgconfig_build cc -O1 "$SRC/tests/mpi/p2p_basic.c" -o p2p_pc $flags -Wl,-rpath,"$D$LIBDIR"
    t_expect_rc 0 && t_ok pkgconfig_build
    t_run pkgconfig_run "$D$BINDIR/smpirun" -np 4 ./p2p_pc
    t_expect_rc 0 && t_grep_out '^p2p_basic: OK$' && t_ok pkgconfig_run
  fi
fi
t_done
