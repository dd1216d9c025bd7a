#!/bin/sh
# smpirun's command line, placement and job-end behaviour, on tc_prog.c.
#   smpirun.sh SMPICC SMPIRUN SOURCE_ROOT
SMPICC=$1 SMPIRUN=$2 SRC=$3
. "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
plat=$SRC/platforms/small_hetero.xml   # hosts alice, bob, carol, dave

if ! "$SMPICC" -O1 -Wall -Wextra -Werror "$here/tc_prog.c" -o "$T/tc" 2>"$T/err"; then
  cat "$T/err"; echo "FAIL cannot build tc_prog.c with $SMPICC"; exit 1
fi
cd "$T" || exit 1

# ---- arguments reach the program unchanged, smpirun-like ones included ----
t_run args "$SMPIRUN" -np 3 ./tc args a 'b c' '' --cfg=x:y -np 7 -- '*'
printf 'arg[0]=<a>\narg[1]=<b c>\narg[2]=<>\narg[3]=<--cfg=x:y>\narg[4]=<-np>\narg[5]=<7>\narg[6]=<-->\narg[7]=<*>\n' >want
t_expect_rc 0 && t_same_out want && [ ! -s err ] && t_ok args
# "--" ends smpirun's options
t_run args_dashdash "$SMPIRUN" -np 2 -- ./tc args x
t_expect_rc 0 && t_grep_out '^arg\[0\]=<x>$' && t_ok args_dashdash

# ---- -np / -n, and the simulator prints nothing on stdout ----
t_run np "$SMPIRUN" -np 3 ./tc hosts
t_expect_rc 0 && [ "$(wc -l <out)" -eq 3 ] && t_grep_out '^rank 2 on ' && [ ! -s err ] && t_ok np
t_run n "$SMPIRUN" -n 2 ./tc hosts
t_expect_rc 0 && [ "$(wc -l <out)" -eq 2 ] && t_ok n
t_run display_timing "$SMPIRUN" -np 2 --cfg=smpi/display-timing:yes ./tc hosts
t_expect_rc 0 && [ "$(wc -l <out)" -eq 2 ] && t_grep_err 'simulated time' && t_ok display_timing

# ---- -platform, -hostfile host:slots (round-robin), -map ----
printf 'alice:2\n# a comment, then a blank line\n\n  bob  \ncarol:1\n' >hf
# (6 ranks on 4 slots wrap around only when asked: smpi/oversubscribe)
t_run hostfile "$SMPIRUN" -np 6 -platform "$plat" -hostfile hf --cfg=smpi/oversubscribe:yes -map ./tc hosts
printf 'rank 0 on alice\nrank 1 on alice\nrank 2 on bob\nrank 3 on carol\nrank 4 on alice\nrank 5 on alice\n' >want
printf '[rank 0] -> alice\n[rank 1] -> alice\n[rank 2] -> bob\n[rank 3] -> carol\n[rank 4] -> alice\n[rank 5] -> alice\n' >wantmap
if t_expect_rc 0 && t_same_out want; then
  if cmp -s wantmap err; then t_ok hostfile_map; else t_fail hostfile_map "-map printed: $(tr '\n' ' ' <err)"; fi
fi
# -machinefile is the same; without -np, one rank per slot
t_run machinefile "$SMPIRUN" -platform "$plat" -machinefile hf ./tc hosts
t_expect_rc 0 && [ "$(wc -l <out)" -eq 4 ] && t_grep_out '^rank 3 on carol$' && t_ok machinefile
# without a hostfile, ranks go to the platform's hosts in order
t_run platform "$SMPIRUN" -np 4 -platform "$plat" ./tc hosts
t_expect_rc 0 && t_grep_out '^rank 0 on alice$' && t_grep_out '^rank 3 on dave$' && t_ok platform

