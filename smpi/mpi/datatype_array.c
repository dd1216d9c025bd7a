/* Array datatypes: MPI_Type_create_subarray and MPI_Type_create_darray, composed from
 * hvectors (one per dimension, fastest first) placed by a one-block struct and resized to
 * the whole array: lb 0, extent = product of the sizes * extent(oldtype), as MPICH does.
 *
 * Worked example, C order, a 4x6 array of doubles, subsizes 2x3, starts 1x2:
 *     fastest dim: hvector(3, 1, 8, double)           one row piece: 3 doubles
 *     next dim:    hvector(2, 1, 6*8, previous)       two such pieces, one row apart
 *     placed at (1*6 + 2)*8 = 64 bytes, resized to [0, 4*6*8)
 * giving the typemap offsets 64 72 80 112 120 128.
 *
 * darray: the process grid is row-major whatever the array order (MPI 3.1, 4.1.4); in each
 * dimension the rank owns
 *     BLOCK(b):   indices [c*b, min((c+1)*b, g))            b defaults to ceil(g/p)
 *     CYCLIC(b):  blocks j = c, c+p, c+2p... of b indices   b defaults to 1
 *     NONE:       all g indices                            (p must be 1)
 * and the local elements follow the array order (C: last index fastest). */
#include <stdlib.h>

#include "smpi/mpi/datatype_impl.h"
#include "src/log.h"
#include "src/mem.h"

LOG_EXTERNAL_CATEGORY(smpi_dt);
LOG_DEFAULT_CATEGORY(smpi_dt);

#define DT_ERR(code, ...)  \
  ({                       \
    LOG_VERB(__VA_ARGS__); \
    (code);                \
  })

/* t placed at disp (a reference on t is taken; the caller keeps its own) */
static smpi_dt *place(smpi_dt *t, MPI_Aint disp)
{
  MPI_Count one = 1;
  return smpi_dt_make_struct(1, &one, &disp, &t, false);
}

/* replaces *t by f(*t), dropping the reference the caller held on the old one */
static void replace(smpi_dt **t, smpi_dt *n)
{
  smpi_dt_unref(*t);
  *t = n;
}

static int check_common(int ndims, int order, MPI_Datatype oldtype, smpi_dt **old,
                        const char *fname)
{
  if (ndims < 1)
    return DT_ERR(MPI_ERR_ARG, "%s: ndims is %d, must be at least 1", fname, ndims);
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    return DT_ERR(MPI_ERR_ARG, "%s: order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", fname,
                  order);
  *old = smpi_dt_get(oldtype);
  if (!*old)
    return DT_ERR(MPI_ERR_TYPE, "%s: oldtype %#x is not a valid datatype", fname,
                  (unsigned)oldtype);
  return MPI_SUCCESS;
}

int smpi_type_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
                       int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  static const char fname[] = "MPI_Type_create_subarray";
  smpi_dt *old;
  int rc = check_common(ndims, order, oldtype, &old, fname);
  if (rc)
    return rc;
  if (!sizes || !subsizes || !starts || !newtype)
    return DT_ERR(MPI_ERR_ARG, "%s: NULL array or newtype", fname);
  for (int d = 0; d < ndims; d++) {
    if (sizes[d] < 1 || subsizes[d] < 0 || subsizes[d] > sizes[d] || starts[d] < 0 ||
        starts[d] > sizes[d] - subsizes[d])
      return DT_ERR(MPI_ERR_ARG,
                    "%s: dimension %d: size %d, subsize %d, start %d (need size >= 1, "
                    "0 <= subsize <= size, 0 <= start <= size - subsize)",
                    fname, d, sizes[d], subsizes[d], starts[d]);
  }
  MPI_Aint stride = old->ub - old->lb, disp = 0;
  smpi_dt *t = old;
  smpi_dt_ref(t);
  for (int k = 0; k < ndims; k++) {
    int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
    replace(&t, smpi_dt_make_hvector(subsizes[d], 1, stride, t));
    disp += (MPI_Aint)starts[d] * stride;
    stride *= sizes[d];
  }
  replace(&t, place(t, disp));
  smpi_dt *dt = smpi_dt_make_resized(t, 0, stride);
  smpi_dt_unref(t);

  int ni = 3 * ndims + 2;
  int *ints = xmalloc((size_t)ni * sizeof *ints);
  ints[0] = ndims;
  for (int d = 0; d < ndims; d++) {
    ints[1 + d] = sizes[d];
    ints[1 + ndims + d] = subsizes[d];
    ints[1 + 2 * ndims + d] = starts[d];
  }
  ints[ni - 1] = order;
  smpi_dt_set_contents(dt, MPI_COMBINER_SUBARRAY, ni, ints, 0, NULL, 1, &old);
  free(ints);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}

/* the local part of one dimension: t (the faster dimensions, relative to index 0 of this
 * one) at each owned index, s bytes apart */
