/* Collective operations: the MPI entry points, their argument checks, MPI_IN_PLACE, and the
 * choice of an algorithm (smpi/<collective> if set, else smpi/coll-selector's decision).
 *
 *   smpi/bcast unset        -> smpi/coll-selector (default|mpich|ompi) decides
 *   smpi/bcast:mpich        -> the mpich selector decides for MPI_Bcast only
 *   smpi/bcast:flattree     -> always that algorithm; if it cannot serve a call (a
 *                              non-commutative op, a size it does not handle) the
 *                              coll-selector's choice runs instead, with a warning (once)
 *
 * The tables (coll_algos, coll_infos, the configuration keys) are generated from
 * coll_list.h. Collectives on intercommunicators (Barrier, Bcast, Gather(v), Scatter(v),
 * Reduce, Allreduce, Allgather(v), Alltoall(v/w), Reduce_scatter(_block)), blocking or not,
 * go to coll_inter.c; the scans, not defined there, fail and say so. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/coll_group.h"
#include "collectives/coll_nb.h"
#include "collectives/coll_private.h"
#include "collectives/coll_trace.h"
#include "smpi/mpi/check.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

#include "collectives/coll_inter.h" /* intercommunicator collectives */

LOG_NEW_SUBCATEGORY(smpi_coll, smpi, "MPI collective operations: algorithms and selectors");
LOG_DEFAULT_CATEGORY(smpi_coll);

/* ---- tables ---- */

const coll_info coll_infos[COLL_COUNT] = {
#define COLL_X_INFO(c, mpi, desc) [COLL_##c] = {#c, mpi, desc},
    COLL_COLLECTIVES(COLL_X_INFO)
#undef COLL_X_INFO
};

const coll_algo coll_algos[COLL_ALG_COUNT] = {
#define COLL_X_ALGO(c, a, flags, desc) \
  [COLL_ALG_##c##_##a] = {COLL_##c, #a, coll_##c##_##a, flags, desc},
    COLL_ALGORITHMS(COLL_X_ALGO)
#undef COLL_X_ALGO
};

const coll_selector coll_selectors[] = {
    {"default", coll_select_default,
     "SimGrid 3.32's default choices, so that default runs match SimGrid's simulated times",
     false},
    {"mpich", coll_select_mpich, "MPICH 3.3-4.x decision logic (thresholds in selector_mpich.c)",
     false},
    {"ompi", coll_select_ompi,
     "SimGrid 3.32's ompi selector: Open MPI 4.1 coll/tuned fixed decision tables "
     "(selector_ompi.c)",
     false},
    {"mvapich2", coll_select_mvapich2,
     "SimGrid 3.32's MVAPICH2 tables (Stampede tuning; thresholds in selector_mvapich2.c)",
     false},
    {"automatic", coll_select_automatic,
     "every call runs every algorithm that fits it, each after a Barrier, and reports the "
     "fastest (SimGrid's autotuning: the simulated time is the sum of all the runs)",
     false},
    {"impi", coll_select_impi,
     "SimGrid 3.32's Intel MPI 4.1 tables, by ranks per host, ranks and size "
     "(selector_impi.c)",
     true},
};
const size_t coll_nselectors = sizeof coll_selectors / sizeof coll_selectors[0];

int coll_algo_find(coll_id c, const char *name)
{
  for (int i = 0; i < COLL_ALG_COUNT; i++)
    if (coll_algos[i].coll == c && !strcmp(coll_algos[i].name, name))
      return i;
  return -1;
}

bool coll_algo_fits(coll_alg_id id, const coll_features *f)
{
  unsigned fl = coll_algos[id].flags;
  if ((fl & COLL_F_COMMUTATIVE) && !f->commutative)
    return false;
  if ((fl & COLL_F_POW2) && !coll_is_pow2(f->size))
    return false;
  if ((fl & COLL_F_EVEN) && f->size % 2)
    return false;
  if ((fl & COLL_F_SIZE2) && f->size != 2)
    return false;
  if ((fl & COLL_F_REGULAR) && f->irregular)
    return false;
  if ((fl & COLL_F_COUNT_POW2) && f->count < (size_t)coll_pof2_floor(f->size))
    return false;
  if ((fl & COLL_F_SMP) && f->ppn <= 0)
    return false;
  int u, v;
  if ((fl & COLL_F_MESH2) && !coll_mesh2(f->size, &u, &v))
    return false;
  if ((fl & COLL_F_MESH3) && !coll_mesh3(f->size, &u, &v))
    return false;
  return true;
}

bool coll_mesh2(int n, int *X, int *Y)
{
  for (int x = (int)sqrt((double)n); x <= n / 2; x++)
    if (x > 0 && n % x == 0) {
      *X = x < n / x ? x : n / x;
      *Y = n / *X;
      return true;
    }
  return false;
}

bool coll_mesh3(int n, int *X, int *Z)
{
  for (int x = (int)cbrt((double)n); x <= n / 3; x++)
    if (x > 0 && n % (x * x) == 0) {
      *X = x;
      *Z = n / (x * x);
      return true;
    }
  return false;
}

/* ---- configuration ----
 * choice[c]: >= 0 an algorithm index, -1 follow smpi/coll-selector, -2 - k selector k. */
static int choice[COLL_COUNT];
static size_t selector_idx;

static int parse_choice(coll_id c, const char *v)
{
  if (!*v)
    return -1;
  for (size_t k = 0; k < coll_nselectors; k++)
    if (!strcmp(v, coll_selectors[k].name))
      return -2 - (int)k;
  return coll_algo_find(c, v); /* the key's choices make -1 impossible here */
}

static void on_coll_key(const char *key, void *data)
{
  coll_id c = (coll_id)(size_t)data;
  choice[c] = parse_choice(c, cfg_get_string(key));
}

static void on_selector_key(const char *key, void *data)
{
  (void)data;
  const char *v = cfg_get_string(key);
  for (size_t k = 0; k < coll_nselectors; k++)
    if (!strcmp(v, coll_selectors[k].name))
      selector_idx = k;
}

/* The table is built at run time: the choices of each key are the selectors and the
 * algorithms of coll_algos, which stay the only list of them. */
void coll_declare_config(void)
{
  static bool done;
  if (done)
    return; /* the hooks below are registered once */
  done = true;
  char sel_choices[256] = "";
  for (size_t k = 0; k < coll_nselectors; k++)
    snprintf(sel_choices + strlen(sel_choices), sizeof sel_choices - strlen(sel_choices), "%s%s",
             k ? "|" : "", coll_selectors[k].name);
  cfg_key keys[1 + COLL_COUNT];
  keys[0] = (cfg_key)CFG_KEY_STRING("smpi/coll-selector", "default", sel_choices,
                                    "Which decision logic picks the collective algorithms: "
                                    "default (SimGrid 3.32's defaults), mpich (MPICH 3/4), "
                                    "ompi (SimGrid 3.32's: Open MPI 4.1 tuned), mvapich2 "
                                    "(SimGrid's MVAPICH2 tables), impi (SimGrid's Intel MPI "
                                    "tables), automatic (every call tries every algorithm); "
                                    "smpirun -help-coll shows the choices");
  for (int c = 0; c < COLL_COUNT; c++) {
    /* "" (follow the selector), the selectors, then the algorithms */
    size_t len = 2 + strlen(sel_choices);
    for (int i = 0; i < COLL_ALG_COUNT; i++)
      if (coll_algos[i].coll == (coll_id)c)
        len += strlen(coll_algos[i].name) + 1;
    char *choices = xmalloc(len);
    snprintf(choices, len, "|%s", sel_choices);
    for (int i = 0; i < COLL_ALG_COUNT; i++)
      if (coll_algos[i].coll == (coll_id)c) {
        strcat(choices, "|");
        strcat(choices, coll_algos[i].name);
      }
    char *desc = xasprintf("Algorithm of %s (empty: follow smpi/coll-selector; a selector "
                           "name: that selector's choice; see smpirun -help-coll)",
                           coll_infos[c].mpi_name);
    keys[1 + c] = (cfg_key)CFG_KEY_STRING(xasprintf("smpi/%s", coll_infos[c].name), "", choices,
                                          desc);
  }
  cfg_declare_keys(keys, CFG_NKEYS(keys));
  cfg_on_change("smpi/coll-selector", on_selector_key, NULL);
  for (int c = 0; c < COLL_COUNT; c++) {
    cfg_on_change(keys[1 + c].name, on_coll_key, (void *)(size_t)c);
    choice[c] = -1;
    free((char *)keys[1 + c].name);
    free((char *)keys[1 + c].choices);
    free((char *)keys[1 + c].desc);
  }
}

/* ---- test hook: per rank, so that a rank that finished a collective early cannot change
 * the algorithm of a call another rank has not entered yet ---- */
static int *forced; /* [world rank * COLL_COUNT + c], see smpi_coll_force */
static int forced_np;

/* Ranks inside the automatic selector's exploration: collectives that start afresh there
 * (an alltoall pair_rma candidate's window creation and fences, in smpi/rma/) use the
 * default selector too, as the candidates' nested calls do through coll_ctx.exploring. */
static struct coll_exploring {
  bool *by_rank; /* [world rank] */
  int np;
} exploring;

static bool rank_exploring(const smpi_rank *me)
{
  return me && exploring.by_rank && exploring.np == smpi_w.np && exploring.by_rank[me->rank];
}

static void set_rank_exploring(bool on)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return;
  if (!exploring.by_rank || exploring.np != smpi_w.np) {
    free(exploring.by_rank);
    exploring.by_rank = xcalloc((size_t)smpi_w.np, sizeof *exploring.by_rank);
    exploring.np = smpi_w.np;
  }
  exploring.by_rank[me->rank] = on;
}

