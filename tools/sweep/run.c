/* Running the points of a sweep: one point is smpirun forked and exec'd in its own process
 * group, its stdout and stderr in DIR/logs/N.log, reaped by wait4 (whose rusage gives the
 * simulation's CPU time and peak memory: smpirun execs the program, the simulation runs in
 * that very process). Its record, DIR/points/N.rec, is written to a temporary name and
 * renamed, so a record that exists is whole, whoever wrote it (this process, a GNU parallel
 * job or a Slurm task on another machine sharing the directory).
 *
 * The pool keeps `jobs` points running. SIGCHLD is blocked and waited for with a timeout
 * (sigtimedwait), which wakes the loop at once when a point ends and at least every 200 ms
 * for the progress line, the per-point timeout and ^C (points killed, records absent, so a
 * later run does them again).
 *
 * Record format, one "key<TAB>value" per line:
 *   status ok|failed    exit N    sim_time S    cpu_time S    wall_time S    peak_rss_kib K
 *   out.NAME VALUE      (one per output of the study found in the log)
 */
#include "tools/sweep/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/mem.h"

volatile int sweep_interrupted;

static void on_signal(int sig) { sweep_interrupted = sig; }

void sweep_install_signals(void)
{
  struct sigaction sa = {.sa_handler = on_signal};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

double sweep_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int mkdir_p(const char *path)
{
  if (mkdir(path, 0777) == 0 || errno == EEXIST)
    return 0;
  return -1;
}

int sweep_dirs_prepare(const sweep_study *st, const char *out, bool create, sweep_dirs *d,
                       char *err, size_t errlen)
{
  memset(d, 0, sizeof *d);
  if (create && mkdir_p(out) != 0) {
    snprintf(err, errlen, "cannot create the output directory %s: %s", out, strerror(errno));
    return -1;
  }
  d->out = realpath(out, NULL);
  if (!d->out) {
    snprintf(err, errlen, "%s: %s%s", out, strerror(errno),
             create ? "" : " (has this sweep been run? smpi-sweep run STUDY)");
    return -1;
  }
  d->points = xasprintf("%s/points", d->out);
  d->logs = xasprintf("%s/logs", d->out);
  char *copy = xasprintf("%s/study.yaml", d->out);
  int rc = 0;
  FILE *f = fopen(copy, "rb");
  if (f) {
    /* resuming: the records hold point numbers, which mean something only for this study */
    size_t len = strlen(st->text);
    char *old = xmalloc(len + 2);
    size_t got = fread(old, 1, len + 1, f);
    fclose(f);
    if (got != len || memcmp(old, st->text, len) != 0) {
      snprintf(err, errlen,
               "%s holds the results of another version of %s (see %s); give another output "
               "directory (-o DIR) or remove that one",
               d->out, st->path, copy);
      rc = -1;
    }
    free(old);
  } else if (create) {
    f = fopen(copy, "wb");
    if (!f || fwrite(st->text, 1, strlen(st->text), f) != strlen(st->text) || fclose(f) != 0) {
      snprintf(err, errlen, "cannot write %s: %s", copy, strerror(errno));
      rc = -1;
    }
  }
  free(copy);
  if (rc == 0 && create && (mkdir_p(d->points) != 0 || mkdir_p(d->logs) != 0)) {
    snprintf(err, errlen, "cannot create %s/points and logs: %s", d->out, strerror(errno));
    rc = -1;
  }
  return rc;
}

void sweep_dirs_free(sweep_dirs *d)
{
  free(d->out);
  free(d->points);
  free(d->logs);
  memset(d, 0, sizeof *d);
}

char *sweep_record_path(const sweep_dirs *d, size_t i)
{
  return xasprintf("%s/%06zu.rec", d->points, i);
}

char *sweep_log_path(const sweep_dirs *d, size_t i)
{
  return xasprintf("%s/%06zu.log", d->logs, i);
}

void sweep_record_clear(sweep_record *r)
{
  if (r->outputs)
    for (size_t k = 0; r->outputs[k] != (char *)r; k++)
      free(r->outputs[k]);
  free(r->outputs);
  memset(r, 0, sizeof *r);
}

int sweep_record_read(const sweep_study *st, const sweep_dirs *d, size_t i, sweep_record *r)
{
  memset(r, 0, sizeof *r);
  r->sim_time = NAN;
  /* outputs[noutputs] = r marks the end (an output may be NULL) */
  r->outputs = xcalloc(st->noutputs + 1, sizeof *r->outputs);
  r->outputs[st->noutputs] = (char *)r;
  char *path = sweep_record_path(d, i);
  FILE *f = fopen(path, "r");
  free(path);
  if (!f)
    return 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, f)) > 0) {
    if (line[n - 1] == '\n')
      line[--n] = 0;
    char *tab = strchr(line, '\t');
    if (!tab)
      continue;
    *tab = 0;
    const char *k = line, *v = tab + 1;
    if (!strcmp(k, "status")) {
      r->present = true;
      r->ok = !strcmp(v, "ok");
    } else if (!strcmp(k, "exit")) {
      r->exit_code = atoi(v);
    } else if (!strcmp(k, "sim_time")) {
      r->sim_time = strtod(v, NULL);
    } else if (!strcmp(k, "cpu_time")) {
      r->cpu_time = strtod(v, NULL);
    } else if (!strcmp(k, "wall_time")) {
      r->wall_time = strtod(v, NULL);
    } else if (!strcmp(k, "peak_rss_kib")) {
      r->peak_rss_kib = atol(v);
    } else if (!strncmp(k, "out.", 4)) {
      for (size_t o = 0; o < st->noutputs; o++)
        if (!strcmp(st->outputs[o].name, k + 4) && !r->outputs[o])
          r->outputs[o] = xstrdup(v);
    }
  }
  free(line);
  fclose(f);
  return 0;
}

