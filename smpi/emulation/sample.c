/* CPU sampling: run a block a few times, then skip it and inject its cost.
 *
 * Worked example, SMPI_SAMPLE_LOCAL(3) { kernel(); } executed 5 times by one rank, mean mode:
 *
 *   execution   1       2       3       4          5
 *   runs?       yes     yes     yes     no         no
 *   injected    0.011   0.009   0.010   mean=0.010 0.010   (seconds measured on this machine,
 *                                                            x smpi/host-speed = flops)
 *   with smpi/sample-mode:replay, 4 and 5 each inject one of {0.011, 0.009, 0.010} drawn by
 *   the rank's own generator (xoshiro256**, seeded from smpi/seed and the rank).
 *
 * Timing: begin ends the rank's current CPU burst (smpi_enter_call, which injects it) and
 * reads the thread CPU clock; end reads it again, injects exactly the block's time and
 * restarts the burst timer (smpi_leave_call). So the block is never counted twice.
 *
 * A sample site is keyed by the address of the "file:line:counter" string literal the macro
 * passes (one per use, shared by all ranks since read-only data is not privatized); the string
 * itself names it in the sample file. LOCAL sites keep statistics per rank, GLOBAL ones once.
 */
#include "smpi/emulation/sample.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"
#include "smpi/smpi.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/rng.h"

LOG_EXTERNAL_CATEGORY(smpi);
LOG_NEW_SUBCATEGORY(smpi_sample, smpi, "CPU sampling (SMPI_SAMPLE_*) and compute noise");
LOG_DEFAULT_CATEGORY(smpi_sample);

typedef enum { NOISE_NONE, NOISE_NORMAL, NOISE_UNIFORM } noise_kind;

/* Samples of one site (GLOBAL) or of one rank at one site (LOCAL), in seconds. */
typedef struct sample_stats {
  long started; /* executions begun (decides GLOBAL's n in total even if blocks interleave) */
  size_t n;     /* samples recorded */
  size_t cap;
  double *v;
  double sum, sumsq;
  bool complete; /* sampling is over: skip and inject */
} sample_stats;

typedef struct sample_site {
  const char *key; /* the macro's literal; its address is the lookup key */
  bool global;
  long limit;
  double threshold;
  sample_stats g;       /* GLOBAL */
  sample_stats **ranks; /* LOCAL: np entries, created on a rank's first use */
} sample_site;

/* Per rank: the generator and the block being timed. */
typedef struct sample_rank {
  rng_state rng;
  bool seeded;
  bool open;
  sample_stats *open_st;
  sample_site *open_site;
  struct timespec t0; /* thread CPU clock when the open sample (re)started running */
  double spent;       /* CPU seconds of the open sample before t0 (it was switched out) */
} sample_rank;

/* A profile read from smpi/sample-file. */
typedef struct sample_profile {
  char *key;
  long rank; /* -1: GLOBAL */
  double *v;
  size_t n;
  struct sample_profile *next;
} sample_profile;

#define PROFILE_BUCKETS 1024

static struct sampling_state {
  bool ready;
  bool replay;
  uint64_t seed;
  noise_kind noise;
  double noise_a, noise_b;
  const char *file;
  sample_profile *profiles[PROFILE_BUCKETS];
  /* open addressing on the literal's address */
  sample_site **sites;
  size_t nsites, capsites;
  sample_rank *ranks;
  int nranks;
} sampling;

static const cfg_key sample_keys[] = {
    CFG_KEY_STRING("smpi/sample-mode", "mean", "mean|replay",
                   "Cost injected for a skipped sampled block: mean (of the samples) or replay "
                   "(one recorded sample drawn at random with smpi/seed)"),
    CFG_KEY_INT("smpi/seed", 0,
                "Seed of the generators of smpi/sample-mode:replay and smpi/compute-noise "
                "(same seed, same simulated times)"),
    CFG_KEY_STRING("smpi/compute-noise", "none", NULL,
                   "Multiply every sampled or injected computation by a random factor: none, "
                   "normal:SIGMA (1 + SIGMA x N(0,1), at least 0), uniform:A:B (in [A,B])"),
    CFG_KEY_STRING("smpi/sample-file", "", NULL,
                   "Sample profiles: read at start (a sample found there is not measured: its "
                   "cost comes from the file) and completed samples are appended to it"),
};

void smpi_sample_declare_config(void) { cfg_declare_keys(sample_keys, CFG_NKEYS(sample_keys)); }

