/* smpi-sweep: run a study (a parameter sweep of smpirun runs) on local processes, GNU parallel
 * or Slurm, and tabulate and plot its results. docs/sweeps.md is the manual; sweep.h says
 * which file does what. */
#include "tools/sweep/sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/mem.h"

static void usage(FILE *out)
{
  fputs("Usage: smpi-sweep COMMAND STUDY [options]\n"
        "Runs a study (a YAML file: program, parameters, outputs; docs/sweeps.md) as one\n"
        "smpirun run per point, and collects one row per point in DIR/results.csv and\n"
        "DIR/results.sqlite (DIR: the study's name without extension + .sweep).\n"
        "\n"
        "  run STUDY            run the points not done yet (a stopped sweep resumes)\n"
        "    -o DIR             output directory\n"
        "    -j N               points at a time (default: the number of cores)\n"
        "    --backend B        local (default), parallel (GNU parallel) or slurm (sbatch "
        "--array)\n"
        "    --sshloginfile F   parallel: run on the machines of F (shared file system)\n"
        "    --chunk C          parallel, slurm: points per task (default: automatic)\n"
        "    --retries R        slurm: submit failed chunks again R times (default 1)\n"
        "    --sbatch ARG       slurm: extra sbatch argument (repeatable; e.g. --sbatch=-p "
        "--sbatch=long)\n"
        "    --skip-failed      do not run failed points again (only report them)\n"
        "    --smpirun PATH     smpirun to use (default: next to smpi-sweep, else $PATH)\n"
        "    -q                 no progress line\n"
        "  list STUDY           print each point's smpirun command line\n"
        "  collect STUDY [-o DIR]   rewrite results.csv and results.sqlite from the records\n"
        "  plot STUDY [-o DIR] --x P [--lines Q] [--y time|OUTPUT] FILE.png|FILE.svg\n"
        "                       the simulated time (or an output) against parameter P, one\n"
        "                       line per value of Q (mean over seeds and other parameters)\n"
        "  plot STUDY [-o DIR] --heat P,Q [--y time|OUTPUT] FILE.png|FILE.svg\n"
        "                       heat map over two parameters\n"
        "  point STUDY -o DIR I...   run points I... (the tasks of the parallel backend)\n"
        "  chunk STUDY -o DIR --chunk C [-j N] K   run the pending points of [K*C, (K+1)*C)\n"
        "                       (a Slurm array task)\n"
        "\n"
        "Exit status: 0 when every point is done, 1 when some failed or are missing, 2 on bad\n"
        "input, 130 when interrupted (run again to resume).\n",
        out);
}

static void die_usage(const char *fmt, const char *arg)
{
  fputs("smpi-sweep: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs(" (see smpi-sweep --help)\n", stderr);
  exit(2);
}

static char *self_dir_file(const char *name)
{
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return NULL;
  self[n] = 0;
  if (!name)
    return xstrdup(self);
  char *slash = strrchr(self, '/');
  *slash = 0;
  /* installed: next to smpi-sweep; build tree: tools/smpirun and tools/sweep/smpi-sweep */
  for (int up = 0; up < 2; up++) {
    char *p = xasprintf("%s/%s%s", self, up ? "../" : "", name);
    char *real = access(p, X_OK) == 0 ? realpath(p, NULL) : NULL;
    free(p);
    if (real)
      return real;
  }
  return NULL;
}

static char *find_smpirun(const char *given)
{
  if (!given)
    given = getenv("SMPIRUN");
  char *p = given ? NULL : self_dir_file("smpirun");
  if (p)
    return p;
  const char *name = given ? given : "smpirun";
  if (strchr(name, '/'))
    return realpath(name, NULL);
  const char *path = getenv("PATH");
  for (const char *s = path ? path : "/usr/bin:/bin"; *s;) {
    const char *colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : strlen(s);
    char *cand = xasprintf("%.*s/%s", (int)n, s, name);
    if (access(cand, X_OK) == 0)
      return cand;
    free(cand);
    s += n + (colon ? 1 : 0);
  }
  return NULL;
}

static char *default_out(const sweep_study *st)
{
  const char *base = strrchr(st->path, '/') + 1;
  const char *dot = strrchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  return xasprintf("%.*s.sweep", (int)n, base);
}

typedef struct sweep_cli {
  const char *cmd;
  const char *study;
  const char *out;
  const char *backend;
  const char *smpirun;
  int jobs;
  bool quiet, skip_failed;
  sweep_backend_opts bo;
  sweep_plot_opts plot;
  char **rest; /* positional arguments after STUDY */
  size_t nrest;
} sweep_cli;

static long number_arg(const char *opt, const char *v, long min)
{
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (!*v || *end || errno || x < min) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s needs a number >= %ld, not '%%s'", opt, min);
    die_usage(msg, v);
  }
  return x;
}