__attribute__((visibility("default"))) int smpi_coll_force(const char *coll, const char *name);
int smpi_coll_force(const char *coll, const char *name)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return -1;
  if (!forced || forced_np != smpi_w.np) {
    free(forced);
    forced = xcalloc((size_t)smpi_w.np * COLL_COUNT, sizeof *forced);
    forced_np = smpi_w.np;
  }
  for (int c = 0; c < COLL_COUNT; c++) {
    if (strcmp(coll, coll_infos[c].name))
      continue;
    /* stored as choice + 2: 0 = not forced, 1 = follow smpi/coll-selector (never stored),
     * 2.. = algorithms, negative = a selector (-1 - k) */
    int v = 0;
    if (name && *name) {
      v = parse_choice((coll_id)c, name);
      if (v == -1)
        return -1;
      v = v >= 0 ? v + 2 : v + 1;
    }
    forced[(size_t)me->rank * COLL_COUNT + c] = v;
    return 0;
  }
  return -1;
}

/* Name of the i-th algorithm of collective coll (0-based), NULL past the last one: lets a
 * test program enumerate the algorithms. */
__attribute__((visibility("default"))) const char *smpi_coll_algorithm_name(const char *coll,
                                                                            int i);
const char *smpi_coll_algorithm_name(const char *coll, int i)
{
  for (int a = 0; a < COLL_ALG_COUNT; a++)
    if (!strcmp(coll_infos[coll_algos[a].coll].name, coll) && i-- == 0)
      return coll_algos[a].name;
  return NULL;
}

/* ---- host grouping ---- */

/* Ranks per host when every host holds the same number of consecutive ranks of comm, else
 * 0 (SMP-aware algorithms then step aside). O(size): only SMP algorithms ask. */
static int smp_layout(const smpi_comm *c)
{
  int n = smpi_comm_size(c);
  size_t h0 = smpi_w.ranks[smpi_comm_local_world_rank(c, 0)].host;
  int ppn = 1;
  while (ppn < n && smpi_w.ranks[smpi_comm_local_world_rank(c, ppn)].host == h0)
    ppn++;
  if (n % ppn)
    return 0;
  for (int r = 0; r < n; r++) {
    size_t h = smpi_w.ranks[smpi_comm_local_world_rank(c, r)].host;
    size_t lead = smpi_w.ranks[smpi_comm_local_world_rank(c, r - r % ppn)].host;
    if (h != lead ||
        (r % ppn == 0 && r > 0 && h == smpi_w.ranks[smpi_comm_local_world_rank(c, r - 1)].host))
      return 0;
  }
  return ppn;
}

int coll_node_of(const coll_ctx *x, int r)
{
  ASSERT(x->ppn > 0);
  return r / x->ppn;
}

/* ---- dispatch ---- */

static size_t sum_counts(const int *counts, int n)
{
  size_t s = 0;
  for (int i = 0; i < n; i++)
    s += (size_t)counts[i];
  return s;
}

static void features_of(coll_id c, const coll_ctx *x, const coll_args *a, coll_features *f)
{
  memset(f, 0, sizeof *f);
  f->coll = c;
  f->size = x->size;
  f->in_place = a->in_place;
  f->commutative = a->op ? smpi_op_is_commutative(a->op) : true;
  switch (c) {
  case COLL_barrier:
    break;
  case COLL_bcast:
  case COLL_reduce:
  case COLL_allreduce:
  case COLL_scan:
  case COLL_exscan:
    f->count = (size_t)a->rcount;
    f->dtsize = smpi_dt_size(a->rdt);
    f->total = f->count * f->dtsize;
    break;
  case COLL_gather:
  case COLL_gatherv:
  case COLL_allgather:
  case COLL_alltoall:
    f->count = (size_t)a->scount;
    f->dtsize = smpi_dt_size(a->sdt);
    f->total = f->count * f->dtsize * (size_t)x->size;
    break;
  case COLL_allgatherv:
    f->count = (size_t)a->scount;
    f->dtsize = smpi_dt_size(a->sdt);
    f->total = sum_counts(a->rcounts, x->size) * smpi_dt_size(a->rdt);
    break;
  case COLL_scatter:
  case COLL_scatterv:
    f->count = (size_t)a->rcount;
    f->dtsize = smpi_dt_size(a->rdt);
    f->total = f->count * f->dtsize * (size_t)x->size;
    break;
  case COLL_alltoallv:
    f->count = sum_counts(a->scounts, x->size);
    f->dtsize = smpi_dt_size(a->sdt);
    f->total = f->count * f->dtsize;
    break;
  case COLL_alltoallw:
    break;
  case COLL_reduce_scatter:
    f->dtsize = smpi_dt_size(a->rdt);
    f->count = sum_counts(a->rcounts, x->size);
    f->total = f->count * f->dtsize;
    f->bytes = (size_t)a->rcounts[x->rank] * f->dtsize;
    for (int i = 1; i < x->size; i++)
      f->irregular |= a->rcounts[i] != a->rcounts[0];
    return;
  case COLL_reduce_scatter_block:
    f->count = (size_t)a->rcount;
    f->dtsize = smpi_dt_size(a->rdt);
    f->total = f->count * f->dtsize * (size_t)x->size;
    break;
  case COLL_COUNT:
    UNREACHABLE();
  }
  f->bytes = f->count * f->dtsize;
}

static coll_alg_id selector_choice(size_t k, coll_features *f)
{
  coll_alg_id id = coll_selectors[k].select(f);
  ASSERTF(id < COLL_ALG_COUNT && coll_algos[id].coll == f->coll && coll_algo_fits(id, f),
          "selector %s picked %s for %s", coll_selectors[k].name,
          id < COLL_ALG_COUNT ? coll_algos[id].name : "nothing", coll_infos[f->coll].name);
  return id;
}

/* SimGrid learns how a communicator's ranks sit on hosts (Comm::init_smp) only when an
 * SMP-aware collective first runs on it; until then it takes the ranks for not grouped by
 * host, and its mvapich2 Gather, which never asks, picks its one-level choice. The
 * communicators (or a view's subsets: a host, the leaders) that have had one, per rank. */
static struct coll_smp_seen {
  struct coll_smp_view {
    uint32_t ctx;
    int vbase, vstride;
  } * *v; /* per world rank, nv[rank] entries */
  size_t *nv, *cap;
  size_t nranks;
} smp_seen;