static sample_rank *rank_state(void)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return NULL;
  if (!sampling.ranks) {
    sampling.nranks = smpi_w.np;
    sampling.ranks = xcalloc((size_t)sampling.nranks, sizeof *sampling.ranks);
  }
  ASSERT(me->rank >= 0 && me->rank < sampling.nranks);
  sample_rank *r = &sampling.ranks[me->rank];
  if (!r->seeded) {
    /* each rank its own stream: draws do not depend on how ranks interleave */
    uint64_t x = sampling.seed ^ (0xd1b54a32d192ed03ULL * ((uint64_t)me->rank + 1));
    rng_seed(&r->rng, x);
    r->seeded = true;
  }
  return r;
}

/* uniform in [0, 1) with 53 random bits */
static double uniform01(sample_rank *r) { return rng_uniform(&r->rng); }

static size_t uniform_index(sample_rank *r, size_t n)
{
  return (size_t)(uniform01(r) * (double)n) % n;
}

double smpi_sample_noise_factor(void)
{
  if (!sampling.ready || sampling.noise == NOISE_NONE)
    return 1.0;
  sample_rank *r = rank_state();
  if (!r)
    return 1.0;
  if (sampling.noise == NOISE_UNIFORM)
    return sampling.noise_a + (sampling.noise_b - sampling.noise_a) * uniform01(r);
  /* Box-Muller; the factor cannot go below 0 (a computation takes no negative time) */
  double f = 1.0 + sampling.noise_a * rng_normal(&r->rng);
  return f > 0 ? f : 0;
}

/* ---- configuration and the sample file ---- */

static uint64_t hash_str(const char *s, long rank)
{
  uint64_t h = 1469598103934665603ULL ^ (uint64_t)rank;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static sample_profile *profile_find(const char *key, long rank)
{
  for (sample_profile *p = sampling.profiles[hash_str(key, rank) % PROFILE_BUCKETS]; p;
       p = p->next)
    if (p->rank == rank && !strcmp(p->key, key))
      return p;
  return NULL;
}

static int parse_noise(const char *spec, char *err, size_t errlen)
{
  char *end;
  if (!strcmp(spec, "none") || !*spec) {
    sampling.noise = NOISE_NONE;
    return 0;
  }
  if (!strncmp(spec, "normal:", 7)) {
    errno = 0;
    sampling.noise_a = strtod(spec + 7, &end);
    if (end != spec + 7 && !*end && !errno && sampling.noise_a >= 0 &&
        isfinite(sampling.noise_a)) {
      sampling.noise = NOISE_NORMAL;
      return 0;
    }
  } else if (!strncmp(spec, "uniform:", 8)) {
    errno = 0;
    sampling.noise_a = strtod(spec + 8, &end);
    if (end != spec + 8 && *end == ':') {
      const char *b = end + 1;
      sampling.noise_b = strtod(b, &end);
      if (end != b && !*end && !errno && sampling.noise_a >= 0 &&
          sampling.noise_b >= sampling.noise_a && isfinite(sampling.noise_b)) {
        sampling.noise = NOISE_UNIFORM;
        return 0;
      }
    }
  }
  snprintf(err, errlen,
           "--cfg=smpi/compute-noise:%s: expected none, normal:SIGMA (SIGMA >= 0) or "
           "uniform:A:B (0 <= A <= B)",
           spec);
  return -1;
}

/* Line format: KEY <tab> RANK <tab> COUNT <tab> S1 S2 ... (seconds, %.17g: exact round trip) */
static int load_file(const char *path, char *err, size_t errlen)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errno == ENOENT)
      return 0; /* created when the first sample completes */
    snprintf(err, errlen, "--cfg=smpi/sample-file:%s: cannot read it: %s", path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  long lineno = 0;
  int rc = 0;
  while (rc == 0 && getline(&line, &cap, f) > 0) {
    lineno++;
    if (line[0] == '#' || line[0] == '\n')
      continue;
    char *t1 = strchr(line, '\t');
    char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    char *t3 = t2 ? strchr(t2 + 1, '\t') : NULL;
    char *end;
    long rank = 0, count = 0;
    if (t3) {
      *t1 = *t2 = *t3 = 0;
      rank = strtol(t1 + 1, &end, 10);
      if (*end || rank < -1)
        t3 = NULL;
      count = strtol(t2 + 1, &end, 10);
      if (*end || count <= 0)
        t3 = NULL;
    }
    if (!t3) {
      snprintf(err, errlen, "%s:%ld: expected KEY<tab>RANK<tab>COUNT<tab>SECONDS...", path,
               lineno);
      rc = -1;
      break;
    }
    sample_profile *p = xcalloc(1, sizeof *p);
    p->key = xstrdup(line);
    p->rank = rank;
    p->v = xmalloc((size_t)count * sizeof *p->v);
    const char *s = t3 + 1;
    for (long i = 0; i < count; i++) {
      p->v[i] = strtod(s, &end);
      if (end == s || !(p->v[i] >= 0) || !isfinite(p->v[i])) {
        snprintf(err, errlen, "%s:%ld: value %ld of %ld is missing or not a duration", path,
                 lineno, i + 1, count);
        rc = -1;
        break;
      }
      s = end;
    }
    p->n = (size_t)count;
    uint64_t b = hash_str(p->key, rank) % PROFILE_BUCKETS;
    p->next = sampling.profiles[b];
    sampling.profiles[b] = p;
  }
  free(line);
  fclose(f);
  return rc;
}

