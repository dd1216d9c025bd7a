/* The GNU parallel and Slurm backends: neither runs a simulation itself. Each hands chunks of
 * pending points to the engine, whose tasks run `smpi-sweep point|chunk` (run.c, the same code
 * as the local backend), and follows the records appearing in DIR/points for the progress line.
 *
 *   parallel  parallel -j J -n C [--sshloginfile F] SELF point --smpirun R STUDY DIR :::: LIST
 *             (LIST: the pending point numbers, C per task). Across machines every one must
 *             see DIR, the study and the program at the same paths (a shared file system).
 *   slurm     sbatch --array=K,... DIR/slurm/chunk.sh: array task K runs the pending points
 *             of [K*C, (K+1)*C) (SELF chunk ... K); squeue says when the array has ended.
 *             Then the chunks with a point still missing or failed are submitted again
 *             (--retries times).
 */
#include "tools/sweep/sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/mem.h"

/* Runs argv as a child and follows the records of points[] until it exits; returns its
 * exit status (or -1). */
static int follow(char **argv, const char *logpath, const sweep_study *st, const sweep_dirs *d,
                  const size_t *points, size_t npoints, sweep_progress *p)
{
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    setpgid(0, 0);
    if (logpath) {
      FILE *f = freopen(logpath, "a", stdout);
      if (f)
        dup2(fileno(f), 2);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "smpi-sweep: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  bool *seen = xcalloc(npoints + 1, sizeof *seen);
  size_t base_done = p->done, base_failed = p->failed;
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (sweep_interrupted) {
      kill(-pid, SIGTERM);
      waitpid(pid, &status, 0);
      break;
    }
    /* count the records written since the start (a new record of a failed point too) */
    size_t done = 0, failed = 0;
    for (size_t k = 0; k < npoints; k++) {
      if (!seen[k]) {
        char *path = sweep_record_path(d, points[k]);
        seen[k] = access(path, F_OK) == 0;
        free(path);
      }
      if (seen[k]) {
        sweep_record r;
        sweep_record_read(st, d, points[k], &r);
        r.ok ? done++ : failed++;
        sweep_record_clear(&r);
      }
    }
    p->done = base_done + done;
    p->failed = base_failed + failed;
    p->running = 0;
    sweep_progress_print(p, false);
    if (w == pid)
      break;
    usleep(w < 0 ? 0 : 300 * 1000);
    if (w < 0)
      break;
  }
  free(seen);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Points already present as failed records are removed first: their new records mark their
 * end. */
static void remove_records(const sweep_dirs *d, const size_t *points, size_t n)
{
  for (size_t k = 0; k < n; k++) {
    char *path = sweep_record_path(d, points[k]);
    unlink(path);
    free(path);
  }
}

/* Runs sbatch --parsable, its output appended to logpath; the job id into job. */
static int submit(char **argv, const char *logpath, char *job, size_t joblen)
{
  int fds[2];
  if (pipe(fds) != 0)
    return -1;
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 1);
    FILE *f = freopen(logpath, "a", stderr);
    (void)f;
    execvp(argv[0], argv);
    fprintf(stderr, "smpi-sweep: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t got;
  while (len + 1 < joblen && (got = read(fds[0], job + len, joblen - 1 - len)) > 0)
    len += (size_t)got;
  job[len] = 0;
  close(fds[0]);
  int status;
  waitpid(pid, &status, 0);
  FILE *log = fopen(logpath, "a");
  if (log) {
    fprintf(log, "sbatch: %s", job);
    fclose(log);
  }
  job[strspn(job, "0123456789")] = 0; /* "ID" or "ID;cluster" */
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && job[0] ? 0 : -1;
}

static size_t auto_chunk(size_t npoints, size_t tasks)
{
  return npoints / tasks + (npoints % tasks ? 1 : 0);
}

int sweep_run_parallel(const sweep_study *st, const sweep_dirs *d, const size_t *points,
                       size_t npoints, const sweep_backend_opts *o, sweep_progress *p)
{
  if (npoints == 0)
    return 0;
  remove_records(d, points, npoints);
  char *list = xasprintf("%s/parallel-points.txt", d->out);
  FILE *f = fopen(list, "w");
  if (!f) {
    fprintf(stderr, "smpi-sweep: cannot write %s: %s\n", list, strerror(errno));
    free(list);
    return -1;
  }
  for (size_t k = 0; k < npoints; k++)
    fprintf(f, "%zu\n", points[k]);
  fclose(f);
  /* a task per chunk amortises the start of smpi-sweep (and of ssh); 4 chunks per job slot
   * keep the slots busy to the end */
  size_t chunk = o->chunk ? o->chunk : auto_chunk(npoints, (size_t)o->jobs * 4);
  if (chunk > 64 && !o->chunk)
    chunk = 64;
  char jobs[32], nargs[32];
  snprintf(jobs, sizeof jobs, "%d", o->jobs);
  snprintf(nargs, sizeof nargs, "%zu", chunk);
  char *argv[32];
  int n = 0;
  argv[n++] = "parallel";
  argv[n++] = "--will-cite";
  argv[n++] = "--halt";
  argv[n++] = "never";
  argv[n++] = "-n";
  argv[n++] = nargs;
  if (o->sshloginfile) {
    argv[n++] = "--sshloginfile";
    argv[n++] = (char *)o->sshloginfile;
  } else {
    argv[n++] = "-j";
    argv[n++] = jobs;
  }
  argv[n++] = (char *)o->self;
  argv[n++] = "point";
  argv[n++] = "--smpirun";
  argv[n++] = (char *)o->smpirun;
  argv[n++] = "-o";
  argv[n++] = d->out;
  argv[n++] = (char *)o->study_arg;
  argv[n++] = "::::";
  argv[n++] = list;
  argv[n] = NULL;
  char *log = xasprintf("%s/parallel.log", d->out);
  int rc = follow(argv, log, st, d, points, npoints, p);
  if (rc == 127)
    fprintf(stderr,
            "smpi-sweep: GNU parallel did not run (is it installed? apt-get install "
            "parallel); see %s\n",
            log);
  free(log);
  free(list);
  return rc == 127 ? -1 : 0;
}

/* "0-3,7,9-10" from sorted chunk numbers */
static char *array_spec(const size_t *chunks, size_t n)
{
  size_t cap = 64 + n * 24, len = 0;
  char *s = xmalloc(cap);
  s[0] = 0;
  for (size_t k = 0; k < n;) {
    size_t j = k;
    while (j + 1 < n && chunks[j + 1] == chunks[j] + 1)
      j++;
    len += (size_t)snprintf(s + len, cap - len, "%s%zu", len ? "," : "", chunks[k]);
    if (j > k)
      len += (size_t)snprintf(s + len, cap - len, "-%zu", chunks[j]);
    k = j + 1;
  }
  return s;
}

static char *shell_quote(const char *s)
{
  char *argv[2] = {(char *)s, NULL};
  return sweep_argv_string(argv);
}

int sweep_run_slurm(const sweep_study *st, const sweep_dirs *d, const size_t *points,
                    size_t npoints, const sweep_backend_opts *o, sweep_progress *p)
{
  if (npoints == 0)
    return 0;
  /* array indexes stay under Slurm's default MaxArraySize (1001) */
  size_t chunk = o->chunk ? o->chunk : auto_chunk(st->npoints, 100);
  if (auto_chunk(st->npoints, chunk) > 1000)
    chunk = auto_chunk(st->npoints, 1000);
  char *sdir = xasprintf("%s/slurm", d->out);
  if (mkdir(sdir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "smpi-sweep: cannot create %s: %s\n", sdir, strerror(errno));
    free(sdir);
    return -1;
  }
  char *script = xasprintf("%s/chunk.sh", sdir);
  FILE *f = fopen(script, "w");
  if (!f) {
    fprintf(stderr, "smpi-sweep: cannot write %s: %s\n", script, strerror(errno));
    free(script);
    free(sdir);
    return -1;
  }
  char *q_self = shell_quote(o->self), *q_run = shell_quote(o->smpirun),
       *q_out = shell_quote(d->out), *q_study = shell_quote(o->study_arg);
  fprintf(f,
          "#!/bin/sh\n"
          "# smpi-sweep: Slurm array task K runs the pending points of [K*%zu, (K+1)*%zu)\n"
          "exec %s chunk --smpirun %s --chunk %zu -j \"${SLURM_CPUS_PER_TASK:-1}\" -o %s %s "
          "\"$SLURM_ARRAY_TASK_ID\"\n",
          chunk, chunk, q_self, q_run, chunk, q_out, q_study);
  fclose(f);
  free(q_self);
  free(q_run);
  free(q_out);
  free(q_study);

  int rc = 0;
  size_t *todo = xmalloc(npoints * sizeof *todo);
  memcpy(todo, points, npoints * sizeof *todo);
  size_t ntodo = npoints;
  size_t failed0 = p->failed; /* every failed point goes again: each attempt counts anew */
  for (int attempt = 0; attempt <= o->retries && ntodo > 0 && !sweep_interrupted; attempt++) {
    size_t *chunks = xmalloc(ntodo * sizeof *chunks), nchunks = 0;
    for (size_t k = 0; k < ntodo; k++)
      if (nchunks == 0 || chunks[nchunks - 1] != todo[k] / chunk)
        chunks[nchunks++] = todo[k] / chunk;
    char *array = array_spec(chunks, nchunks);
    remove_records(d, todo, ntodo);
    char *array_arg = xasprintf("--array=%s", array);
    char *out_arg = xasprintf("--output=%s/task-%%A_%%a.out", sdir);
    char cpus[48];
    snprintf(cpus, sizeof cpus, "--cpus-per-task=%d", o->jobs);
    char **argv = xcalloc(16 + o->nslurm_args, sizeof *argv);
    int n = 0;
    argv[n++] = "sbatch";
    argv[n++] = "--parsable";
    argv[n++] = "--job-name=smpi-sweep";
    argv[n++] = array_arg;
    argv[n++] = out_arg;
    argv[n++] = cpus;
    for (size_t k = 0; k < o->nslurm_args; k++)
      argv[n++] = o->slurm_args[k];
    argv[n++] = script;
    argv[n] = NULL;
    if (!p->quiet)
      fprintf(stderr, "%s[smpi-sweep] sbatch: %zu point%s in %zu array task%s (%s), attempt %d\n",
              p->tty ? "\r" : "", ntodo, ntodo == 1 ? "" : "s", nchunks, nchunks == 1 ? "" : "s",
              array, attempt + 1);
    char *log = xasprintf("%s/sbatch.log", sdir);
    p->failed = failed0;
    char job[64];
    if (submit(argv, log, job, sizeof job) != 0) {
      fprintf(stderr, "smpi-sweep: sbatch failed (is Slurm installed and configured?); see %s\n",
              log);
      rc = -1;
    } else {
      /* sbatch --wait polls with a back-off of up to ~10 s; squeue every 0.5 s ends sooner */
      char *loop = xasprintf("while squeue -h -j %s -t PD,CF,R,CG,S,RQ,RS -o %%i 2>/dev/null | "
                             "grep -q .; do sleep 0.5; done",
                             job);
      char *waiter[] = {"sh", "-c", loop, NULL};
      follow(waiter, log, st, d, todo, ntodo, p);
      free(loop);
      if (sweep_interrupted) {
        char *cancel[] = {"scancel", job, NULL};
        fprintf(stderr, "\n[smpi-sweep] cancelling Slurm job %s\n", job);
        follow(cancel, log, st, d, todo, 0, p);
      }
    }
    free(log);
    free(argv);
    free(array_arg);
    free(out_arg);
    free(array);
    free(chunks);
    /* what is still missing or failed goes again */
    size_t m = 0;
    for (size_t k = 0; k < ntodo; k++) {
      sweep_record r;
      sweep_record_read(st, d, todo[k], &r);
      if (!r.ok)
        todo[m++] = todo[k];
      sweep_record_clear(&r);
    }
    if (rc != 0)
      break;
    ntodo = m;
  }
  free(todo);
  free(script);
  free(sdir);
  return rc;
}