static bool smp_known(const coll_ctx *x, bool mark)
{
  uint32_t ctx = smpi_comm_coll_context(x->comm);
  smpi_rank *me = smpi_self();
  size_t r = me ? (size_t)me->rank : 0;
  if (r >= smp_seen.nranks) {
    if (!mark)
      return false;
    size_t n = r + 1, old = smp_seen.nranks;
    smp_seen.v = xrealloc(smp_seen.v, n * sizeof *smp_seen.v);
    smp_seen.nv = xrealloc(smp_seen.nv, n * sizeof *smp_seen.nv);
    smp_seen.cap = xrealloc(smp_seen.cap, n * sizeof *smp_seen.cap);
    for (size_t i = old; i < n; i++)
      smp_seen.v[i] = NULL, smp_seen.nv[i] = smp_seen.cap[i] = 0;
    smp_seen.nranks = n;
  }
  for (size_t i = 0; i < smp_seen.nv[r]; i++)
    if (smp_seen.v[r][i].ctx == ctx && smp_seen.v[r][i].vbase == x->vbase &&
        smp_seen.v[r][i].vstride == x->vstride)
      return true;
  if (mark) {
    XGROW(smp_seen.v[r], smp_seen.cap[r], smp_seen.nv[r] + 1);
    smp_seen.v[r][smp_seen.nv[r]++] = (struct coll_smp_view){ctx, x->vbase, x->vstride};
  }
  return false;
}

/* selector k's choice for a call on x (the mvapich2 tables depend on the hosts' layout) */
static coll_alg_id select_on(size_t k, const coll_ctx *x, coll_features *f)
{
  if (coll_selectors[k].select != coll_select_mvapich2)
    return selector_choice(k, f);
  f->ppn = x->vstride ? x->ppn : smp_layout(x->comm);
  if (f->coll == COLL_gather && !smp_known(x, false))
    f->ppn = 0;
  coll_alg_id id = selector_choice(k, f);
  /* the calls where SimGrid's mvapich2 selector sets the layout up (and every SMP-aware
   * algorithm: run_algo) */
  if ((f->coll == COLL_bcast && f->count > 0) || f->coll == COLL_allgather ||
      f->coll == COLL_scatter)
    smp_known(x, true);
  return id;
}

static bool is_automatic(size_t k) { return coll_selectors[k].select == coll_select_automatic; }

/* Picks the algorithm of this call; COLL_ALG_COUNT: the automatic selector's exploration. */
static coll_alg_id choose(const coll_ctx *x, coll_features *f)
{
  coll_id c = f->coll;
  smpi_rank *me = smpi_self();
  coll_declare_config(); /* unit tests run collectives without the runtime's declarations */
  int want = choice[c];
  if (forced && me && forced_np == smpi_w.np) {
    int v = forced[(size_t)me->rank * COLL_COUNT + c];
    if (v)
      want = v > 0 ? v - 2 : v - 1;
  }
  size_t k = want == -1 ? selector_idx : want <= -2 ? (size_t)(-2 - want) : coll_nselectors;
  if (k < coll_nselectors && is_automatic(k) && !x->exploring && !rank_exploring(me))
    return COLL_ALG_COUNT; /* coll_run explores */
  if (k < coll_nselectors && coll_selectors[k].by_host)
    f->ppn = smp_layout(x->comm);
  if (k < coll_nselectors)
    return select_on(k, x, f);
  coll_alg_id id = (coll_alg_id)want;
  if ((coll_algos[id].flags & COLL_F_SMP) || coll_selectors[selector_idx].by_host)
    f->ppn = x->vstride ? x->ppn : smp_layout(x->comm);
  if (coll_algo_fits(id, f))
    return id;
  coll_alg_id fb = select_on(selector_idx, x, f);
  static bool warned[COLL_ALG_COUNT];
  if (!warned[id]) {
    warned[id] = true;
    unsigned fl = coll_algos[id].flags;
    LOG_WARN("%s algorithm '%s' cannot serve this call (%s); using '%s' instead (warned once)",
             coll_infos[c].mpi_name, coll_algos[id].name,
             (fl & COLL_F_COMMUTATIVE) && !f->commutative ? "it needs a commutative op"
             : (fl & COLL_F_POW2) && !coll_is_pow2(f->size)
                 ? "it needs a power-of-two number of ranks"
             : (fl & COLL_F_EVEN) && f->size % 2     ? "it needs an even number of ranks"
             : (fl & COLL_F_SIZE2) && f->size != 2   ? "it needs exactly two ranks"
             : (fl & COLL_F_REGULAR) && f->irregular ? "it needs blocks of equal size"
             : (fl & COLL_F_COUNT_POW2)              ? "it needs at least one element per rank"
             : (fl & (COLL_F_MESH2 | COLL_F_MESH3))
                 ? "the number of ranks does not form its mesh"
                 : "it needs the same number of ranks on every host",
             coll_algos[fb].name);
  }
  return fb;
}

static void ctx_done(coll_ctx *x)
{
  ASSERTF(x->nreqs == 0 || x->err != MPI_SUCCESS,
          "%s: an algorithm returned with requests pending", coll_infos[x->coll].mpi_name);
  coll_ctx_done(x);
}

/* Runs algorithm id (chosen for features f) for collective c. */
static int run_algo(coll_ctx *x, coll_id c, coll_alg_id id, const coll_features *f,
                    const coll_args *a)
{
  LOG_DEBUG("%s: %s (size %d, %zu bytes)", coll_infos[c].mpi_name, coll_algos[id].name, x->size,
            f->bytes);
  coll_id saved = x->coll;
  size_t saved_seg = x->segsize;
  int saved_ppn = x->ppn, saved_inner[2] = {x->inner[0], x->inner[1]};
  x->coll = c;
  x->ppn = f->ppn;
  x->segsize = f->segsize;
  x->inner[0] = f->inner[0];
  x->inner[1] = f->inner[1];
  if ((coll_algos[id].flags & COLL_F_SMP) && f->ppn > 0)
    smp_known(x, true);
  int rc = coll_algos[id].fn(x, a);
  x->coll = saved;
  x->segsize = saved_seg;
  x->ppn = saved_ppn;
  x->inner[0] = saved_inner[0];
  x->inner[1] = saved_inner[1];
  if (rc == MPI_SUCCESS)
    rc = x->err;
  return rc;
}

/* ---- the automatic selector ----
 * SimGrid's autotuning: every call runs, one after the other, every algorithm of the
 * collective that can serve it; before each one Open MPI's linear Barrier lines the ranks
 * up, after it a linear Reduce (MPI_MAX of one double) brings the slowest rank's duration
 * to rank 0, which reports the fastest algorithm. The result is the last algorithm's (an
 * in-place reduction's input is restored before each run). Collectives those algorithms
 * call inside (Allreduce's Reduce + Bcast...) follow the default selector, not automatic:
 * SimGrid would explore them again for every outer candidate. */