static void parse_cli(int argc, char **argv, sweep_cli *c)
{
  memset(c, 0, sizeof *c);
  c->bo.retries = 1;
  c->rest = xcalloc((size_t)argc + 1, sizeof *c->rest);
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  c->jobs = ncpu > 0 ? (int)ncpu : 1;
  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
    char *val = NULL;
    /* --opt=value or --opt value */
    const char *const with_value[] = {"-o",      "-j",        "--backend", "--sshloginfile",
                                      "--chunk", "--retries", "--sbatch",  "--smpirun",
                                      "--x",     "--lines",   "--y",       "--heat"};
    const char *opt = NULL;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value && !opt; k++) {
      size_t n = strlen(with_value[k]);
      if (!strcmp(a, with_value[k])) {
        if (i + 1 >= argc)
          die_usage("option %s needs a value", a);
        opt = with_value[k];
        val = argv[++i];
      } else if (!strncmp(a, with_value[k], n) && a[n] == '=') {
        opt = with_value[k];
        val = a + n + 1;
      }
    }
    if (opt) {
      if (!strcmp(opt, "-o"))
        c->out = val;
      else if (!strcmp(opt, "-j"))
        c->jobs = (int)number_arg(opt, val, 1);
      else if (!strcmp(opt, "--backend"))
        c->backend = val;
      else if (!strcmp(opt, "--sshloginfile"))
        c->bo.sshloginfile = val;
      else if (!strcmp(opt, "--chunk"))
        c->bo.chunk = (size_t)number_arg(opt, val, 1);
      else if (!strcmp(opt, "--retries"))
        c->bo.retries = (int)number_arg(opt, val, 0);
      else if (!strcmp(opt, "--sbatch")) {
        c->bo.slurm_args = xrealloc(c->bo.slurm_args, (c->bo.nslurm_args + 1) * sizeof(char *));
        c->bo.slurm_args[c->bo.nslurm_args++] = val;
      } else if (!strcmp(opt, "--smpirun"))
        c->smpirun = val;
      else if (!strcmp(opt, "--x"))
        c->plot.x = val;
      else if (!strcmp(opt, "--lines"))
        c->plot.lines = val;
      else if (!strcmp(opt, "--y"))
        c->plot.y = val;
      else if (!strcmp(opt, "--heat"))
        c->plot.heat = val;
    } else if (!strcmp(a, "-q")) {
      c->quiet = true;
    } else if (!strcmp(a, "--skip-failed")) {
      c->skip_failed = true;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      exit(0);
    } else if (a[0] == '-' && a[1]) {
      die_usage("unknown option '%s'", a);
    } else if (!c->cmd) {
      c->cmd = a;
    } else if (!c->study) {
      c->study = a;
    } else {
      c->rest[c->nrest++] = a;
    }
  }
  if (!c->cmd)
    die_usage("%sno command (run, list, collect, plot)", "");
  if (!c->study)
    die_usage("%s needs a study file", c->cmd);
}

static int summary(const sweep_study *st, const sweep_dirs *d, bool quiet)
{
  char err[512];
  size_t ok, failed, missing;
  if (sweep_write_results(st, d, &ok, &failed, &missing, err, sizeof err) != 0) {
    fprintf(stderr, "smpi-sweep: %s\n", err);
    return 1;
  }
  if (!quiet)
    fprintf(stderr,
            "[smpi-sweep] %zu points: %zu ok, %zu failed, %zu missing -> %s/results.csv, "
            "%s/results.sqlite\n",
            st->npoints, ok, failed, missing, d->out, d->out);
  if (failed && !quiet)
    fprintf(stderr,
            "[smpi-sweep] failed points: status failed in results.csv, their logs in %s\n",
            d->logs);
  return failed || missing ? 1 : 0;
}

