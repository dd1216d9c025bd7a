/* topo_math.c: topology objects and the arithmetic behind the MPI topology functions
 * (row-major Cartesian ranks, shifts, MPI_Dims_create), free of any simulation state so
 * that the unit tests call it directly. See topo.c for the constructions and
 * smpi/bindings/topo.c for the MPI functions. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/comm_impl.h"
#include "src/invariant.h"
#include "src/mem.h"

/* ---- objects ---- */

smpi_topo *smpi_topo_new(int kind)
{
  smpi_topo *t = xcalloc(1, sizeof *t);
  t->kind = kind;
  t->refs = 1;
  return t;
}

int *smpi_copy_ints(const int *a, int n)
{
  int *c = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *c);
  if (n > 0)
    memcpy(c, a, (size_t)n * sizeof *c);
  return c;
}

smpi_topo *smpi_topo_cart_new(int ndims, const int dims[], const int periods[])
{
  smpi_topo *t = smpi_topo_new(MPI_CART);
  t->ndims = ndims;
  t->dims = smpi_copy_ints(dims, ndims);
  t->periods = xmalloc((size_t)(ndims > 0 ? ndims : 1) * sizeof *t->periods);
  for (int i = 0; i < ndims; i++)
    t->periods[i] = periods[i] != 0;
  return t;
}

smpi_topo *smpi_topo_ref(smpi_topo *t)
{
  t->refs++;
  return t;
}

void smpi_topo_unref(smpi_topo *t)
{
  if (!t)
    return;
  ASSERT(t->refs > 0);
  if (--t->refs > 0)
    return;
  free(t->dims);
  free(t->periods);
  free(t->index);
  free(t->edges);
  free(t->sources);
  free(t->sourceweights);
  free(t->destinations);
  free(t->destweights);
  free(t);
}

/* ---- Cartesian arithmetic ---- */

void smpi_cart_coords(const smpi_topo *t, int rank, int coords[])
{
  for (int i = t->ndims - 1; i >= 0; i--) {
    coords[i] = rank % t->dims[i];
    rank /= t->dims[i];
  }
}

int smpi_cart_rank(const smpi_topo *t, const int coords[], int *rank)
{
  int r = 0;
  for (int i = 0; i < t->ndims; i++) {
    int c = coords[i], d = t->dims[i];
    if (c < 0 || c >= d) {
      if (!t->periods[i])
        return MPI_ERR_ARG;
      c %= d;
      if (c < 0)
        c += d;
    }
    r = r * d + c;
  }
  *rank = r;
  return MPI_SUCCESS;
}

void smpi_cart_shift(const smpi_topo *t, int rank, int direction, int disp, int *source,
                     int *dest)
{
  int *coords = xmalloc((size_t)t->ndims * sizeof *coords);
  int d = t->dims[direction];
  smpi_cart_coords(t, rank, coords);
  int here = coords[direction];
  for (int k = 0; k < 2; k++) {
    long c = (long)here + (k == 0 ? -(long)disp : (long)disp);
    int *out = k == 0 ? source : dest;
    if (c < 0 || c >= d) {
      if (!t->periods[direction]) {
        *out = MPI_PROC_NULL;
        continue;
      }
      c %= d;
      if (c < 0)
        c += d;
    }
    coords[direction] = (int)c;
    smpi_cart_rank(t, coords, out);
  }
  free(coords);
}

/* ---- Dims_create: the balanced decomposition ----
 * Among the factorizations of n into k factors d1 >= d2 >= ... >= dk, take the one with the
 * smallest spread d1 - dk, then the smallest sum, then the largest in lexical order. This
 * reproduces MPICH 4.0's MPI_Dims_create on every n <= 1000, k <= 5 (checked
 * exhaustively), e.g. 360 in 3 -> 10 x 6 x 6, not 9 x 8 x 5.
 *
 * Search: factors are tried in increasing order from the smallest that can still reach the
 * remaining product; the smallest final factor is at most the geometric mean of what
 * remains, so once a factor makes that bound worse than the best spread, larger ones can
 * only be worse too and the loop stops. 735134400 (1344 divisors) in 8 takes milliseconds. */

typedef struct dims_search {
  const int *divs; /* divisors of n, increasing */
  int ndivs, k;
  int *cur, *best;
  long best_spread, best_sum;
  bool found;
} dims_search;

