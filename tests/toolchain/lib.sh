# Helpers shared by the toolchain test scripts (sourced, POSIX sh).
#
#   t_run NAME cmd...    runs cmd (30 s limit) with stdout/stderr in $T/out, $T/err, rc in $rc
#   t_ok / t_fail NAME   count a result;  t_expect_rc, t_grep_err, t_grep_out: common checks
#   t_done               prints the summary and exits 0 / 1
# A failed check prints what was expected and the command's stderr, so a log says why.
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/smpi-toolchain.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
t_nfail=0
t_npass=0

t_ok() { t_npass=$((t_npass + 1)); printf 'ok   %s\n' "$1"; }
t_fail() {
  t_nfail=$((t_nfail + 1))
  printf 'FAIL %s: %s\n' "$1" "$2"
  if [ -s "$T/err" ]; then sed 's/^/     stderr| /' "$T/err" | head -20; fi
  if [ -s "$T/out" ]; then sed 's/^/     stdout| /' "$T/out" | head -20; fi
}
t_run() {
  t_name=$1; shift
  timeout 30 "$@" >"$T/out" 2>"$T/err" </dev/null
  rc=$?
}
# t_expect_rc WANT: WANT is a number, or "nonzero"
t_expect_rc() {
  if [ "$1" = nonzero ]; then
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then return 0; fi
  elif [ "$rc" -eq "$1" ]; then
    return 0
  fi
  t_fail "$t_name" "exit code $rc, expected $1$([ "$rc" -eq 124 ] && echo ' (timed out: a hang)')"
  return 1
}
t_grep_err() {
  if grep -q -e "$1" "$T/err"; then return 0; fi
  t_fail "$t_name" "stderr does not match '$1'"
  return 1
}
t_grep_out() {
  if grep -q -e "$1" "$T/out"; then return 0; fi
  t_fail "$t_name" "stdout does not match '$1'"
  return 1
}
# t_same_out FILE: stdout must be exactly FILE's content
t_same_out() {
  if cmp -s "$1" "$T/out"; then return 0; fi
  t_fail "$t_name" "stdout differs from the expected text: $(diff "$1" "$T/out" | head -10 | tr '\n' ' ')"
  return 1
}
t_done() {
  printf '%d passed, %d failed\n' "$t_npass" "$t_nfail"
  [ "$t_nfail" -eq 0 ]
  exit $?
}
