/* The progress line (see progress.h). */
#include "smpi/runtime/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/engine.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"

bool smpi_progress_on;

static struct progress_state {
  unsigned calls;
  double start, last, interval;
  int done;
  bool shown;
} progress;

static const cfg_key progress_keys[] = {
    CFG_KEY_STRING("smpi/progress", "auto", "auto|yes|no",
                   "Show a progress line on stderr (simulated time, wall-clock time, ranks "
                   "finished) during the run; auto: only when stderr is a terminal"),
    CFG_KEY_DOUBLE("smpi/progress-interval", 0.25,
                   "Wall-clock seconds between two updates of the progress line; the first "
                   "one comes after twice that"),
};

void smpi_progress_declare_config(void)
{
  cfg_declare_keys(progress_keys, CFG_NKEYS(progress_keys));
}

static double wall(void)
{
  struct timespec t;
  smpi_host_clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void smpi_progress_start(void)
{
  smpi_progress_declare_config();
  const char *v = cfg_get_string("smpi/progress");
  smpi_progress_on = !strcmp(v, "yes") || (!strcmp(v, "auto") && isatty(STDERR_FILENO));
  progress.interval = cfg_get_double("smpi/progress-interval");
  if (progress.interval < 0)
    progress.interval = 0;
  progress.start = wall();
  /* a short run shows nothing at all */
  progress.last = progress.start + progress.interval;
  progress.calls = 0;
  progress.done = 0;
  progress.shown = false;
}

static void show(double now)
{
  char line[160];
  int n = snprintf(line, sizeof line,
                   "\rsmpi: simulated %.6f s | wall-clock %.1f s | %d/%d ranks finished\033[K",
                   eng_now(), now - progress.start, progress.done, smpi_w.np);
  if (n > 0)
    (void)!write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
  progress.shown = true;
}

void smpi_progress_tick(void)
{
  /* reading the clock costs ~20 ns: once per 256 MPI calls keeps it out of the profile */
  if (++progress.calls & 255)
    return;
  double now = wall();
  if (now - progress.last < progress.interval)
    return;
  progress.last = now;
  show(now);
}

void smpi_progress_rank_done(void) { progress.done++; }

void smpi_progress_end(void)
{
  if (progress.shown)
    (void)!write(STDERR_FILENO, "\r\033[K", 4);
  progress.shown = false;
  smpi_progress_on = false;
}