static int run_automatic(coll_ctx *x, coll_id c, const coll_args *a, coll_features *base)
{
  /* a reduction in place overwrites its input: keep a packed copy to restore */
  void *saved = NULL;
  size_t nsaved = 0;
  if (a->op && a->sbuf == a->rbuf && a->scount > 0) {
    nsaved = (size_t)a->scount;
    saved = coll_tmp(x, nsaved * smpi_dt_size(a->sdt));
    coll_pack(x, a->sbuf, nsaved, a->sdt, saved);
  }
  const smpi_dt *dbl = smpi_dt_get(MPI_DOUBLE);
  coll_args bar = {0};
  coll_features fb = {.coll = COLL_barrier, .size = x->size};
  int rc = MPI_SUCCESS, runs = 0;
  double best = -1.0;
  coll_alg_id best_id = COLL_ALG_COUNT;
  x->exploring = true;
  set_rank_exploring(true);
  for (int i = 0; i < COLL_ALG_COUNT && rc == MPI_SUCCESS; i++) {
    coll_features f = *base;
    if (coll_algos[i].coll != c)
      continue;
    if (coll_algos[i].flags & COLL_F_SMP)
      f.ppn = smp_layout(x->comm);
    if (!coll_algo_fits((coll_alg_id)i, &f))
      continue;
    if (runs++ && saved)
      coll_unpack(x, saved, nsaved, a->sdt, (void *)a->sbuf);
    rc = run_algo(x, COLL_barrier, COLL_ALG_barrier_ompi_basic_linear, &fb, &bar);
    double t0 = smpi_p2p_now();
    if (rc == MPI_SUCCESS)
      rc = run_algo(x, c, (coll_alg_id)i, &f, a);
    double took = smpi_p2p_now() - t0, slowest = 0.0;
    coll_args red = {0};
    red.sbuf = &took;
    red.rbuf = x->rank == 0 ? &slowest : NULL;
    red.scount = red.rcount = 1;
    red.sdt = red.rdt = dbl;
    red.sdt_h = red.rdt_h = MPI_DOUBLE;
    red.op = smpi_op_get(MPI_MAX);
    coll_features fr = {.coll = COLL_reduce, .size = x->size, .commutative = true};
    if (rc == MPI_SUCCESS)
      rc = run_algo(x, COLL_reduce, COLL_ALG_reduce_linear, &fr, &red);
    if (x->rank == 0 && (best < 0 || slowest < best)) {
      best = slowest;
      best_id = (coll_alg_id)i;
    }
  }
  x->exploring = false;
  set_rank_exploring(false);
  if (x->rank == 0 && best_id < COLL_ALG_COUNT)
    LOG_WARN("%s (automatic): %d algorithms tried, the quickest was %s: %g s (slowest rank)",
             coll_infos[c].mpi_name, runs, coll_algos[best_id].name, best);
  return rc;
}

int coll_run(coll_ctx *x, coll_id c, const coll_args *a)
{
  coll_features f;
  features_of(c, x, a, &f);
  coll_alg_id id = choose(x, &f);
  if (id == COLL_ALG_COUNT)
    return run_automatic(x, c, a, &f);
  return run_algo(x, c, id, &f, a);
}

int coll_run_default(coll_ctx *x, coll_id c, const coll_args *a)
{
  coll_features f;
  features_of(c, x, a, &f);
  return run_algo(x, c, coll_select_default(&f), &f, a);
}

int coll_run_group(coll_ctx *x, const coll_group *g, int ppn, coll_id c, coll_alg_id id,
                   const coll_args *a)
{
  if (g->me < 0)
    return x->err;
  int rank = x->rank, size = x->size, saved_ppn = x->ppn, vbase = x->vbase, vstride = x->vstride;
  int s = vstride ? vstride : 1;
  x->vbase = vbase + g->base * s;
  x->vstride = g->stride * s;
  x->rank = g->me;
  x->size = g->n;
  x->ppn = ppn;
  coll_features f;
  features_of(c, x, a, &f);
  f.ppn = ppn;
  if (id == COLL_ALG_COUNT) {
    id = choose(x, &f);
    if (id == COLL_ALG_COUNT) /* automatic: explored at the top level only */
      id = coll_select_default(&f);
  }
  int rc = run_algo(x, c, id, &f, a);
  x->rank = rank;
  x->size = size;
  x->ppn = saved_ppn;
  x->vbase = vbase;
  x->vstride = vstride;
  return rc;
}

static long long block_bytes(int count, const smpi_dt *dt)
{
  return dt ? (long long)count * (long long)smpi_dt_size(dt) : -1;
}

void coll_check_args(smpi_comm *c, coll_id id, const coll_args *a, const char *call)
{
  if (!smpi_check_collectives_enabled())
    return;
  /* what all members must agree on: for gathers and scatters the root's block per rank is
   * compared with each other rank's own block */
  smpi_check_coll k = {call, -1, MPI_OP_NULL, -1, MPI_DATATYPE_NULL};
  bool root = false;
  const smpi_dt *dt = NULL;
  int count = 0;
  switch (id) {
  case COLL_bcast:
    dt = a->rdt, count = a->rcount, k.root = a->root;
    break;
  case COLL_gather:
    k.root = a->root;
    root = smpi_comm_rank(c) == a->root;
    dt = root ? a->rdt : a->sdt, count = root ? a->rcount : a->scount;
    break;
  case COLL_scatter:
    k.root = a->root;
    root = smpi_comm_rank(c) == a->root;
    dt = root ? a->sdt : a->rdt, count = root ? a->scount : a->rcount;
    break;
  case COLL_gatherv:
  case COLL_scatterv:
    k.root = a->root;
    break;
  case COLL_allgather:
  case COLL_alltoall:
    dt = a->rdt, count = a->rcount;
    break;
  case COLL_reduce:
    k.root = a->root;
    /* fall through */
  case COLL_allreduce:
  case COLL_scan:
  case COLL_exscan:
  case COLL_reduce_scatter:
  case COLL_reduce_scatter_block:
    dt = a->sdt, count = a->scount;
    /* an identity, not the object: the rank may free a user op before the others arrive */
    if (a->op)
      k.op = smpi_op_is_predefined(a->op) ? smpi_op_predefined_handle(a->op) : SMPI_CHECK_OP_USER;
    break;
  default:
    break;
  }
  if (dt) {
    k.bytes = block_bytes(count, dt);
    k.basic = smpi_dt_basic_type(dt);
  }
  smpi_check_collective(c, &k);
}

/* Runs collective c on communicator comm for a PMPI entry point. */
static int run_top(smpi_comm *c, coll_id id, const coll_args *a, const char *what, int root)
{
  coll_check_args(c, id, a, coll_infos[id].mpi_name);
  if (__builtin_expect(smpi_observed, 0))
    coll_trace(c, id, a);
  coll_ctx x;
  coll_ctx_init(&x, c, id);
  coll_fold_decide(&x, id, a);
  smpi_p2p_set_activity_root(what, root);
  int rc = coll_run(&x, id, a);
  smpi_p2p_set_activity(NULL);
  ctx_done(&x);
  return rc;
}

/* ---- argument checks (0 or an MPI error class, with a detail in *why) ---- */

typedef struct check {
  char why[160];
} check;

static int bad(check *k, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(check *k, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k->why, sizeof k->why, fmt, ap);
  va_end(ap);
  return code;
}

/* buffer of count elements of type h: valid type, committed, pointer not NULL when it will
 * be touched (MPI_BOTTOM is fine with absolute-address types) */