int smpi_sample_init(char *err, size_t errlen)
{
  if (sampling.ready)
    return 0;
  smpi_sample_declare_config();
  sampling.replay = !strcmp(cfg_get_string("smpi/sample-mode"), "replay");
  sampling.seed = (uint64_t)cfg_get_int("smpi/seed");
  if (parse_noise(cfg_get_string("smpi/compute-noise"), err, errlen) != 0)
    return -1;
  const char *file = cfg_get_string("smpi/sample-file");
  sampling.file = *file ? xstrdup(file) : NULL;
  if (sampling.file && load_file(sampling.file, err, errlen) != 0)
    return -1;
  sampling.ready = true;
  return 0;
}

static void ensure_ready(void)
{
  char err[1024];
  if (!sampling.ready && smpi_sample_init(err, sizeof err) != 0) {
    fprintf(stderr, "smpi: %s\n", err);
    smpi_abort_job(1);
  }
}

static void save_profile(const sample_site *site, long rank, const sample_stats *st)
{
  if (!sampling.file)
    return;
  FILE *f = fopen(sampling.file, "a");
  if (!f) {
    LOG_WARN("cannot append sample %s to %s: %s (check the directory exists and is writable)",
             site->key, sampling.file, strerror(errno));
    return;
  }
  if (ftell(f) == 0)
    fputs("# smpi sample profiles: KEY<tab>RANK (-1: GLOBAL)<tab>COUNT<tab>seconds...\n", f);
  fprintf(f, "%s\t%ld\t%zu\t", site->key, rank, st->n);
  for (size_t i = 0; i < st->n; i++)
    fprintf(f, "%s%.17g", i ? " " : "", st->v[i]);
  fputc('\n', f);
  fclose(f);
}

/* ---- sites ---- */

static size_t ptr_slot(const void *p, size_t cap)
{
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;
  return (size_t)(h >> 20) & (cap - 1);
}

static void stats_from_profile(sample_stats *st, const sample_profile *p)
{
  st->v = xmalloc(p->n * sizeof *st->v);
  st->cap = st->n = p->n;
  for (size_t i = 0; i < p->n; i++) {
    st->v[i] = p->v[i];
    st->sum += p->v[i];
    st->sumsq += p->v[i] * p->v[i];
  }
  st->complete = true;
}

static sample_site *site_get(const char *key, bool global, long limit, double threshold)
{
  if (sampling.capsites) {
    for (size_t i = ptr_slot(key, sampling.capsites);; i = (i + 1) & (sampling.capsites - 1)) {
      if (!sampling.sites[i])
        break;
      if (sampling.sites[i]->key == key)
        return sampling.sites[i];
    }
  }
  if (2 * (sampling.nsites + 1) > sampling.capsites) {
    size_t cap = sampling.capsites ? 2 * sampling.capsites : 64;
    sample_site **t = xcalloc(cap, sizeof *t);
    for (size_t i = 0; i < sampling.capsites; i++)
      if (sampling.sites[i]) {
        size_t j = ptr_slot(sampling.sites[i]->key, cap);
        while (t[j])
          j = (j + 1) & (cap - 1);
        t[j] = sampling.sites[i];
      }
    free(sampling.sites);
    sampling.sites = t;
    sampling.capsites = cap;
  }
  sample_site *s = xcalloc(1, sizeof *s);
  s->key = key;
  s->global = global;
  s->limit = limit;
  s->threshold = threshold;
  if (limit <= 0)
    LOG_WARN("sample %s: %ld executions to sample; sampling once instead", key, limit);
  if (global) {
    const sample_profile *p = profile_find(key, -1);
    if (p)
      stats_from_profile(&s->g, p);
  } else {
    s->ranks = xcalloc((size_t)(smpi_w.np > 0 ? smpi_w.np : 1), sizeof *s->ranks);
  }
  size_t j = ptr_slot(key, sampling.capsites);
  while (sampling.sites[j])
    j = (j + 1) & (sampling.capsites - 1);
  sampling.sites[j] = s;
  sampling.nsites++;
  return s;
}