# ---- the program's exit code, MPI_Abort's code ----
t_run exit_code "$SMPIRUN" -np 3 ./tc exit 3
t_expect_rc 3 && t_ok exit_code
t_run abort_code "$SMPIRUN" -np 3 ./tc abort 42
t_expect_rc 42 && t_grep_err 'MPI_Abort.*rank 1' && t_ok abort_code

# ---- handles never freed, counted at the end with smpi/list-leaks ----
t_run leaks "$SMPIRUN" -np 3 --cfg=smpi/list-leaks:2 ./tc leak
t_expect_rc 0 && t_grep_err '^smpi: 3 datatype handles were never freed' && t_ok leaks
t_run no_leak_report "$SMPIRUN" -np 3 ./tc leak
t_expect_rc 0 && ! grep -q 'never freed' err && t_ok no_leak_report

# ---- a crashing rank: rank, host, simulated time; non-zero; no hang ----
t_run crash "$SMPIRUN" -np 3 -platform "$plat" ./tc segv
t_expect_rc nonzero && t_grep_err 'rank 1 (on host bob) crashed with SIGSEGV' &&
  t_grep_err 'simulated time [0-9.]* s' && t_ok crash

# ---- a deadlock: reported per rank, non-zero ----
t_run deadlock "$SMPIRUN" -np 3 ./tc deadlock
t_expect_rc nonzero && t_grep_err 'deadlock' &&
  t_grep_err 'rank 0.*MPI_Recv from rank 1, tag 7, on MPI_COMM_WORLD' &&
  t_grep_err 'rank 2.*MPI_Recv from rank 0, tag 7' && t_ok deadlock

# ---- bad inputs: a message on stderr, non-zero, the program does not start ----
bad() { # NAME REGEX smpirun-args...
  n=$1 re=$2; shift 2
  t_run "$n" "$SMPIRUN" "$@"
  t_expect_rc nonzero && t_grep_err "$re" && [ ! -s out ] && t_ok "$n"
}
bad np_zero '-np needs a positive number' -np 0 ./tc args
bad np_negative '-np needs a positive number' -np -2 ./tc args
bad np_text "-np needs a positive number of processes, not 'four'" -np four ./tc args
bad np_missing 'needs a value' -np
bad no_program 'no program to run' -np 2
bad unknown_option "unknown option '-bogus'" -np 2 -bogus ./tc args
bad missing_platform "platform file.*nonexistent.xml" -platform nonexistent.xml ./tc args
printf '<?xml version="1.0"?>\n<platform version="4.1">\n<zone id="z"\n' >broken.xml
bad broken_platform 'broken.xml:[0-9]' -platform broken.xml ./tc args
mkdir adir
bad dir_platform 'adir' -platform adir ./tc args
if [ "$(id -u)" -ne 0 ]; then # root reads any file
  cp "$plat" unreadable.xml && chmod 000 unreadable.xml
  bad unreadable_platform 'unreadable.xml' -platform unreadable.xml ./tc args
fi
printf 'alice\n\nzed:2\n' >hf_unknown
bad hostfile_unknown_host "hf_unknown:3: host 'zed' is not in the platform" -platform "$plat" -hostfile hf_unknown ./tc args
printf 'alice:0\n' >hf_slots
bad hostfile_bad_slots 'hf_slots:1: bad slot count' -platform "$plat" -hostfile hf_slots ./tc args
printf '# nothing\n' >hf_empty
bad hostfile_empty 'lists no host' -platform "$plat" -hostfile hf_empty ./tc args
bad hostfile_missing 'hostfile.*nonexistent' -hostfile nonexistent ./tc args
bad bad_cfg 'no-such-key' --cfg=no-such-key:1 -np 2 ./tc args
bad missing_program "cannot find program './nonexistent'" -np 2 ./nonexistent
printf 'int main(void) { return 0; }\n' >native.c
if cc native.c -o native 2>/dev/null; then
  bad native_program 'not built with smpicc' -np 2 ./native
fi
t_done
