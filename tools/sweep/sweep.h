/* smpi-sweep: parameter sweeps of smpirun runs (docs/sweeps.md). Shared declarations of its
 * parts:
 *
 *   study.c    the study file (YAML) -> sweep_study; point i -> its smpirun command line
 *   run.c      running points: one point (fork, exec smpirun, wait4), a pool of N, records,
 *              the progress line; the local backend
 *   backend.c  the GNU parallel and Slurm backends (each runs `smpi-sweep point|chunk` as
 *              its tasks, which come back to run.c)
 *   results.c  the per-point records -> results.csv and results.sqlite
 *   splot.c    figures from the results (calibration/plot.c's cairo API)
 *   main.c     the command line
 *
 * The output directory (default: the study's name without extension, plus ".sweep"):
 *
 *   DIR/study.yaml            copy of the study: a resumed sweep must be the same study
 *   DIR/points/000042.rec     record of point 42 (written by whoever ran it, atomically)
 *   DIR/logs/000042.log       its stdout and stderr
 *   DIR/results.csv, DIR/results.sqlite   one row per point (rewritten at the end of a run)
 *   DIR/slurm/                the Slurm batch script and the tasks' own output
 *
 * A point is done when its record says "ok"; a run skips those, so stopping a sweep (^C) and
 * starting it again resumes it, on any backend.
 */
#ifndef SMPI_TOOLS_SWEEP_H
#define SMPI_TOOLS_SWEEP_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct sweep_param {
  char *name;
  char **values; /* the text substituted for {name}, in the study's order */
  size_t nvalues;
  int line;      /* in the study file */
  int zip_group; /* index into sweep_study.dims of the dimension it belongs to */
} sweep_param;

/* One axis of the crossed product: a parameter alone, or a zip group whose parameters take
 * their k-th values together. */
typedef struct sweep_dim {
  size_t params[16]; /* indexes into sweep_study.params */
  size_t nparams;
  size_t length; /* values along this axis */
} sweep_dim;

typedef struct sweep_output {
  char *name;
  char *pattern; /* POSIX extended regex; the value is its first group (or the whole match) */
  regex_t re;
} sweep_output;

typedef struct sweep_study {
  char *path; /* absolute path of the study file */
  char *dir;  /* its directory: relative paths of the study and the points' cwd */
  char *text; /* its bytes (a resumed sweep checks they did not change) */
  char *program;
  char **args; /* templates ({param} substituted per point) */
  size_t nargs;
  char *np;       /* template, or NULL: smpirun's default */
  char *platform; /* template, or NULL: the built-in platform */
  char *hostfile; /* template, or NULL */
  char **sets;    /* --platform-set templates */
  size_t nsets;
  char **cfgs; /* --cfg templates (KEY:VALUE) */
  size_t ncfgs;
  char *sample_file; /* absolute, or NULL: smpi/sample-file shared by every point */
  long *seeds;       /* smpi/seed of each repetition; NULL: one run per point, no seed */
  size_t nseeds;
  sweep_output *outputs;
  size_t noutputs;
  double timeout; /* s per point; 0: none */
  sweep_param *params;
  size_t nparams;
  sweep_dim *dims;
  size_t ndims;
  size_t npoints;
} sweep_study;

/* study.c */
int sweep_study_load(const char *path, sweep_study *st, char *err, size_t errlen);
void sweep_study_free(sweep_study *st);
/* value index of each parameter at point i (vidx has st->nparams slots); returns the seed
 * index (0 when there are no seeds) */
size_t sweep_point_values(const sweep_study *st, size_t i, size_t *vidx);
/* The smpirun command line of point i (argv[0] = smpirun), NULL-terminated; free with
 * sweep_argv_free. Returns NULL with a message when a template names an unknown
 * parameter. */
char **sweep_point_argv(const sweep_study *st, size_t i, const char *smpirun, char *err,
                        size_t errlen);
