/* group.c: MPI groups — immutable, shared between ranks, refcounted.
 *
 * A group is its member list (world ranks in group-rank order) plus the reverse map, so both
 * directions cost O(1):
 *
 *     world = NULL                       identity (MPI_COMM_WORLD's group): no array at all
 *     world = {8, 9, 11, 10}             reverse: dense table over [8, 12) = {0, 1, 3, 2}
 *     world = {5, 70000, 3}              reverse: small hash table (members are sparse)
 *
 * The dense table is used while it costs at most about twice the member array; a group of
 * every other rank of a 100 000-rank world is still dense, a handful of ranks spread over
 * the world is hashed. */
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/handle.h"
#include "src/invariant.h"
#include "src/mem.h"

static smpi_group empty_group = {.refs = 1, .size = 0};

smpi_group *smpi_group_empty(void) { return &empty_group; }

static uint64_t fingerprint(const int *world, int n)
{
  uint64_t fp = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
  for (int i = 0; i < n; i++)
    fp = smpi_hash_u64(fp + (uint64_t)(world ? world[i] : i) + 1);
  return fp;
}

static void build_reverse(smpi_group *g)
{
  int n = g->size;
  if (!g->world || n == 0)
    return;
  int lo = g->world[0], hi = g->world[0];
  for (int i = 1; i < n; i++) {
    if (g->world[i] < lo)
      lo = g->world[i];
    if (g->world[i] > hi)
      hi = g->world[i];
  }
  long span = (long)hi - lo + 1;
  if (span <= 2L * n + 16) {
    g->lo = lo;
    g->span = (int)span;
    g->dense = xmalloc((size_t)span * sizeof *g->dense);
    for (long i = 0; i < span; i++)
      g->dense[i] = MPI_UNDEFINED;
    for (int i = 0; i < n; i++)
      g->dense[g->world[i] - lo] = i;
    return;
  }
  unsigned cap = 16;
  while (cap < 2u * (unsigned)n)
    cap *= 2;
  g->hmask = cap - 1;
  g->hkeys = xmalloc(cap * sizeof *g->hkeys);
  g->hvals = xmalloc(cap * sizeof *g->hvals);
  for (unsigned i = 0; i < cap; i++)
    g->hkeys[i] = -1;
  for (int i = 0; i < n; i++) {
    unsigned h = (unsigned)smpi_hash_u64((uint64_t)g->world[i]) & g->hmask;
    while (g->hkeys[h] != -1) {
      ASSERTF(g->hkeys[h] != g->world[i], "world rank %d twice in a group", g->world[i]);
      h = (h + 1) & g->hmask;
    }
    g->hkeys[h] = g->world[i];
    g->hvals[h] = i;
  }
}

smpi_group *smpi_group_new(int *world, int n)
{
  ASSERT(n >= 0);
  if (n == 0) {
    free(world);
    return smpi_group_ref(&empty_group);
  }
  smpi_group *g = xcalloc(1, sizeof *g);
  g->refs = 1;
  g->size = n;
  bool identity = true;
  for (int i = 0; i < n && identity; i++)
    identity = world[i] == i;
  if (identity) {
    free(world);
    world = NULL;
  }
  g->world = world;
  g->fp = fingerprint(world, n);
  build_reverse(g);
  return g;
}

smpi_group *smpi_group_new_copy(const int *world, int n)
{
  int *w = xmalloc((size_t)(n ? n : 1) * sizeof *w);
  if (n)
    memcpy(w, world, (size_t)n * sizeof *w);
  return smpi_group_new(w, n);
}

smpi_group *smpi_group_identity(int n)
{
  if (n == 0)
    return smpi_group_ref(&empty_group);
  smpi_group *g = xcalloc(1, sizeof *g);
  g->refs = 1;
  g->size = n;
  g->fp = fingerprint(NULL, n);
  return g;
}

smpi_group *smpi_group_ref(smpi_group *g)
{
  g->refs++;
  return g;
}

void smpi_group_unref(smpi_group *g)
{
  if (!g)
    return;
  ASSERT(g->refs > 0);
  if (--g->refs > 0 || g == &empty_group)
    return;
  free(g->world);
  free(g->dense);
  free(g->hkeys);
  free(g->hvals);
  free(g);
}