/* largest x with x^m <= r (m >= 1) */
static long iroot(long r, int m)
{
  if (m == 1)
    return r;
  long lo = 1, hi = 1;
  while (true) { /* hi: first power of two with hi^m > r */
    long p = 1;
    bool over = false;
    for (int i = 0; i < m && !over; i++) {
      if (p > r / hi)
        over = true;
      else
        p *= hi;
    }
    if (over || p > r)
      break;
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    long mid = lo + (hi - lo) / 2, p = 1;
    bool over = false;
    for (int i = 0; i < m && !over; i++) {
      if (p > r / mid)
        over = true;
      else
        p *= mid;
    }
    if (over || p > r)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

static bool better(const dims_search *s, long spread, long sum)
{
  if (!s->found || spread != s->best_spread)
    return !s->found || spread < s->best_spread;
  if (sum != s->best_sum)
    return sum < s->best_sum;
  for (int i = 0; i < s->k; i++)
    if (s->cur[i] != s->best[i])
      return s->cur[i] > s->best[i];
  return false;
}

static void dims_rec(dims_search *s, int pos, long rem, long maxd, long sum)
{
  int left = s->k - pos;
  if (left == 1) {
    if (rem > maxd)
      return;
    s->cur[pos] = (int)rem;
    long spread = s->cur[0] - rem;
    if (better(s, spread, sum + rem)) {
      s->found = true;
      s->best_spread = spread;
      s->best_sum = sum + rem;
      memcpy(s->best, s->cur, (size_t)s->k * sizeof *s->best);
    }
    return;
  }
  /* the factor cannot be below the geometric mean: lowest = ceil(rem^(1/left)) */
  long lowest = iroot(rem, left), p = 1;
  for (int i = 0; i < left && p < rem; i++)
    p *= lowest;
  if (p < rem)
    lowest++;
  for (int i = 0; i < s->ndivs; i++) {
    long d = s->divs[i];
    if (d > maxd)
      break;
    if (d < lowest || rem % d)
      continue;
    long first = pos == 0 ? d : s->cur[0];
    long min_bound = iroot(rem / d, left - 1);
    if (min_bound > d)
      min_bound = d;
    if (s->found && first - min_bound > s->best_spread)
      break; /* larger d: larger first or smaller bound */
    s->cur[pos] = (int)d;
    dims_rec(s, pos + 1, rem / d, d, sum + d);
  }
}

int smpi_dims_create(int nnodes, int ndims, int dims[])
{
  if (ndims < 0 || (ndims > 0 && !dims))
    return MPI_ERR_DIMS;
  if (nnodes < 0)
    return MPI_ERR_ARG;
  long fixed = 1;
  int k = 0;
  for (int i = 0; i < ndims; i++) {
    if (dims[i] < 0)
      return MPI_ERR_DIMS;
    if (dims[i] > 0)
      fixed *= dims[i];
    else
      k++;
    if (fixed > INT_MAX)
      return MPI_ERR_DIMS;
  }
  if (nnodes == 0) {
    /* nothing to decompose (MPICH accepts it too) */
    for (int i = 0; i < ndims; i++)
      if (dims[i] == 0)
        dims[i] = 0;
    return MPI_SUCCESS;
  }
  if (nnodes % fixed)
    return MPI_ERR_DIMS;
  long n = nnodes / fixed;
  if (k == 0)
    return n == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;
  /* divisors of n, increasing */
  int *divs = NULL, *large = NULL;
  size_t cap = 0, lcap = 0;
  int nd = 0, nl = 0;
  for (long d = 1; d * d <= n; d++)
    if (n % d == 0) {
      XGROW(divs, cap, (size_t)nd + 1);
      divs[nd++] = (int)d;
      if (d * d != n) {
        XGROW(large, lcap, (size_t)nl + 1);
        large[nl++] = (int)(n / d);
      }
    }
  for (int i = nl - 1; i >= 0; i--) {
    XGROW(divs, cap, (size_t)nd + 1);
    divs[nd++] = large[i];
  }
  free(large);
  dims_search s = {.divs = divs, .ndivs = nd, .k = k};
  s.cur = xmalloc((size_t)k * sizeof *s.cur);
  s.best = xmalloc((size_t)k * sizeof *s.best);
  dims_rec(&s, 0, n, n, 0);
  ASSERT(s.found); /* n x 1 x ... x 1 always exists */
  for (int i = 0, j = 0; i < ndims; i++)
    if (dims[i] == 0)
      dims[i] = s.best[j++];
  free(s.cur);
  free(s.best);
  free(divs);
  return MPI_SUCCESS;
}
