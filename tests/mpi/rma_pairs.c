/* rma_pairs: one-sided cases of MPICH's suite (MPI 3.1 chapter 11):
 *   - MPI_Accumulate and MPI_Get_accumulate with the pair types (MPI_SHORT_INT, MPI_2INT,
 *     MPI_LONG_INT, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_DOUBLE_INT) and MPI_MAXLOC /
 *     MPI_MINLOC, several elements per call (each element's value and index checked: ties
 *     keep the lowest index);
 *   - a dynamic window addressed with absolute addresses (MPI_Get_address of the attached
 *     memory, relative to MPI_BOTTOM);
 *   - MPI_Rput / MPI_Raccumulate / MPI_Rget return requests that complete with MPI_Wait;
 *   - many outstanding gets and a large accumulate completed by MPI_Win_flush_local, then
 *     MPI_Win_flush.
 * Any number of ranks >= 2 (the suite uses 3). Plain MPI: the test runs it under MPICH. */
#define MPITEST_NAME "rma_pairs"
#define MPITEST_MAX_REPORTS 30
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

#define K 3 /* elements per accumulate */

/* value of element k contributed by rank r: ties between ranks on purpose */
static int pv(int r, int k) { return (r * 5 + k) % 3; }

#define DEF_PAIR(fname, VT)                                                                      \
  static void fname(MPI_Datatype dt, const char *dn)                                             \
  {                                                                                              \
    typedef struct {                                                                             \
      VT val;                                                                                    \
      int loc;                                                                                   \
    } pair;                                                                                      \
    int me = wrank(), n = wsize();                                                               \
    pair *win_mem = calloc(2 * K, sizeof(pair)), mine[K], old[K];                                \
    MPI_Win w;                                                                                   \
    MPI_Win_create(win_mem, 2 * K * sizeof(pair), sizeof(pair), MPI_INFO_NULL, MPI_COMM_WORLD,   \
                   &w);                                                                          \
    for (int k = 0; k < 2 * K; k++)                                                              \
      win_mem[k].val = (VT)(k < K ? -100 : 100), win_mem[k].loc = 99;                            \
    for (int k = 0; k < K; k++)                                                                  \
      mine[k].val = (VT)pv(me, k), mine[k].loc = me;                                             \
    MPI_Win_fence(0, w);                                                                         \
    MPI_Accumulate(mine, K, dt, 0, 0, K, dt, MPI_MAXLOC, w);                                     \
    MPI_Get_accumulate(mine, K, dt, old, K, dt, 0, K, K, dt, MPI_MINLOC, w);                     \
    MPI_Win_fence(0, w);                                                                         \
    if (me == 0)                                                                                 \
      for (int k = 0; k < K; k++) {                                                              \
        int bmax = 0, bmin = 0;                                                                  \
        for (int r = 1; r < n; r++) {                                                            \
          if (pv(r, k) > pv(bmax, k))                                                            \
            bmax = r;                                                                            \
          if (pv(r, k) < pv(bmin, k))                                                            \
            bmin = r;                                                                            \
        }                                                                                        \
        CHECK(win_mem[k].val == (VT)pv(bmax, k) && win_mem[k].loc == bmax,                       \
              "%s MAXLOC [%d] = (%g, %d), expected (%d, %d)", dn, k, (double)win_mem[k].val,     \
              win_mem[k].loc, pv(bmax, k), bmax);                                                \
        CHECK(win_mem[K + k].val == (VT)pv(bmin, k) && win_mem[K + k].loc == bmin,               \
              "%s MINLOC [%d] = (%g, %d), expected (%d, %d)", dn, k, (double)win_mem[K + k].val, \
              win_mem[K + k].loc, pv(bmin, k), bmin);                                            \
      }                                                                                          \
    MPI_Win_free(&w);                                                                            \
    free(win_mem);                                                                               \
  }
DEF_PAIR(p_short, short)
DEF_PAIR(p_int, int)
DEF_PAIR(p_long, long)
DEF_PAIR(p_float, float)
DEF_PAIR(p_double, double)
DEF_PAIR(p_ldouble, long double)