int smpi_group_rank_of(const smpi_group *g, int w)
{
  if (!g->world)
    return w >= 0 && w < g->size ? w : MPI_UNDEFINED;
  if (g->dense) {
    long i = (long)w - g->lo;
    return i >= 0 && i < g->span ? g->dense[i] : MPI_UNDEFINED;
  }
  if (!g->hkeys || w < 0)
    return MPI_UNDEFINED;
  for (unsigned h = (unsigned)smpi_hash_u64((uint64_t)w) & g->hmask; g->hkeys[h] != -1;
       h = (h + 1) & g->hmask)
    if (g->hkeys[h] == w)
      return g->hvals[h];
  return MPI_UNDEFINED;
}

bool smpi_group_equal(const smpi_group *a, const smpi_group *b)
{
  if (a == b)
    return true;
  if (a->size != b->size || a->fp != b->fp)
    return false;
  for (int i = 0; i < a->size; i++)
    if (smpi_group_world_of(a, i) != smpi_group_world_of(b, i))
      return false;
  return true;
}

int smpi_group_compare(const smpi_group *a, const smpi_group *b)
{
  if (smpi_group_equal(a, b))
    return MPI_IDENT;
  if (a->size != b->size)
    return MPI_UNEQUAL;
  for (int i = 0; i < a->size; i++)
    if (smpi_group_rank_of(b, smpi_group_world_of(a, i)) == MPI_UNDEFINED)
      return MPI_UNEQUAL;
  return MPI_SIMILAR;
}

/* ---- set operations ---- */

int smpi_group_union(const smpi_group *a, const smpi_group *b, smpi_group **out)
{
  int *w = xmalloc((size_t)(a->size + b->size + 1) * sizeof *w);
  int n = 0;
  for (int i = 0; i < a->size; i++)
    w[n++] = smpi_group_world_of(a, i);
  for (int i = 0; i < b->size; i++) {
    int x = smpi_group_world_of(b, i);
    if (smpi_group_rank_of(a, x) == MPI_UNDEFINED)
      w[n++] = x;
  }
  *out = smpi_group_new(w, n);
  return MPI_SUCCESS;
}

static smpi_group *filter(const smpi_group *a, const smpi_group *b, bool keep_common)
{
  int *w = xmalloc((size_t)(a->size + 1) * sizeof *w);
  int n = 0;
  for (int i = 0; i < a->size; i++) {
    int x = smpi_group_world_of(a, i);
    if ((smpi_group_rank_of(b, x) != MPI_UNDEFINED) == keep_common)
      w[n++] = x;
  }
  return smpi_group_new(w, n);
}

int smpi_group_intersection(const smpi_group *a, const smpi_group *b, smpi_group **out)
{
  *out = filter(a, b, true);
  return MPI_SUCCESS;
}

int smpi_group_difference(const smpi_group *a, const smpi_group *b, smpi_group **out)
{
  *out = filter(a, b, false);
  return MPI_SUCCESS;
}

/* Marks ranks[0..n) in a bitmap over g, refusing invalid or repeated ranks. */
static int mark_ranks(const smpi_group *g, int n, const int ranks[], unsigned char *seen)
{
  for (int i = 0; i < n; i++) {
    int r = ranks[i];
    if (r < 0 || r >= g->size || seen[r])
      return MPI_ERR_RANK;
    seen[r] = 1;
  }
  return MPI_SUCCESS;
}

int smpi_group_incl(const smpi_group *g, int n, const int ranks[], smpi_group **out)
{
  *out = NULL;
  if (n < 0 || n > g->size || (n > 0 && !ranks))
    return MPI_ERR_ARG;
  unsigned char *seen = xcalloc((size_t)g->size + 1, 1);
  int rc = mark_ranks(g, n, ranks, seen);
  free(seen);
  if (rc != MPI_SUCCESS)
    return rc;
  int *w = xmalloc((size_t)(n + 1) * sizeof *w);
  for (int i = 0; i < n; i++)
    w[i] = smpi_group_world_of(g, ranks[i]);
  *out = smpi_group_new(w, n);
  return MPI_SUCCESS;
}

static smpi_group *keep_unmarked(const smpi_group *g, const unsigned char *seen)
{
  int *w = xmalloc((size_t)(g->size + 1) * sizeof *w);
  int n = 0;
  for (int i = 0; i < g->size; i++)
    if (!seen[i])
      w[n++] = smpi_group_world_of(g, i);
  return smpi_group_new(w, n);
}