static double cpu_self(void)
{
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
         (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static int cmd_run(sweep_cli *c, const sweep_study *st, const sweep_dirs *d, const char *smpirun)
{
  const char *backend = c->backend ? c->backend : "local";
  if (strcmp(backend, "local") && strcmp(backend, "parallel") && strcmp(backend, "slurm"))
    die_usage("unknown backend '%s' (local, parallel or slurm)", backend);
  sweep_install_signals();
  size_t npending;
  size_t *pending = sweep_pending(st, d, 0, st->npoints, !c->skip_failed, &npending);
  sweep_progress p = {.total = st->npoints,
                      .skipped = st->npoints - npending,
                      .start = sweep_now(),
                      .tty = isatty(2),
                      .quiet = c->quiet};
  p.last_print = -1e9;
  double t0 = sweep_now(), cpu0 = cpu_self();
  /* the sample profile: recorded once by a run of the first pending point, alone, so that no
   * two points measure (and append) at the same time. That run's time mixes measured and
   * profiled samples, so the point runs again with the others, every one reading the profile
   * only (which makes their times reproducible); the recording's log is kept aside. */
  if (st->sample_file && npending > 0 && access(st->sample_file, F_OK) != 0) {
    if (!c->quiet)
      fprintf(stderr, "[smpi-sweep] recording the sample profile %s with point %zu\n",
              st->sample_file, pending[0]);
    sweep_progress rec = {.total = 1, .start = sweep_now(), .quiet = true};
    if (sweep_run_points(st, d, smpirun, pending, 1, 1, &rec) < 0) {
      free(pending);
      return 130;
    }
    char *recp = sweep_record_path(d, pending[0]), *logp = sweep_log_path(d, pending[0]);
    char *kept = xasprintf("%s/sample-recording.log", d->logs);
    rename(logp, kept);
    unlink(recp);
    if (rec.failed)
      fprintf(stderr, "[smpi-sweep] the recording run failed (see %s)\n", kept);
    free(recp);
    free(logp);
    free(kept);
  }
  size_t first = 0;
  int rc = 0;
  if (!strcmp(backend, "local")) {
    rc = sweep_run_points(st, d, smpirun, pending + first, npending - first, c->jobs, &p) < 0 ? -1
                                                                                              : 0;
  } else {
    c->bo.jobs = c->jobs;
    c->bo.smpirun = smpirun;
    c->bo.study_arg = st->path;
    c->bo.self = self_dir_file(NULL);
    p.engine = true;
    rc = !strcmp(backend, "parallel")
             ? sweep_run_parallel(st, d, pending + first, npending - first, &c->bo, &p)
             : sweep_run_slurm(st, d, pending + first, npending - first, &c->bo, &p);
    sweep_progress_print(&p, true);
    free((char *)c->bo.self);
  }
  double wall = sweep_now() - t0, cpu = cpu_self() - cpu0;
  /* overhead: the tool's own CPU per point, and the wall-clock time of the study beyond the
   * points' own (local backend: jobs slots busy the whole time if there were no overhead) */
  double sum_wall = 0;
  for (size_t k = 0; k < npending; k++) {
    sweep_record r;
    sweep_record_read(st, d, pending[k], &r);
    sum_wall += r.present ? r.wall_time : 0;
    sweep_record_clear(&r);
  }
  if (!c->quiet && npending > 0)
    fprintf(stderr,
            "[smpi-sweep] %zu points run in %.2f s wall with %s -j %d: points' own wall time "
            "%.2f s in all; smpi-sweep CPU %.2f ms per point\n",
            npending, wall, backend, c->jobs, sum_wall, 1e3 * cpu / (double)npending);
  free(pending);
  int s = summary(st, d, c->quiet);
  if (sweep_interrupted) {
    fprintf(stderr, "[smpi-sweep] interrupted: run the same command again to resume\n");
    return 130;
  }
  return rc != 0 ? 1 : s;
}

int main(int argc, char **argv)
{
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    usage(stdout);
    return 0;
  }
  sweep_cli c;
  parse_cli(argc, argv, &c);
  const char *known[] = {"run", "list", "collect", "plot", "point", "chunk"};
  bool ok_cmd = false;
  for (size_t k = 0; k < sizeof known / sizeof *known; k++)
    ok_cmd = ok_cmd || !strcmp(c.cmd, known[k]);
  if (!ok_cmd)
    die_usage("unknown command '%s' (run, list, collect, plot)", c.cmd);

  char err[1024];
  sweep_study st;
  if (sweep_study_load(c.study, &st, err, sizeof err) != 0) {
    fprintf(stderr, "smpi-sweep: %s\n", err);
    free(c.rest);
    free(c.bo.slurm_args);
    return 2;
  }
  int rc = 0;
  char *smpirun = NULL;
  char *out = c.out ? xstrdup(c.out) : default_out(&st);
  if (!strcmp(c.cmd, "list")) {
    for (size_t i = 0; i < st.npoints; i++) {
      char **a = sweep_point_argv(&st, i, "smpirun", err, sizeof err);
      char *s = a ? sweep_argv_string(a) : NULL;
      printf("%zu\t%s\n", i, s ? s : err);
      free(s);
      sweep_argv_free(a);
    }
    goto done;
  }
  bool runs = !strcmp(c.cmd, "run") || !strcmp(c.cmd, "point") || !strcmp(c.cmd, "chunk");
  if (runs) {
    smpirun = find_smpirun(c.smpirun);
    if (!smpirun) {
      fprintf(stderr, "smpi-sweep: cannot find smpirun%s%s (give --smpirun PATH)\n",
              c.smpirun ? " " : "", c.smpirun ? c.smpirun : "");
      rc = 2;
      goto done;
    }
  }
  sweep_dirs d;
  if (sweep_dirs_prepare(&st, out, runs, &d, err, sizeof err) != 0) {
    fprintf(stderr, "smpi-sweep: %s\n", err);
    rc = 2;
    goto done;
  }
  if (!strcmp(c.cmd, "run")) {
    rc = cmd_run(&c, &st, &d, smpirun);
  } else if (!strcmp(c.cmd, "collect")) {
    rc = summary(&st, &d, c.quiet);
  } else if (!strcmp(c.cmd, "plot")) {
    if (c.nrest != 1)
      die_usage("%splot needs one output file (.png or .svg)", "");
    c.plot.out = c.rest[0];
    if (!c.plot.y)
      c.plot.y = "time";
    if (sweep_plot(&st, &d, &c.plot, err, sizeof err) != 0) {
      fprintf(stderr, "smpi-sweep: %s\n", err);
      rc = 2;
    }
  } else {
    /* point I...: given points; chunk K: the pending points of chunk K */
    size_t *pts = NULL, n = 0;
    if (!strcmp(c.cmd, "point")) {
      pts = xcalloc(c.nrest + 1, sizeof *pts);
      for (size_t k = 0; k < c.nrest; k++) {
        long i = number_arg("point", c.rest[k], 0);
        if ((size_t)i >= st.npoints)
          die_usage("no point %s in this study", c.rest[k]);
        pts[n++] = (size_t)i;
      }
    } else {
      if (c.nrest != 1 || !c.bo.chunk)
        die_usage("%schunk needs --chunk C and one chunk number", "");
      size_t k = (size_t)number_arg("chunk", c.rest[0], 0);
      pts = sweep_pending(&st, &d, k * c.bo.chunk, (k + 1) * c.bo.chunk, !c.skip_failed, &n);
    }
    long failed = sweep_run_points(&st, &d, smpirun, pts, n, !strcmp(c.cmd, "chunk") ? c.jobs : 1,
                                   NULL);
    rc = failed < 0 ? 130 : failed > 0 ? 1 : 0;
    free(pts);
  }
  sweep_dirs_free(&d);
done:
  free(out);
  free(smpirun);
  free(c.rest);
  free(c.bo.slurm_args);
  sweep_study_free(&st);
  return rc;
}