static sample_stats *site_stats(sample_site *s, long *rank_out)
{
  smpi_rank *me = smpi_self();
  if (s->global || !me) {
    *rank_out = -1;
    return &s->g;
  }
  *rank_out = me->rank;
  if (!s->ranks[me->rank]) {
    sample_stats *st = xcalloc(1, sizeof *st);
    const sample_profile *p = profile_find(s->key, me->rank);
    if (p)
      stats_from_profile(st, p);
    s->ranks[me->rank] = st;
  }
  return s->ranks[me->rank];
}

/* Whether the next execution runs: not once sampling is over, nor once n executions began
 * (unless none finished yet, e.g. GLOBAL blocks interleaved: there is nothing to inject). */
static bool decide(sample_site *s, sample_stats *st)
{
  if (st->complete)
    return false;
  long limit = s->limit > 0 ? s->limit : 1;
  if (st->started < limit || st->n == 0) {
    st->started++;
    return true;
  }
  return false;
}

static void record(sample_site *s, sample_stats *st, long rank, double seconds)
{
  XGROW(st->v, st->cap, st->n + 1);
  st->v[st->n++] = seconds;
  st->sum += seconds;
  st->sumsq += seconds * seconds;
  if (st->complete)
    return;
  long limit = s->limit > 0 ? s->limit : 1;
  bool done = (long)st->n >= limit;
  if (!done && s->threshold > 0 && st->n >= 2) {
    double n = (double)st->n, mean = st->sum / n;
    double var = (st->sumsq - n * mean * mean) / (n - 1);
    double rse = mean > 0 ? sqrt(var > 0 ? var : 0) / sqrt(n) / mean : 0;
    done = rse < s->threshold;
  }
  if (done) {
    st->complete = true;
    LOG_VERB("sample %s%s: done after %zu samples, mean %g s", s->key,
             s->global ? " (global)" : "", st->n, st->sum / (double)st->n);
    save_profile(s, rank, st);
  }
}

/* cost of one skipped execution, seconds measured on this machine */
static double estimate(sample_rank *r, const sample_stats *st)
{
  if (st->n == 0)
    return 0;
  if (sampling.replay && r)
    return st->v[uniform_index(r, st->n)];
  return st->sum / (double)st->n;
}

static void inject_benched(double seconds)
{
  double f = seconds * smpi_sample_noise_factor() * smpi_w.host_speed;
  if (f > 0)
    smpi_execute_flops_now(f);
}

static void timing_begin(sample_rank *r, sample_site *s, sample_stats *st)
{
  smpi_enter_call();
  r->open = true;
  r->open_site = s;
  r->open_st = st;
  r->spent = 0;
  smpi_self()->sampling = true;
  smpi_host_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &r->t0);
}

static void timing_end(sample_rank *r)
{
  struct timespec t1;
  smpi_host_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  double e = r->spent + smpi_seconds_between(&r->t0, &t1);
  if (e < 0)
    e = 0;
  r->open = false;
  smpi_rank *me = smpi_self();
  me->sampling = false;
  record(r->open_site, r->open_st, r->open_site->global ? -1 : me->rank, e);
  inject_benched(e);
  smpi_leave_call();
}

void smpi_sample_switch(const smpi_rank *from, const smpi_rank *to)
{
  if (from == to || !sampling.ranks)
    return;
  struct timespec now;
  smpi_host_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  if (from && from->sampling) {
    sample_rank *r = &sampling.ranks[from->rank];
    r->spent += smpi_seconds_between(&r->t0, &now);
  }
  if (to && to->sampling)
    sampling.ranks[to->rank].t0 = now;
}