int smpi_group_excl(const smpi_group *g, int n, const int ranks[], smpi_group **out)
{
  *out = NULL;
  if (n < 0 || n > g->size || (n > 0 && !ranks))
    return MPI_ERR_ARG;
  unsigned char *seen = xcalloc((size_t)g->size + 1, 1);
  int rc = mark_ranks(g, n, ranks, seen);
  if (rc == MPI_SUCCESS)
    *out = keep_unmarked(g, seen);
  free(seen);
  return rc;
}

/* Expands the (first, last, stride) triplets into *list (ranks in order), checking what
 * MPI 3.1 section 6.3.2 requires: valid first/last, non-zero stride, distinct ranks. */
static int expand_ranges(const smpi_group *g, int n, int ranges[][3], int **list, int *count,
                         unsigned char *seen)
{
  *list = NULL;
  *count = 0;
  if (n < 0 || (n > 0 && !ranges))
    return MPI_ERR_ARG;
  size_t cap = 0;
  int k = 0;
  for (int i = 0; i < n; i++) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (first < 0 || first >= g->size || last < 0 || last >= g->size) {
      free(*list);
      *list = NULL;
      return MPI_ERR_RANK;
    }
    if (stride == 0) {
      free(*list);
      *list = NULL;
      return MPI_ERR_ARG;
    }
    /* a range running against its stride is refused, as MPICH does */
    if ((stride > 0 && first > last) || (stride < 0 && first < last)) {
      free(*list);
      *list = NULL;
      return MPI_ERR_ARG;
    }
    long steps = ((long)last - first) / stride;
    for (long s = 0; s <= steps; s++) {
      int r = (int)(first + s * stride);
      if (seen[r]) {
        free(*list);
        *list = NULL;
        return MPI_ERR_RANK;
      }
      seen[r] = 1;
      XGROW(*list, cap, (size_t)k + 1);
      (*list)[k++] = r;
    }
  }
  *count = k;
  return MPI_SUCCESS;
}

int smpi_group_range_incl(const smpi_group *g, int n, int ranges[][3], smpi_group **out)
{
  *out = NULL;
  unsigned char *seen = xcalloc((size_t)g->size + 1, 1);
  int *list, k;
  int rc = expand_ranges(g, n, ranges, &list, &k, seen);
  free(seen);
  if (rc != MPI_SUCCESS)
    return rc;
  for (int i = 0; i < k; i++)
    list[i] = smpi_group_world_of(g, list[i]);
  *out = smpi_group_new(list, k);
  return MPI_SUCCESS;
}

int smpi_group_range_excl(const smpi_group *g, int n, int ranges[][3], smpi_group **out)
{
  *out = NULL;
  unsigned char *seen = xcalloc((size_t)g->size + 1, 1);
  int *list, k;
  int rc = expand_ranges(g, n, ranges, &list, &k, seen);
  free(list);
  if (rc == MPI_SUCCESS)
    *out = keep_unmarked(g, seen);
  free(seen);
  return rc;
}

int smpi_group_translate(const smpi_group *a, int n, const int ranks1[], const smpi_group *b,
                         int ranks2[])
{
  if (n < 0 || (n > 0 && (!ranks1 || !ranks2)))
    return MPI_ERR_ARG;
  for (int i = 0; i < n; i++)
    if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
      return MPI_ERR_RANK;
  for (int i = 0; i < n; i++)
    ranks2[i] = ranks1[i] == MPI_PROC_NULL
                    ? MPI_PROC_NULL
                    : smpi_group_rank_of(b, smpi_group_world_of(a, ranks1[i]));
  return MPI_SUCCESS;
}

/* ---- handles ---- */

void smpi_group_setup_predefined(void)
{
  smpi_handle_set_predefined(MPI_GROUP_EMPTY, &empty_group);
}

smpi_group *smpi_group_get(MPI_Group h) { return smpi_handle_get(h, SMPI_KIND_GROUP); }

MPI_Group smpi_group_handle_new(smpi_group *g)
{
  if (g == &empty_group) {
    /* MPI_GROUP_EMPTY stands for every empty group: no handle to leak */
    smpi_group_unref(g);
    return MPI_GROUP_EMPTY;
  }
  return smpi_handle_new(SMPI_KIND_GROUP, g);
}
