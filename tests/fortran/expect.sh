#!/bin/sh
# expect.sh PATTERN CMD...: runs CMD and passes when it exits 0 and its stdout has a line
# matching PATTERN (grep -E); prints the output either way.
pattern=$1
shift
out=$("$@")
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "expect.sh: exit status $rc"; exit 1; }
printf '%s\n' "$out" | grep -Eq -e "$pattern" || { echo "expect.sh: no line matches '$pattern'"; exit 1; }