/* a block left by break/goto/return is closed when the rank next samples */
static void close_abandoned(sample_rank *r)
{
  if (r && r->open) {
    LOG_WARN("sample %s was left without reaching its end (break, goto or return in a sampled "
             "block?): its time is counted up to now",
             r->open_site->key);
    timing_end(r);
  }
}

/* ---- block form ---- */

SMPI_PUBLIC smpi_sample_state smpi_sample_block_begin(const char *key, int global, long n,
                                                      double threshold)
{
  smpi_sample_state st = {0};
  ensure_ready();
  sample_rank *r = rank_state();
  if (!r) { /* not in a rank: just run the block */
    st.run = 1;
    return st;
  }
  close_abandoned(r);
  sample_site *s = site_get(key, global != 0, n, threshold);
  long rank;
  sample_stats *ss = site_stats(s, &rank);
  st.site = s;
  if (decide(s, ss)) {
    st.run = 1;
    timing_begin(r, s, ss);
  } else {
    smpi_enter_call();
    inject_benched(estimate(r, ss));
    smpi_leave_call();
  }
  return st;
}

SMPI_PUBLIC int smpi_sample_block_next(smpi_sample_state *st)
{
  if (st->phase++ == 0)
    return st->run;
  if (st->run && st->site) {
    sample_rank *r = rank_state();
    if (r && r->open)
      timing_end(r);
  }
  return 0;
}

/* ---- loop form ---- */

SMPI_PUBLIC smpi_sample_state smpi_sample_loop_begin(const char *key, int global, long iters,
                                                     double threshold, const char *tag)
{
  (void)tag;
  smpi_sample_state st = {0};
  ensure_ready();
  st.phase = -1;
  sample_rank *r = rank_state();
  if (r) {
    close_abandoned(r);
    st.site = site_get(key, global != 0, iters, threshold);
  }
  return st;
}

SMPI_PUBLIC int smpi_sample_loop_pass(smpi_sample_state *st)
{
  st->phase++;
  if (st->phase < 2)
    return 1;
  if (st->run) { /* the body left the loop with break */
    sample_rank *r = rank_state();
    if (r && r->open)
      timing_end(r);
    st->run = 0;
  }
  return 0;
}

SMPI_PUBLIC int smpi_sample_loop_cond(smpi_sample_state *st, int cond)
{
  if (st->phase == 0) {
    st->total += cond != 0;
    return cond;
  }
  if (!st->site) /* not in a rank: a plain loop */
    return cond;
  sample_rank *r = rank_state();
  if (st->run) {
    st->run = 0;
    if (r->open)
      timing_end(r);
  }
  if (!cond)
    return 0;
  st->done++;
  sample_site *s = st->site;
  long rank;
  sample_stats *ss = site_stats(s, &rank);
  if (decide(s, ss)) {
    st->run = 1;
    timing_begin(r, s, ss);
    return 1;
  }
  /* the rest of the loop is skipped: this iteration and those counted after it */
  long left = st->total - st->done + 1;
  if (left < 1)
    left = 1;
  double cost = 0;
  if (sampling.replay) {
    /* one draw per iteration, up to a bound: a billion skipped iterations must stay cheap */
    long draws = left < 4096 ? left : 4096;
    for (long i = 0; i < draws; i++)
      cost += estimate(r, ss);
    cost *= (double)left / (double)draws;
  } else
    cost = estimate(r, ss) * (double)left;
  smpi_enter_call();
  inject_benched(cost);
  smpi_leave_call();
  return 0;
}

/* ---- given costs ---- */

/* SimGrid 3.32's SMPI_SAMPLE_DELAY(t) is smpi_execute(t): t seconds of the machine running
 * the simulation (x smpi/host-speed), nothing under smpi/cpu-threshold; the noise is ours. */
SMPI_PUBLIC void smpi_sample_delay(double seconds)
{
  ensure_ready();
  if (!smpi_self() || !(seconds > 0) || !(seconds >= smpi_w.cpu_threshold))
    return;
  smpi_enter_call();
  inject_benched(seconds);
  smpi_leave_call();
}

SMPI_PUBLIC void smpi_sample_flops(double flops)
{
  ensure_ready();
  if (!smpi_self() || !(flops > 0))
    return;
  smpi_enter_call();
  smpi_execute_flops_now(flops * smpi_sample_noise_factor());
  smpi_leave_call();
}