/* The log's simulated time and the study's outputs -> the record, written atomically. */
static void write_record(const sweep_study *st, const sweep_dirs *d, size_t i, int status,
                         const struct rusage *ru, double wall, bool timed_out)
{
  char *logp = sweep_log_path(d, i);
  FILE *lf = fopen(logp, "r");
  free(logp);
  char *log = NULL;
  size_t len = 0;
  if (lf) {
    size_t cap = 1 << 14, got;
    log = xmalloc(cap + 1);
    while ((got = fread(log + len, 1, cap - len, lf)) > 0)
      if ((len += got) == cap)
        log = xrealloc(log, (cap *= 2) + 1);
    log[len] = 0;
    fclose(lf);
  }
  double sim = NAN;
  const char *tag = "smpi: simulated time: ";
  for (const char *p = log; p && (p = strstr(p, tag)); p += strlen(tag))
    if (p == log || p[-1] == '\n')
      sim = strtod(p + strlen(tag), NULL);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  bool ok = !timed_out && WIFEXITED(status) && code == 0 && !isnan(sim);

  char *path = sweep_record_path(d, i);
  char *tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "smpi-sweep: cannot write %s: %s\n", tmp, strerror(errno));
  } else {
    fprintf(f, "status\t%s\nexit\t%d\n", ok ? "ok" : "failed", code);
    if (timed_out)
      fprintf(f, "timeout\t%g\n", st->timeout);
    if (!isnan(sim))
      fprintf(f, "sim_time\t%.15g\n", sim);
    fprintf(f, "cpu_time\t%.6f\nwall_time\t%.6f\npeak_rss_kib\t%ld\n",
            (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec * 1e-6 +
                (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec * 1e-6,
            wall, ru->ru_maxrss);
    for (size_t o = 0; o < st->noutputs && log; o++) {
      regmatch_t m[2];
      if (regexec(&st->outputs[o].re, log, 2, m, 0) == 0) {
        int g = m[1].rm_so >= 0 ? 1 : 0;
        fprintf(f, "out.%s\t", st->outputs[o].name);
        for (regoff_t c = m[g].rm_so; c < m[g].rm_eo; c++)
          fputc(log[c] == '\t' || log[c] == '\n' ? ' ' : log[c], f);
        fputc('\n', f);
      }
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0)
      fprintf(stderr, "smpi-sweep: cannot write %s: %s\n", path, strerror(errno));
  }
  free(tmp);
  free(path);
  free(log);
}

size_t *sweep_pending(const sweep_study *st, const sweep_dirs *d, size_t from, size_t to,
                      bool retry_failed, size_t *n)
{
  size_t *out = xmalloc((to > from ? to - from : 1) * sizeof *out);
  *n = 0;
  for (size_t i = from; i < to && i < st->npoints; i++) {
    sweep_record r;
    sweep_record_read(st, d, i, &r);
    if (!r.present || (!r.ok && retry_failed))
      out[(*n)++] = i;
    sweep_record_clear(&r);
  }
  return out;
}

void sweep_progress_print(sweep_progress *p, bool final)
{
  if (p->quiet)
    return;
  double now = sweep_now();
  /* a terminal gets a line redrawn in place; a log file one line every 10 s */
  if (!final && now - p->last_print < (p->tty ? 0.25 : 10))
    return;
  p->last_print = now;
  size_t finished = p->done + p->failed;
  size_t todo = p->total - p->skipped;
  double elapsed = now - p->start;
  char eta[64] = "";
  if (!final && finished > 0 && finished < todo)
    snprintf(eta, sizeof eta, ", ETA %.0f s",
             elapsed / (double)finished * (double)(todo - finished));
  char running[48] = "";
  if (!p->engine)
    snprintf(running, sizeof running, ", %zu running", p->running);
  fprintf(stderr, "%s[smpi-sweep] %zu/%zu points done, %zu failed%s, %.1f s%s%s",
          p->tty ? "\r" : "", p->skipped + p->done, p->total, p->failed, running, elapsed, eta,
          p->tty && !final ? "\033[K" : "\n");
  fflush(stderr);
}

typedef struct sweep_child {
  pid_t pid;
  size_t point;
  double start;
} sweep_child;

static pid_t start_point(const sweep_study *st, const sweep_dirs *d, const char *smpirun,
                         size_t i)
{
  char err[512];
  char **argv = sweep_point_argv(st, i, smpirun, err, sizeof err);
  char *logp = sweep_log_path(d, i);
  int fd = argv ? open(logp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
  pid_t pid = -1;
  if (!argv) {
    fprintf(stderr, "smpi-sweep: point %zu: %s\n", i, err);
  } else if (fd < 0) {
    fprintf(stderr, "smpi-sweep: cannot write %s: %s\n", logp, strerror(errno));
  } else {
    char *cmd = sweep_argv_string(argv);
    dprintf(fd, "# point %zu, in %s:\n# %s\n", i, st->dir, cmd);
    free(cmd);
    pid = fork();
    if (pid == 0) {
      setpgid(0, 0);
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, NULL);
      dup2(fd, 1);
      dup2(fd, 2);
      int devnull = open("/dev/null", O_RDONLY);
      if (devnull >= 0)
        dup2(devnull, 0);
      if (chdir(st->dir) != 0)
        _exit(126);
      execv(argv[0], argv);
      dprintf(2, "smpi-sweep: cannot run %s: %s\n", argv[0], strerror(errno));
      _exit(127);
    }
    if (pid > 0)
      setpgid(pid, pid); /* (both sides: no race with a kill right after the fork) */
  }
  if (fd >= 0)
    close(fd);
  free(logp);
  sweep_argv_free(argv);
  return pid;
}

long sweep_run_points(const sweep_study *st, const sweep_dirs *d, const char *smpirun,
                      const size_t *points, size_t npoints, int jobs, sweep_progress *progress)
{
  if (jobs < 1)
    jobs = 1;
  sigset_t chld, old;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &old);
  sweep_child *kids = xcalloc((size_t)jobs, sizeof *kids);
  size_t next = 0, running = 0;
  long failed = 0;
  while ((next < npoints && !sweep_interrupted) || running > 0) {
    while (next < npoints && running < (size_t)jobs && !sweep_interrupted) {
      size_t i = points[next++];
      pid_t pid = start_point(st, d, smpirun, i);
      if (pid < 0) {
        struct rusage zero = {0};
        write_record(st, d, i, 127 << 8, &zero, 0, false);
        failed++;
        if (progress)
          progress->failed++;
        continue;
      }
      for (int k = 0; k < jobs; k++)
        if (kids[k].pid == 0) {
          kids[k] = (sweep_child){pid, i, sweep_now()};
          break;
        }
      running++;
    }
    if (progress) {
      progress->running = running;
      sweep_progress_print(progress, false);
    }
    if (running == 0)
      break;
    struct timespec wait = {0, 200 * 1000 * 1000};
    sigtimedwait(&chld, NULL, &wait);
    double now = sweep_now();
    for (int k = 0; k < jobs; k++) {
      if (!kids[k].pid)
        continue;
      if (sweep_interrupted) {
        kill(-kids[k].pid, SIGKILL);
      } else if (st->timeout > 0 && now - kids[k].start > st->timeout) {
        kill(-kids[k].pid, SIGKILL);
        kids[k].start = -1e300; /* marks the timeout for the record */
      }
    }
    int status;
    struct rusage ru;
    pid_t pid;
    while ((pid = wait4(-1, &status, WNOHANG, &ru)) > 0) {
      for (int k = 0; k < jobs; k++) {
        if (kids[k].pid != pid)
          continue;
        running--;
        kids[k].pid = 0;
        if (sweep_interrupted)
          break; /* no record: the point is done again next time */
        bool timed_out = kids[k].start < -1e299;
        write_record(st, d, kids[k].point, status, &ru,
                     timed_out ? st->timeout : sweep_now() - kids[k].start, timed_out);
        sweep_record r;
        sweep_record_read(st, d, kids[k].point, &r);
        if (!r.ok)
          failed++;
        if (progress)
          r.ok ? progress->done++ : progress->failed++;
        sweep_record_clear(&r);
        break;
      }
    }
  }
  free(kids);
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (progress) {
    progress->running = 0;
    sweep_progress_print(progress, true);
  }
  return sweep_interrupted ? -1 : failed;
}
