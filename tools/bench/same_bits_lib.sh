# Shared by same_bits.sh and same_bits_polling.sh (sourced, not run): one simulation with a
# Paje trace of every MPI call at 15 decimals, and its fingerprint line
#
#   case platform ranks  sha256-of-the-trace  kept-output
#
# The caller sets build (a build dir), here (tools/bench) and work (a temporary dir), and
# optionally sb_extra (options given to every run after the case's own).
sb_extra=()

# sb_sim platform np cfg... -- prog args...: the program's stdout and stderr as they come
# (the caller picks which to keep), the trace in $work/trace
sb_sim() {
  local plat=$1 np=$2
  shift 2
  local cfg=()
  while [ "$1" != -- ]; do cfg+=("$1"); shift; done
  shift
  local hf="$work/hosts"
  : > "$hf"
  for ((i = 0; i < np; i++)); do echo "node-$i" >> "$hf"; done
  "$build/tools/smpirun" -np "$np" -platform "$here/platforms/$plat.xml" -hostfile "$hf" \
    --cfg=smpi/display-timing:yes --cfg=tracing/precision:15 -trace -trace-file "$work/trace" \
    ${cfg[@]+"${cfg[@]}"} ${sb_extra[@]+"${sb_extra[@]}"} "$@"
}

# sb_line name platform np kept-output: the fingerprint of the last sb_sim
sb_line() {
  printf '%s %s %s %s %s\n' "$1" "$2" "$3" "$(sha256sum < "$work/trace" | cut -c1-16)" "$4"
}
