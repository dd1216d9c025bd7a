#!/bin/sh
# expect.sh [-2] PATTERN CMD...: runs CMD and passes when it exits 0 and its stdout has a line
# matching PATTERN (grep -E); with -2, its stderr too (smpi/display-timing's report is there).
# Prints the output either way.
both=no
[ "$1" = -2 ] && { both=yes; shift; }
pattern=$1
shift
if [ $both = yes ]; then out=$("$@" 2>&1); else out=$("$@"); fi
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "expect.sh: exit status $rc"; exit 1; }
printf '%s\n' "$out" | grep -Eq -e "$pattern" || { echo "expect.sh: no line matches '$pattern'"; exit 1; }