void sweep_argv_free(char **argv);
/* shell-quoted command line, for logs and docs (free()) */
char *sweep_argv_string(char *const *argv);

/* run.c */
typedef struct sweep_record {
  bool present;
  bool ok;
  int exit_code;   /* or 128 + signal */
  double sim_time; /* s; NaN when the run did not print it */
  double cpu_time; /* user + system s of the simulation process */
  double wall_time;
  long peak_rss_kib;
  char **outputs; /* one per study output, NULL when not found */
} sweep_record;

typedef struct sweep_dirs {
  char *out;    /* DIR, absolute */
  char *points; /* DIR/points */
  char *logs;   /* DIR/logs */
} sweep_dirs;

int sweep_dirs_prepare(const sweep_study *st, const char *out, bool create, sweep_dirs *d,
                       char *err, size_t errlen);
void sweep_dirs_free(sweep_dirs *d);
char *sweep_record_path(const sweep_dirs *d, size_t i);
char *sweep_log_path(const sweep_dirs *d, size_t i);
int sweep_record_read(const sweep_study *st, const sweep_dirs *d, size_t i, sweep_record *r);
void sweep_record_clear(sweep_record *r);

typedef struct sweep_progress {
  size_t total;   /* points of the study */
  size_t skipped; /* already done when the run started */
  size_t done, failed;
  size_t running;
  double start;      /* monotonic s */
  double last_print; /* monotonic s */
  bool tty;
  bool quiet;
  bool engine; /* parallel, slurm: what runs is the engine's business, not shown */
} sweep_progress;

double sweep_now(void);
void sweep_progress_print(sweep_progress *p, bool final);

/* Runs the given points with at most jobs at a time; each writes its record. progress may be
 * NULL. Returns the number of points that failed; -1 if interrupted. */
long sweep_run_points(const sweep_study *st, const sweep_dirs *d, const char *smpirun,
                      const size_t *points, size_t npoints, int jobs, sweep_progress *progress);
/* Points of [from, to) whose record is not "ok" (retry_failed) or absent; caller frees. */
size_t *sweep_pending(const sweep_study *st, const sweep_dirs *d, size_t from, size_t to,
                      bool retry_failed, size_t *n);
/* set by SIGINT/SIGTERM handlers */
extern volatile int sweep_interrupted;
void sweep_install_signals(void);

/* backend.c */
typedef struct sweep_backend_opts {
  int jobs;                 /* parallel: -j; slurm: --cpus-per-task of a task */
  size_t chunk;             /* points per task (0: automatic) */
  int retries;              /* slurm: resubmissions of failed chunks */
  const char *sshloginfile; /* parallel: across machines */
  char **slurm_args;        /* extra sbatch arguments */
  size_t nslurm_args;
  const char *self;      /* absolute path of smpi-sweep */
  const char *smpirun;   /* absolute */
  const char *study_arg; /* absolute path of the study */
} sweep_backend_opts;

int sweep_run_parallel(const sweep_study *st, const sweep_dirs *d, const size_t *points,
                       size_t npoints, const sweep_backend_opts *o, sweep_progress *p);
int sweep_run_slurm(const sweep_study *st, const sweep_dirs *d, const size_t *points,
                    size_t npoints, const sweep_backend_opts *o, sweep_progress *p);

/* results.c */
int sweep_write_results(const sweep_study *st, const sweep_dirs *d, size_t *nok, size_t *nfailed,
                        size_t *nmissing, char *err, size_t errlen);

/* splot.c */
typedef struct sweep_plot_opts {
  const char *x;     /* parameter along x */
  const char *lines; /* parameter: one line per value (NULL: one line) */
  const char *heat;  /* "P,Q": heat map over two parameters instead */
  const char *y;     /* "time" (simulated time) or an output's name */
  const char *out;   /* .png or .svg */
} sweep_plot_opts;

int sweep_plot(const sweep_study *st, const sweep_dirs *d, const sweep_plot_opts *o, char *err,
               size_t errlen);

#endif