static int check_buf(check *k, const char *what, const void *buf, int count, MPI_Datatype h,
                     const smpi_dt **out)
{
  if (count < 0)
    return bad(k, MPI_ERR_COUNT, "%s count %d is negative", what, count);
  const smpi_dt *dt = smpi_dt_get(h);
  if (!dt)
    return bad(k, MPI_ERR_TYPE, "%s datatype is not a valid datatype", what);
  if (!smpi_dt_is_committed(dt))
    return bad(k, MPI_ERR_TYPE, "%s datatype is not committed", what);
  if (!buf && count > 0 && smpi_dt_size(dt) > 0 && smpi_dt_true_lb(dt) == 0)
    return bad(k, MPI_ERR_BUFFER, "%s buffer is NULL", what);
  if (buf == MPI_IN_PLACE)
    return bad(k, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as the %s buffer here", what);
  *out = dt;
  return 0;
}

static int check_type(check *k, const char *what, MPI_Datatype h, const smpi_dt **out)
{
  return check_buf(k, what, "", 0, h, out);
}

/* displs may be NULL where the call has none (Reduce_scatter) */
static int check_counts(check *k, const char *what, const int *counts, const int *displs,
                        bool need_displs, int n)
{
  if (!counts)
    return bad(k, MPI_ERR_ARG, "%s counts array is NULL", what);
  if (need_displs && !displs)
    return bad(k, MPI_ERR_ARG, "%s displacements array is NULL", what);
  for (int i = 0; i < n; i++)
    if (counts[i] < 0)
      return bad(k, MPI_ERR_COUNT, "%s count [%d] = %d is negative", what, i, counts[i]);
  return 0;
}

static int check_root(check *k, int root, int size)
{
  if (root < 0 || root >= size)
    return bad(k, MPI_ERR_ROOT, "root %d with %d ranks", root, size);
  return 0;
}

static int check_op(check *k, MPI_Op h, const smpi_dt *dt, MPI_Datatype dth, const smpi_op **out)
{
  const smpi_op *op = smpi_op_get(h);
  if (!op)
    return bad(k, MPI_ERR_OP, "not a valid reduction operation");
  if (h == MPI_REPLACE || h == MPI_NO_OP) /* MPI 3.1 section 11.3.4: one-sided only */
    return bad(k, MPI_ERR_OP, "MPI_REPLACE and MPI_NO_OP are for one-sided communication");
  /* the type rules of predefined ops, checked on every rank even with nothing to reduce */
  if (smpi_op_is_predefined(op) && smpi_op_apply(op, NULL, NULL, 0, dth) != MPI_SUCCESS)
    return bad(k, MPI_ERR_OP, "the operation is not defined on datatype %s", smpi_dt_name(dt));
  *out = op;
  return 0;
}

/* Every MPI entry point below (coll_mpi_*, called by the PMPI functions of
 * smpi/bindings/coll.c between their SMPI_ENTER and SMPI_RETURN): a body shared by the blocking and the
 * nonblocking entry point (request_ NULL for the blocking one): comm checks, then
 * FAIL_IF(check(...)), then RUN, which runs the collective now or starts it (coll_nb.c). */
#define COMM_CHECKS()                                                                \
  smpi_comm *c = COLL_CHECK_COMM(comm);                                              \
  check k_;                                                                          \
  k_.why[0] = 0;                                                                     \
  (void)k_;                                                                          \
  if (smpi_comm_is_inter(c)) /* the scans: MPI 3.1 section 5.11 */                   \
    return smpi_comm_errorf(comm, MPI_ERR_COMM, smpi_fname_,                         \
                            "this collective is not defined on intercommunicators"); \
  int size_ = smpi_comm_size(c), rank_ = smpi_comm_rank(c);                          \
  (void)size_;                                                                       \
  (void)rank_
#define FAIL_IF(expr)                                                \
  do {                                                               \
    int rc_ = (expr);                                                \
    if (rc_)                                                         \
      return smpi_comm_errorf(comm, rc_, smpi_fname_, "%s", k_.why); \
  } while (0)
/* name and root (-1: none) describe a blocked rank in a deadlock report; formatting them
 * for every call cost ~760 instructions, 2 % of an HPL-like run */
#define RUN(id, args, name, root)                                                  \
  do {                                                                             \
    int rc_ = request_ ? (coll_check_args(c, id, args, smpi_fname_),               \
                          coll_nb_start(c, id, args, NULL, smpi_fname_, request_)) \
                       : run_top(c, id, args, name, root);                         \
    if (rc_)                                                                       \
      return smpi_comm_error(comm, rc_, smpi_fname_);                              \
    return MPI_SUCCESS;                                                            \
  } while (0)

/* nonblocking entry points: the request pointer is checked before anything else */
#define NB_REQUEST_CHECK()                                                        \
  do {                                                                            \
    if (!request) {                                                               \
      (void)COLL_CHECK_COMM(comm);                                                \
      return smpi_comm_errorf(comm, MPI_ERR_ARG, smpi_fname_, "request is NULL"); \
    }                                                                             \
  } while (0)

/* Blocking calls on an intercommunicator go to coll_inter.c, which checks the arguments by
 * the intercommunicator rules (root = MPI_ROOT / MPI_PROC_NULL / remote rank); the others
 * (and the nonblocking forms) are refused by COMM_CHECKS. */
#define INTER(call)                       \
  do {                                    \
    smpi_comm *ic_ = smpi_comm_get(comm); \
    if (ic_ && smpi_comm_is_inter(ic_))   \
      return call;                        \
  } while (0)

/* Nonblocking calls on an intercommunicator: the blocking one (coll_inter.c) run by a
 * helper (coll_nb.c); the fields are those of coll_inter_call. */
#define INTER_NB(...)                                             \
  do {                                                            \
    smpi_comm *ic_ = smpi_comm_get(comm);                         \
    if (ic_ && smpi_comm_is_inter(ic_)) {                         \
      coll_inter_call k_ = {__VA_ARGS__};                         \
      return coll_nb_start_inter(ic_, &k_, smpi_fname_, request); \
    }                                                             \
  } while (0)

/* ---- the MPI functions ---- */

static int barrier_body(MPI_Comm comm, MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  RUN(COLL_barrier, &a, "MPI_Barrier", -1);
}

int coll_mpi_barrier(MPI_Comm comm, const char *smpi_fname_)
{
  INTER(coll_inter_barrier(ic_, comm, smpi_fname_));
  return barrier_body(comm, NULL, smpi_fname_);
}

int coll_mpi_ibarrier(MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_barrier);
  return barrier_body(comm, request, smpi_fname_);
}

static int bcast_body(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(check_root(&k_, root, size_));
  FAIL_IF(check_buf(&k_, "broadcast", buffer, count, datatype, &a.rdt));
  a.sbuf = a.rbuf = buffer;
  a.scount = a.rcount = count;
  a.sdt = a.rdt;
  a.sdt_h = a.rdt_h = datatype;
  a.root = root;
  RUN(COLL_bcast, &a, "MPI_Bcast", root);
}

int coll_mpi_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   const char *smpi_fname_)
{
  INTER(coll_inter_bcast(ic_, comm, smpi_fname_, buffer, count, datatype, root));
  return bcast_body(buffer, count, datatype, root, comm, NULL, smpi_fname_);
}

int coll_mpi_ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_bcast, .rbuf = buffer, .rcount = count, .rtype = datatype, .root = root);
  return bcast_body(buffer, count, datatype, root, comm, request, smpi_fname_);
}

/* Gather(v), Scatter(v) and Allgather(v) move one block per rank between a buffer of n
 * blocks ("many": gather's receive buffer, scatter's send buffer) and each rank's buffer of
 * one block ("one"). A side as the caller gives it; dt is filled by the checks. */
typedef struct blocks {
  const char *what; /* "send" or "receive", for the messages */
  const void *buf;
  int count;                  /* of one block; 0 with counts */
  const int *counts, *displs; /* the v variants (counts != NULL) */
  MPI_Datatype type;
  const smpi_dt *dt;
} blocks;

/* Checks both sides where this rank has them (has_many: the root, or every rank of an
 * Allgather). In place, the one side becomes block self of the many side. alias_v: also
 * refuse sendbuf == recvbuf in the v variants (Allgatherv does, Gatherv/Scatterv do not). */
static int blocks_check(check *k, blocks *many, blocks *one, bool has_many, int self, int size,
                        bool alias_v, bool *in_place)
{
  int rc;
  bool v = many->counts != NULL;
  if (has_many) {
    if (v) {
      if ((rc = check_counts(k, many->what, many->counts, many->displs, true, size)))
        return rc;
      if ((rc = check_type(k, many->what, many->type, &many->dt)))
        return rc;
      for (int i = 0; i < size; i++)
        if (many->counts[i] > 0 &&
            (rc = check_buf(k, many->what, many->buf, 1, many->type, &many->dt)))
          return rc;
    } else if ((rc = check_buf(k, many->what, many->buf, many->count, many->type, &many->dt))) {
      return rc;
    }
    if (one->buf == MPI_IN_PLACE) {
      *in_place = true;
      one->dt = many->dt;
      one->type = many->type;
      one->count = v ? many->counts[self] : many->count;
      one->buf = coll_at(many->buf,
                         v ? (size_t)many->displs[self] : (size_t)self * (size_t)many->count,
                         many->dt);
      return 0;
    }
  }
  if ((rc = check_buf(k, one->what, one->buf, one->count, one->type, &one->dt)))
    return rc;
  if (has_many && (!v || alias_v) && one->count > 0 && one->buf == many->buf)
    return bad(k, MPI_ERR_BUFFER, "send and receive buffers are the same (use MPI_IN_PLACE)");
  return 0;
}

static void set_send(coll_args *a, const blocks *b)
{
  a->sbuf = b->buf;
  a->scount = b->count;
  a->sdt = b->dt;
  a->sdt_h = b->type;
  a->scounts = b->counts;
  a->sdispls = b->displs;
}

