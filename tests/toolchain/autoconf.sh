#!/bin/sh
# `CC=smpicc ./configure && make` on a small project, then the result under smpirun:
#   autoconf.sh posix SMPICC SMPIRUN      hand-written configure (always available)
#   autoconf.sh autotools SMPICC SMPIRUN  autoreconf + configure + make (77: not installed)
MODE=$1 SMPICC=$2 SMPIRUN=$3
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/autoconf" && pwd)
cd "$T" || exit 1
cp "$src/ring.c" .
case $MODE in
  posix)
    cp "$src/configure.posix" configure && cp "$src/Makefile.posix.in" Makefile.in ;;
  autotools)
    for p in autoreconf autoconf automake make; do
      command -v $p >/dev/null 2>&1 || { echo "SKIP: $p is not installed"; exit 77; }
    done
    cp "$src/configure.ac" "$src/Makefile.am" .
    t_run autoreconf autoreconf -i
    t_expect_rc 0 && t_ok autoreconf || t_done ;;
  *) echo "usage: autoconf.sh posix|autotools SMPICC SMPIRUN"; exit 2 ;;
esac
t_run configure env CC="$SMPICC" ./configure
if ! t_expect_rc 0; then
  [ -f config.log ] && tail -40 config.log
  t_done
fi
t_ok configure
grep -q '^#define SIZEOF_LONG [48]' config.h && t_ok configure_run_result ||
  t_fail configure_run_result "config.h: $(cat config.h)"
t_run make make
t_expect_rc 0 && [ -x ring ] && t_ok make
t_run ring "$SMPIRUN" -np 4 ./ring
t_expect_rc 0 && t_grep_out '^ring: OK (4 ranks' && t_ok ring
t_done