static void dynamic_absolute(void)
{
  int me = wrank(), n = wsize(), right = (me + 1) % n, left = (me + n - 1) % n;
  int *mem = calloc(4, sizeof(int));
  MPI_Aint mine, theirs;
  MPI_Win w;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_attach(w, mem, 4 * sizeof(int));
  MPI_Get_address(mem, &mine);
  MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  int v = 100 + me, got = -1;
  MPI_Win_fence(0, w);
  MPI_Put(&v, 1, MPI_INT, right, theirs + 2 * (MPI_Aint)sizeof(int), 1, MPI_INT, w);
  MPI_Win_fence(0, w);
  CHECK(mem[2] == 100 + left, "dynamic put: %d, expected %d", mem[2], 100 + left);
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
  MPI_Get(&got, 1, MPI_INT, right, MPI_Aint_add(theirs, 2 * sizeof(int)), 1, MPI_INT, w);
  MPI_Win_unlock(right, w);
  CHECK(got == 100 + me, "dynamic get: %d", got);
  MPI_Win_fence(0, w);
  MPI_Win_detach(w, mem);
  MPI_Win_free(&w);
  free(mem);
}

static void request_ops(void)
{
  int me = wrank(), n = wsize(), right = (me + 1) % n, left = (me + n - 1) % n;
  int mem[3] = {0, 0, 0}, v = 10 + me, g = -1;
  MPI_Win w;
  MPI_Request q[3];
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_lock_all(0, w);
  MPI_Rput(&v, 1, MPI_INT, right, 0, 1, MPI_INT, w, &q[0]);
  MPI_Raccumulate(&v, 1, MPI_INT, right, 1, 1, MPI_INT, MPI_SUM, w, &q[1]);
  CHECK(q[0] != MPI_REQUEST_NULL && q[1] != MPI_REQUEST_NULL, "Rput/Raccumulate: no request");
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  MPI_Win_flush(right, w);
  MPI_Win_unlock_all(w);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(mem[0] == 10 + left && mem[1] == 10 + left, "Rput/Raccumulate data: %d %d", mem[0],
        mem[1]);
  MPI_Win_lock_all(0, w);
  MPI_Rget(&g, 1, MPI_INT, right, 0, 1, MPI_INT, w, &q[2]);
  MPI_Wait(&q[2], MPI_STATUS_IGNORE);
  CHECK(g == 10 + me, "Rget: %d", g);
  MPI_Win_unlock_all(w);
  MPI_Win_free(&w);
}

#define NGETS 300
#define BIG 100000
static void many_outstanding(void)
{
  int me = wrank(), n = wsize(), right = (me + 1) % n, left = (me + n - 1) % n;
  double *mem = malloc(BIG * sizeof(double)), *add = malloc(BIG * sizeof(double));
  double got[NGETS];
  for (int i = 0; i < BIG; i++)
    mem[i] = i, add[i] = 0.5 * me;
  MPI_Win w;
  MPI_Win_create(mem, BIG * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_lock_all(0, w);
  for (int i = 0; i < NGETS; i++)
    MPI_Get(&got[i], 1, MPI_DOUBLE, right, 7 * i, 1, MPI_DOUBLE, w);
  MPI_Win_flush_local(right, w);
  for (int i = 0; i < NGETS; i++)
    CHECK(got[i] == 7.0 * i, "get %d: %g", i, got[i]);
  MPI_Accumulate(add, BIG, MPI_DOUBLE, right, 0, BIG, MPI_DOUBLE, MPI_SUM, w);
  MPI_Win_flush_local(right, w);
  for (int i = 0; i < BIG; i++) /* the origin buffer is free again */
    add[i] = -1;
  MPI_Win_flush(right, w);
  MPI_Win_unlock_all(w);
  MPI_Barrier(MPI_COMM_WORLD);
  int bad = 0;
  for (int i = 0; i < BIG; i++)
    bad += mem[i] != i + 0.5 * left;
  CHECK(bad == 0, "large accumulate: %d wrong elements", bad);
  MPI_Win_free(&w);
  free(mem);
  free(add);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  mpitest_need(wsize() >= 2, "2 ranks");
  p_short(MPI_SHORT_INT, "MPI_SHORT_INT");
  p_int(MPI_2INT, "MPI_2INT");
  p_long(MPI_LONG_INT, "MPI_LONG_INT");
  p_float(MPI_FLOAT_INT, "MPI_FLOAT_INT");
  p_double(MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
  p_ldouble(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT");
  dynamic_absolute();
  request_ops();
  many_outstanding();
  return mpitest_finalize();
}