static void set_recv(coll_args *a, const blocks *b)
{
  a->rbuf = (void *)b->buf;
  a->rcount = b->count;
  a->rdt = b->dt;
  a->rdt_h = b->type;
  a->rcounts = b->counts;
  a->rdispls = b->displs;
}

/* Gather and Gatherv: the root's contribution in place is its block of recvbuf. */
static int gather_args(check *k, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, const int *recvcounts, const int *displs,
                       MPI_Datatype recvtype, int root, int rank, int size, coll_args *a)
{
  int rc = check_root(k, root, size);
  if (rc)
    return rc;
  a->root = root;
  blocks many = {"receive", recvbuf, recvcount, recvcounts, displs, recvtype, NULL};
  blocks one = {"send", sendbuf, sendcount, NULL, NULL, sendtype, NULL};
  if ((rc = blocks_check(k, &many, &one, rank == root, root, size, false, &a->in_place)))
    return rc;
  if (rank == root)
    set_recv(a, &many);
  set_send(a, &one);
  return 0;
}

static int gather_body(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(gather_args(&k_, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype,
                      root, rank_, size_, &a));
  RUN(COLL_gather, &a, "MPI_Gather", root);
}

int coll_mpi_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const char *smpi_fname_)
{
  INTER(coll_inter_gather(ic_, comm, smpi_fname_, sendbuf, sendcount, sendtype, recvbuf,
                          recvcount, recvtype, root));
  return gather_body(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL,
                     smpi_fname_);
}

int coll_mpi_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_gather, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
           .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .root = root);
  return gather_body(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                     request, smpi_fname_);
}

static int gatherv_body(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        int root, MPI_Comm comm, MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  if (rank_ == root && (!recvcounts || !displs))
    FAIL_IF(bad(&k_, MPI_ERR_ARG, "receive counts or displacements array is NULL"));
  static const int dummy[1];
  FAIL_IF(gather_args(&k_, sendbuf, sendcount, sendtype, recvbuf, 0,
                      rank_ == root ? recvcounts : dummy, rank_ == root ? displs : dummy,
                      recvtype, root, rank_, size_, &a));
  if (rank_ != root)
    a.rcounts = a.rdispls = NULL;
  RUN(COLL_gatherv, &a, "MPI_Gatherv", root);
}

int coll_mpi_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, const char *smpi_fname_)
{
  INTER(coll_inter_gatherv(ic_, comm, smpi_fname_, sendbuf, sendcount, sendtype, recvbuf,
                           recvcounts, displs, recvtype, root));
  return gatherv_body(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, NULL, smpi_fname_);
}

int coll_mpi_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_gatherv, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
           .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype,
           .root = root);
  return gatherv_body(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, request, smpi_fname_);
}

/* Scatter and Scatterv: the root's block in place stays in sendbuf. */
static int scatter_args(check *k, const void *sendbuf, int sendcount, const int *sendcounts,
                        const int *displs, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, int rank, int size, coll_args *a)
{
  int rc = check_root(k, root, size);
  if (rc)
    return rc;
  a->root = root;
  blocks many = {"send", sendbuf, sendcount, sendcounts, displs, sendtype, NULL};
  blocks one = {"receive", recvbuf, recvcount, NULL, NULL, recvtype, NULL};
  if ((rc = blocks_check(k, &many, &one, rank == root, root, size, false, &a->in_place)))
    return rc;
  if (rank == root)
    set_send(a, &many);
  set_recv(a, &one);
  return 0;
}

static int scatter_body(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(scatter_args(&k_, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount,
                       recvtype, root, rank_, size_, &a));
  RUN(COLL_scatter, &a, "MPI_Scatter", root);
}

int coll_mpi_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     const char *smpi_fname_)
{
  INTER(coll_inter_scatter(ic_, comm, smpi_fname_, sendbuf, sendcount, sendtype, recvbuf,
                           recvcount, recvtype, root));
  return scatter_body(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      NULL, smpi_fname_);
}

int coll_mpi_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_scatter, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
           .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .root = root);
  return scatter_body(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request, smpi_fname_);
}

static int scatterv_body(const void *sendbuf, const int sendcounts[], const int displs[],
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request_,
                         const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  if (rank_ == root && (!sendcounts || !displs))
    FAIL_IF(bad(&k_, MPI_ERR_ARG, "send counts or displacements array is NULL"));
  static const int dummy[1];
  FAIL_IF(scatter_args(&k_, sendbuf, 0, rank_ == root ? sendcounts : dummy,
                       rank_ == root ? displs : dummy, sendtype, recvbuf, recvcount, recvtype,
                       root, rank_, size_, &a));
  if (rank_ != root)
    a.scounts = a.sdispls = NULL;
  RUN(COLL_scatterv, &a, "MPI_Scatterv", root);
}

int coll_mpi_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, const char *smpi_fname_)
{
  INTER(coll_inter_scatterv(ic_, comm, smpi_fname_, sendbuf, sendcounts, displs, sendtype,
                            recvbuf, recvcount, recvtype, root));
  return scatterv_body(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, NULL, smpi_fname_);
}

int coll_mpi_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_scatterv, .sbuf = sendbuf, .scounts = sendcounts, .sdispls = displs,
           .stype = sendtype, .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype,
           .root = root);
  return scatterv_body(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm, request, smpi_fname_);
}

/* Allgather(v): in place, a rank's contribution is its block of recvbuf. */
static int allgather_args(check *k, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, const int *recvcounts, const int *displs,
                          MPI_Datatype recvtype, int rank, int size, coll_args *a)
{
  blocks many = {"receive", recvbuf, recvcount, recvcounts, displs, recvtype, NULL};
  blocks one = {"send", sendbuf, sendcount, NULL, NULL, sendtype, NULL};
  int rc = blocks_check(k, &many, &one, true, rank, size, true, &a->in_place);
  if (rc)
    return rc;
  set_recv(a, &many);
  set_send(a, &one);
  return 0;
}

static int allgather_body(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(allgather_args(&k_, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL,
                         recvtype, rank_, size_, &a));
  RUN(COLL_allgather, &a, "MPI_Allgather", -1);
}

int coll_mpi_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const char *smpi_fname_)
{
  INTER(coll_inter_allgather(ic_, comm, smpi_fname_, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype));
  return allgather_body(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                        smpi_fname_);
}

int coll_mpi_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                        const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_allgather, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
           .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype);
  return allgather_body(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                        smpi_fname_);
}

static int allgatherv_body(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request_,
                           const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  if (!recvcounts || !displs)
    FAIL_IF(bad(&k_, MPI_ERR_ARG, "receive counts or displacements array is NULL"));
  FAIL_IF(allgather_args(&k_, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                         recvtype, rank_, size_, &a));
  RUN(COLL_allgatherv, &a, "MPI_Allgatherv", -1);
}

int coll_mpi_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, const char *smpi_fname_)
{
  INTER(coll_inter_allgatherv(ic_, comm, smpi_fname_, sendbuf, sendcount, sendtype, recvbuf,
                              recvcounts, displs, recvtype));
  return allgatherv_body(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         comm, NULL, smpi_fname_);
}

int coll_mpi_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_allgatherv, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
           .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype);
  return allgatherv_body(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         comm, request, smpi_fname_);
}

/* Alltoall family in place: the algorithms get a private copy of recvbuf as send data. */
static const void *inplace_copy(coll_ctx *scratch, const void *rbuf, size_t elems,
                                const smpi_dt *dt)
{
  void *t = coll_tmp_dt(scratch, elems, dt);
  coll_copy(scratch, rbuf, elems, dt, t, elems, dt);
  return t;
}

