#!/bin/sh
# The installed toolchain works: `meson install --destdir` into a temporary directory, then
# build tests/mpi/p2p_basic.c with the INSTALLED smpicc (and with pkg-config's flags) and
# run it with the INSTALLED smpirun.
#   install.sh BUILD_ROOT SOURCE_ROOT PREFIX BINDIR LIBDIR INCLUDEDIR
#
# The installed smpicc names its files by the configured prefix (/usr/local by default),
# which a test must not write to. Staged under DESTDIR, the files sit at DESTDIR/PREFIX, so
# the test points the staged smpicc's three paths there (what a relocating packager does)
# and pkg-config's prefix with --define-variable. Everything else is the installed files as
# they are; the checks below also make sure that none of them refers to the build tree.
BUILD=$1 SRC=$2 PREFIX=$3 BINDIR=$4 LIBDIR=$5 INCLUDEDIR=$6
. "$(dirname "$0")/lib.sh"
case $BINDIR in /*) ;; *) BINDIR=$PREFIX/$BINDIR ;; esac
case $LIBDIR in /*) ;; *) LIBDIR=$PREFIX/$LIBDIR ;; esac
case $INCLUDEDIR in /*) ;; *) INCLUDEDIR=$PREFIX/$INCLUDEDIR ;; esac
D=$T/stage

t_run install meson install -C "$BUILD" --no-rebuild --destdir "$D"
t_expect_rc 0 && t_ok install || t_done
for f in "$BINDIR/smpicc" "$BINDIR/smpicxx" "$BINDIR/smpirun" "$LIBDIR/libsmpi.so" \
         "$LIBDIR/libsmpi_main.a" "$INCLUDEDIR/smpi/mpi.h" "$INCLUDEDIR/smpi/smpi.h" \
         "$LIBDIR/pkgconfig/smpi.pc"; do
  [ -e "$D$f" ] && t_ok "installed $f" || t_fail "installed $f" "missing"
done
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