static smpi_dt *dim_type(int distrib, int darg, int g, int p, int c, MPI_Aint s, smpi_dt *t)
{
  if (distrib == MPI_DISTRIBUTE_NONE)
    return smpi_dt_make_hvector(g, 1, s, t);
  if (distrib == MPI_DISTRIBUTE_BLOCK) {
    MPI_Count b = darg == MPI_DISTRIBUTE_DFLT_DARG ? ((MPI_Count)g + p - 1) / p : darg;
    MPI_Count start = c * b, len = g - start < b ? g - start : b;
    if (len < 0)
      len = 0;
    smpi_dt *x = smpi_dt_make_hvector(len, 1, s, t);
    smpi_dt *r = place(x, (MPI_Aint)start * s);
    smpi_dt_unref(x);
    return r;
  }
  /* cyclic: the full blocks are one hvector, a partial last block follows it */
  MPI_Count b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
  MPI_Count nblocks = ((MPI_Count)g + b - 1) / b;
  MPI_Count mine = nblocks > c ? (nblocks - c + p - 1) / p : 0;
  MPI_Count full = mine, lastlen = 0, last = 0;
  if (mine > 0) {
    last = c + (mine - 1) * p;
    if ((last + 1) * b > g) {
      full--;
      lastlen = g - last * b;
    }
  }
  smpi_dt *parts[2];
  MPI_Aint disps[2];
  MPI_Count ones[2] = {1, 1};
  int n = 0;
  smpi_dt *block = smpi_dt_make_hvector(b, 1, s, t);
  parts[n] = smpi_dt_make_hvector(full, 1, (MPI_Aint)(p * b) * s, block);
  disps[n++] = (MPI_Aint)(c * b) * s;
  smpi_dt_unref(block);
  if (lastlen > 0) {
    parts[n] = smpi_dt_make_hvector(lastlen, 1, s, t);
    disps[n++] = (MPI_Aint)(last * b) * s;
  }
  smpi_dt *r = smpi_dt_make_struct(n, ones, disps, parts, false);
  for (int i = 0; i < n; i++)
    smpi_dt_unref(parts[i]);
  return r;
}

int smpi_type_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                     const int dargs[], const int psizes[], int order, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
  static const char fname[] = "MPI_Type_create_darray";
  smpi_dt *old;
  int rc = check_common(ndims, order, oldtype, &old, fname);
  if (rc)
    return rc;
  if (!gsizes || !distribs || !dargs || !psizes || !newtype)
    return DT_ERR(MPI_ERR_ARG, "%s: NULL array or newtype", fname);
  if (size < 1 || rank < 0 || rank >= size)
    return DT_ERR(MPI_ERR_ARG, "%s: rank %d is not in a group of size %d", fname, rank, size);
  long long procs = 1;
  for (int d = 0; d < ndims; d++) {
    int g = gsizes[d], p = psizes[d], a = dargs[d], ds = distribs[d];
    if (g < 1 || p < 1)
      return DT_ERR(MPI_ERR_ARG, "%s: dimension %d: gsize %d and psize %d must be positive",
                    fname, d, g, p);
    procs *= p;
    if (ds != MPI_DISTRIBUTE_BLOCK && ds != MPI_DISTRIBUTE_CYCLIC && ds != MPI_DISTRIBUTE_NONE)
      return DT_ERR(MPI_ERR_ARG, "%s: dimension %d: unknown distribution %d", fname, d, ds);
    if (ds == MPI_DISTRIBUTE_NONE && p != 1)
      return DT_ERR(MPI_ERR_ARG, "%s: dimension %d: MPI_DISTRIBUTE_NONE needs psize 1, not %d",
                    fname, d, p);
    if (ds != MPI_DISTRIBUTE_NONE && a != MPI_DISTRIBUTE_DFLT_DARG && a < 1)
      return DT_ERR(MPI_ERR_ARG, "%s: dimension %d: darg %d must be positive", fname, d, a);
    if (ds == MPI_DISTRIBUTE_BLOCK && a != MPI_DISTRIBUTE_DFLT_DARG && (long long)a * p < g)
      return DT_ERR(MPI_ERR_ARG,
                    "%s: dimension %d: blocks of %d on %d processes cannot cover %d elements",
                    fname, d, a, p, g);
  }
  if (procs != size)
    return DT_ERR(MPI_ERR_ARG, "%s: the process grid has %lld processes, size is %d", fname,
                  procs, size);

  int *coords = xmalloc((size_t)ndims * sizeof *coords);
  MPI_Aint *strides = xmalloc((size_t)ndims * sizeof *strides);
  for (int d = ndims - 1, r = rank; d >= 0; d--) {
    coords[d] = r % psizes[d];
    r /= psizes[d];
  }
  MPI_Aint stride = old->ub - old->lb;
  for (int k = 0; k < ndims; k++) {
    int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
    strides[d] = stride;
    stride *= gsizes[d];
  }
  smpi_dt *t = old;
  smpi_dt_ref(t);
  for (int k = 0; k < ndims; k++) {
    int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
    replace(&t, dim_type(distribs[d], dargs[d], gsizes[d], psizes[d], coords[d], strides[d], t));
  }
  smpi_dt *dt = smpi_dt_make_resized(t, 0, stride);
  smpi_dt_unref(t);
  free(coords);
  free(strides);

  int ni = 4 * ndims + 4;
  int *ints = xmalloc((size_t)ni * sizeof *ints);
  ints[0] = size;
  ints[1] = rank;
  ints[2] = ndims;
  for (int d = 0; d < ndims; d++) {
    ints[3 + d] = gsizes[d];
    ints[3 + ndims + d] = distribs[d];
    ints[3 + 2 * ndims + d] = dargs[d];
    ints[3 + 3 * ndims + d] = psizes[d];
  }
  ints[ni - 1] = order;
  smpi_dt_set_contents(dt, MPI_COMBINER_DARRAY, ni, ints, 0, NULL, 1, &old);
  free(ints);
  *newtype = smpi_dt_publish(dt);
  return MPI_SUCCESS;
}