static int alltoall_body(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  coll_ctx scratch;
  coll_ctx_init(&scratch, c, COLL_alltoall);
  FAIL_IF(check_buf(&k_, "receive", recvbuf, recvcount, recvtype, &a.rdt));
  a.rbuf = recvbuf;
  a.rcount = recvcount;
  a.rdt_h = recvtype;
  if (sendbuf == MPI_IN_PLACE) {
    a.in_place = true;
    a.sbuf = inplace_copy(&scratch, recvbuf, (size_t)recvcount * (size_t)size_, a.rdt);
    a.scount = recvcount;
    a.sdt = a.rdt;
    a.sdt_h = recvtype;
  } else {
    FAIL_IF(check_buf(&k_, "send", sendbuf, sendcount, sendtype, &a.sdt));
    if (sendcount > 0 && sendbuf == recvbuf)
      FAIL_IF(
          bad(&k_, MPI_ERR_BUFFER, "send and receive buffers are the same (use MPI_IN_PLACE)"));
    a.sbuf = sendbuf;
    a.scount = sendcount;
    a.sdt_h = sendtype;
  }
  /* every block of the receive buffer is written: its fresh pages in one system call, not
   * one per block (64 ranks, 1 MiB: 4 096 madvise and mincore calls per call -> 64) */
  if (!request_ && !a.in_place)
    smpi_dt_prefault_whole(recvbuf, (size_t)recvcount * (size_t)size_, a.rdt);
  int rc = request_ ? (coll_check_args(c, COLL_alltoall, &a, smpi_fname_),
                       coll_nb_start(c, COLL_alltoall, &a, &scratch, smpi_fname_, request_))
                    : run_top(c, COLL_alltoall, &a, "MPI_Alltoall", -1);
  ctx_done(&scratch);
  if (rc)
    return smpi_comm_error(comm, rc, smpi_fname_);
  return MPI_SUCCESS;
}

int coll_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const char *smpi_fname_)
{
  INTER(coll_inter_alltoall(ic_, comm, smpi_fname_, sendbuf, sendcount, sendtype, recvbuf,
                            recvcount, recvtype));
  return alltoall_body(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                       smpi_fname_);
}

int coll_mpi_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                       const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_alltoall, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
           .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype);
  return alltoall_body(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                       smpi_fname_);
}

/* elements of dt from the start of a v buffer to the end of its last block */
static size_t v_span(const int *counts, const int *displs, int n)
{
  size_t end = 0;
  for (int i = 0; i < n; i++)
    if (counts[i] > 0 && displs[i] >= 0 && (size_t)displs[i] + (size_t)counts[i] > end)
      end = (size_t)displs[i] + (size_t)counts[i];
  return end;
}

static int alltoallv_body(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  coll_ctx scratch;
  coll_ctx_init(&scratch, c, COLL_alltoallv);
  FAIL_IF(check_counts(&k_, "receive", recvcounts, rdispls, true, size_));
  FAIL_IF(check_type(&k_, "receive", recvtype, &a.rdt));
  if (v_span(recvcounts, rdispls, size_))
    FAIL_IF(check_buf(&k_, "receive", recvbuf, 1, recvtype, &a.rdt));
  a.rbuf = recvbuf;
  a.rcounts = recvcounts;
  a.rdispls = rdispls;
  a.rdt_h = recvtype;
  if (sendbuf == MPI_IN_PLACE) {
    a.in_place = true;
    a.sbuf = inplace_copy(&scratch, recvbuf, v_span(recvcounts, rdispls, size_), a.rdt);
    a.scounts = recvcounts;
    a.sdispls = rdispls;
    a.sdt = a.rdt;
    a.sdt_h = recvtype;
  } else {
    FAIL_IF(check_counts(&k_, "send", sendcounts, sdispls, true, size_));
    FAIL_IF(check_type(&k_, "send", sendtype, &a.sdt));
    if (v_span(sendcounts, sdispls, size_))
      FAIL_IF(check_buf(&k_, "send", sendbuf, 1, sendtype, &a.sdt));
    a.sbuf = sendbuf;
    a.scounts = sendcounts;
    a.sdispls = sdispls;
    a.sdt_h = sendtype;
  }
  int rc = request_ ? (coll_check_args(c, COLL_alltoallv, &a, smpi_fname_),
                       coll_nb_start(c, COLL_alltoallv, &a, &scratch, smpi_fname_, request_))
                    : run_top(c, COLL_alltoallv, &a, "MPI_Alltoallv", -1);
  ctx_done(&scratch);
  if (rc)
    return smpi_comm_error(comm, rc, smpi_fname_);
  return MPI_SUCCESS;
}

int coll_mpi_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                       const char *smpi_fname_)
{
  INTER(coll_inter_alltoallv(ic_, comm, smpi_fname_, sendbuf, sendcounts, sdispls, sendtype,
                             recvbuf, recvcounts, rdispls, recvtype));
  return alltoallv_body(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, NULL, smpi_fname_);
}

int coll_mpi_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_alltoallv, .sbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls,
           .stype = sendtype, .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls,
           .rtype = recvtype);
  return alltoallv_body(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, request, smpi_fname_);
}

static int check_w(check *k, const char *what, const int *counts, const int *displs,
                   const MPI_Datatype *types, int n, const smpi_dt **out)
{
  int rc = check_counts(k, what, counts, displs, true, n);
  if (rc)
    return rc;
  if (!types)
    return bad(k, MPI_ERR_ARG, "%s datatypes array is NULL", what);
  for (int i = 0; i < n; i++)
    if ((rc = check_type(k, what, types[i], &out[i])))
      return rc;
  return 0;
}

static int alltoallw_body(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                          const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  coll_ctx scratch;
  coll_ctx_init(&scratch, c, COLL_alltoallw);
  const smpi_dt **sdts = coll_tmp(&scratch, (size_t)size_ * sizeof *sdts);
  const smpi_dt **rdts = coll_tmp(&scratch, (size_t)size_ * sizeof *rdts);
  int rc = check_w(&k_, "receive", recvcounts, rdispls, recvtypes, size_, rdts);
  if (!rc && sendbuf != MPI_IN_PLACE)
    rc = check_w(&k_, "send", sendcounts, sdispls, sendtypes, size_, sdts);
  if (rc) {
    ctx_done(&scratch);
    FAIL_IF(rc);
  }
  a.rbuf = recvbuf;
  a.rcounts = recvcounts;
  a.wrdispls = rdispls;
  a.rdts = rdts;
  if (sendbuf == MPI_IN_PLACE) {
    /* copy the bytes the receive blocks cover */
    MPI_Aint lo = 0, hi = 0;
    bool any = false;
    for (int i = 0; i < size_; i++) {
      if (!recvcounts[i] || !smpi_dt_size(rdts[i]))
        continue;
      MPI_Aint ext = smpi_dt_extent(rdts[i]);
      MPI_Aint b = rdispls[i] + smpi_dt_true_lb(rdts[i]) +
                   (ext < 0 ? (recvcounts[i] - 1) * ext : 0);
      MPI_Aint e = rdispls[i] + smpi_dt_true_lb(rdts[i]) + smpi_dt_true_extent(rdts[i]) +
                   (ext > 0 ? (recvcounts[i] - 1) * ext : 0);
      if (!any || b < lo)
        lo = b;
      if (!any || e > hi)
        hi = e;
      any = true;
    }
    char *t = coll_tmp(&scratch, any ? (size_t)(hi - lo) : 0);
    if (any)
      coll_copy(&scratch, (char *)recvbuf + lo, (size_t)(hi - lo), coll_byte(), t,
                (size_t)(hi - lo), coll_byte());
    a.in_place = true;
    a.sbuf = t - lo;
    a.scounts = recvcounts;
    a.wsdispls = rdispls;
    a.sdts = rdts;
  } else {
    a.sbuf = sendbuf;
    a.scounts = sendcounts;
    a.wsdispls = sdispls;
    a.sdts = sdts;
  }
  rc = request_ ? (coll_check_args(c, COLL_alltoallw, &a, smpi_fname_),
                   coll_nb_start(c, COLL_alltoallw, &a, &scratch, smpi_fname_, request_))
                : run_top(c, COLL_alltoallw, &a, "MPI_Alltoallw", -1);
  ctx_done(&scratch);
  if (rc)
    return smpi_comm_error(comm, rc, smpi_fname_);
  return MPI_SUCCESS;
}

