/* rusage_run OUTFILE COMMAND [ARGS...]: runs COMMAND and writes to OUTFILE its CPU time and
 * peak memory, as wait4(2) reports them for the command's process tree alone:
 *
 *   "USER_S SYS_S MAXRSS_KIB\n"     e.g. "0.011234 0.002071 24344"
 *
 * What the harness (harness.py) measures every simulator run with. Two launchers fall short:
 * - wait4 from the Python harness itself: a forked child starts its high-water mark at the
 *   harness's own resident pages, kept across exec, so ru_maxrss never reads below them;
 * - GNU time (`time -f %M`): the right peak, but the harness's wait4 on it counts GNU time's
 *   own start-up too (0.8 ms of CPU a run here, a tenth of a 16-rank payload cell, in both
 *   simulators' figures alike), and its %U/%S have 10 ms steps.
 * This one forks from a small process and reports only the child's rusage, in microseconds.
 * Exit status: the command's, 128 + the signal that ended it, 127 when it could not run. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: rusage_run OUTFILE COMMAND [ARGS...]\n");
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0) {
    perror("rusage_run: fork");
    return 127;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    fprintf(stderr, "rusage_run: cannot run %s: ", argv[2]);
    perror(NULL);
    _exit(127);
  }
  /* a terminal's ^C or the harness's kill of the session reaches the child too: wait for it */
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  int status;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0)
    if (errno != EINTR) {
      perror("rusage_run: wait4");
      return 127;
    }
  FILE *f = fopen(argv[1], "w");
  if (!f ||
      fprintf(f, "%ld.%06ld %ld.%06ld %ld\n", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
              (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ru.ru_maxrss) < 0 ||
      fclose(f) != 0) {
    fprintf(stderr, "rusage_run: cannot write %s\n", argv[1]);
    return 127;
  }
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