int coll_mpi_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                       const char *smpi_fname_)
{
  INTER(coll_inter_alltoallw(ic_, comm, smpi_fname_, sendbuf, sendcounts, sdispls, sendtypes,
                             recvbuf, recvcounts, rdispls, recvtypes));
  return alltoallw_body(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, NULL, smpi_fname_);
}

int coll_mpi_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_alltoallw, .sbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls,
           .stypes = sendtypes, .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls,
           .rtypes = recvtypes);
  return alltoallw_body(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm, request, smpi_fname_);
}

/* Reductions: sdt == rdt == the datatype; in place, the input is recvbuf. */
static int reduce_args(check *k, const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype datatype, MPI_Op op, bool recv_significant, coll_args *a)
{
  int rc = check_buf(k, "send", sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, datatype,
                     &a->rdt);
  if (rc)
    return rc;
  if (recv_significant && (rc = check_buf(k, "receive", recvbuf, count, datatype, &a->rdt)))
    return rc;
  if ((rc = check_op(k, op, a->rdt, datatype, &a->op)))
    return rc;
  if (recv_significant && sendbuf != MPI_IN_PLACE && count > 0 && sendbuf == recvbuf)
    return bad(k, MPI_ERR_BUFFER, "send and receive buffers are the same (use MPI_IN_PLACE)");
  a->sdt = a->rdt;
  a->sdt_h = a->rdt_h = datatype;
  a->scount = a->rcount = count;
  a->in_place = sendbuf == MPI_IN_PLACE;
  a->sbuf = a->in_place ? recvbuf : sendbuf;
  a->rbuf = recvbuf;
  return 0;
}

static int reduce_body(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Request *request_,
                       const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(check_root(&k_, root, size_));
  if (sendbuf == MPI_IN_PLACE && rank_ != root)
    FAIL_IF(bad(&k_, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root"));
  FAIL_IF(reduce_args(&k_, sendbuf, recvbuf, count, datatype, op, rank_ == root, &a));
  a.root = root;
  if (rank_ != root)
    a.rbuf = NULL;
  RUN(COLL_reduce, &a, "MPI_Reduce", root);
}

int coll_mpi_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, const char *smpi_fname_)
{
  INTER(coll_inter_reduce(ic_, comm, smpi_fname_, sendbuf, recvbuf, count, datatype, op, root));
  return reduce_body(sendbuf, recvbuf, count, datatype, op, root, comm, NULL, smpi_fname_);
}

int coll_mpi_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Request *request,
                     const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_reduce, .sbuf = sendbuf, .rbuf = recvbuf, .rcount = count,
           .rtype = datatype, .op = op, .root = root);
  return reduce_body(sendbuf, recvbuf, count, datatype, op, root, comm, request, smpi_fname_);
}

static int allreduce_body(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request *request_,
                          const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(reduce_args(&k_, sendbuf, recvbuf, count, datatype, op, true, &a));
  RUN(COLL_allreduce, &a, "MPI_Allreduce", -1);
}

int coll_mpi_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, const char *smpi_fname_)
{
  INTER(coll_inter_allreduce(ic_, comm, smpi_fname_, sendbuf, recvbuf, count, datatype, op));
  return allreduce_body(sendbuf, recvbuf, count, datatype, op, comm, NULL, smpi_fname_);
}

int coll_mpi_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_allreduce, .sbuf = sendbuf, .rbuf = recvbuf, .rcount = count,
           .rtype = datatype, .op = op);
  return allreduce_body(sendbuf, recvbuf, count, datatype, op, comm, request, smpi_fname_);
}

static int scan_body(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(reduce_args(&k_, sendbuf, recvbuf, count, datatype, op, true, &a));
  RUN(COLL_scan, &a, "MPI_Scan", -1);
}

int coll_mpi_scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, const char *smpi_fname_)
{
  return scan_body(sendbuf, recvbuf, count, datatype, op, comm, NULL, smpi_fname_);
}

int coll_mpi_iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  return scan_body(sendbuf, recvbuf, count, datatype, op, comm, request, smpi_fname_);
}

static int exscan_body(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(reduce_args(&k_, sendbuf, recvbuf, count, datatype, op, true, &a));
  RUN(COLL_exscan, &a, "MPI_Exscan", -1);
}

int coll_mpi_exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, const char *smpi_fname_)
{
  return exscan_body(sendbuf, recvbuf, count, datatype, op, comm, NULL, smpi_fname_);
}

int coll_mpi_iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  return exscan_body(sendbuf, recvbuf, count, datatype, op, comm, request, smpi_fname_);
}

static int reduce_scatter_body(const void *sendbuf, void *recvbuf, const int recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  FAIL_IF(check_counts(&k_, "receive block", recvcounts, NULL, false, size_));
  size_t total = sum_counts(recvcounts, size_);
  if (total > INT_MAX)
    FAIL_IF(bad(&k_, MPI_ERR_COUNT, "the counts add up to more than INT_MAX"));
  /* the input is the whole vector; the result is this rank's block */
  FAIL_IF(reduce_args(&k_, sendbuf, recvbuf, (int)total, datatype, op, false, &a));
  FAIL_IF(check_buf(&k_, "receive", recvbuf, recvcounts[rank_], datatype, &a.rdt));
  if (sendbuf != MPI_IN_PLACE && recvcounts[rank_] > 0 && sendbuf == recvbuf)
    FAIL_IF(bad(&k_, MPI_ERR_BUFFER, "send and receive buffers are the same (use MPI_IN_PLACE)"));
  a.rcount = recvcounts[rank_];
  a.rcounts = recvcounts;
  RUN(COLL_reduce_scatter, &a, "MPI_Reduce_scatter", -1);
}

int coll_mpi_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            const char *smpi_fname_)
{
  INTER(coll_inter_reduce_scatter(ic_, comm, smpi_fname_, sendbuf, recvbuf, recvcounts, datatype,
                                  op));
  return reduce_scatter_body(sendbuf, recvbuf, recvcounts, datatype, op, comm, NULL, smpi_fname_);
}

int coll_mpi_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_reduce_scatter, .sbuf = sendbuf, .rbuf = recvbuf, .rcounts = recvcounts,
           .rtype = datatype, .op = op);
  return reduce_scatter_body(sendbuf, recvbuf, recvcounts, datatype, op, comm, request,
                             smpi_fname_);
}

static int reduce_scatter_block_body(const void *sendbuf, void *recvbuf, int recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPI_Request *request_, const char *smpi_fname_)
{
  COMM_CHECKS();
  coll_args a = {0};
  if (recvcount < 0)
    FAIL_IF(bad(&k_, MPI_ERR_COUNT, "receive count %d is negative", recvcount));
  if ((size_t)recvcount * (size_t)size_ > INT_MAX)
    FAIL_IF(bad(&k_, MPI_ERR_COUNT, "count x ranks is more than INT_MAX"));
  FAIL_IF(reduce_args(&k_, sendbuf, recvbuf, recvcount * size_, datatype, op, false, &a));
  FAIL_IF(check_buf(&k_, "receive", recvbuf, recvcount, datatype, &a.rdt));
  if (sendbuf != MPI_IN_PLACE && recvcount > 0 && sendbuf == recvbuf)
    FAIL_IF(bad(&k_, MPI_ERR_BUFFER, "send and receive buffers are the same (use MPI_IN_PLACE)"));
  a.rcount = recvcount;
  RUN(COLL_reduce_scatter_block, &a, "MPI_Reduce_scatter_block", -1);
}

int coll_mpi_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const char *smpi_fname_)
{
  INTER(coll_inter_reduce_scatter_block(ic_, comm, smpi_fname_, sendbuf, recvbuf, recvcount,
                                        datatype, op));
  return reduce_scatter_block_body(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL,
                                   smpi_fname_);
}

int coll_mpi_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Request *request, const char *smpi_fname_)
{
  NB_REQUEST_CHECK();
  INTER_NB(.id = COLL_reduce_scatter_block, .sbuf = sendbuf, .rbuf = recvbuf, .rcount = recvcount,
           .rtype = datatype, .op = op);
  return reduce_scatter_block_body(sendbuf, recvbuf, recvcount, datatype, op, comm, request,
                                   smpi_fname_);
}
