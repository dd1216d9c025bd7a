/* rma_windows: the window flavors and the window's own objects. MPI_Win_allocate;
 * MPI_Win_allocate_shared on the ranks of one node (MPI_Comm_split_type) with
 * MPI_Win_shared_query and direct loads/stores; MPI_Win_create_dynamic with
 * MPI_Win_attach/detach and addresses exchanged by MPI_Get_address; the flavor attribute
 * of each; window error handlers (create, set, get, call; the handler runs on an error).
 * Run with 4 ranks. */
#define MPITEST_NAME "rma_windows"
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

static int handler_calls, handler_code;
static MPI_Win handler_win;

static void on_error(MPI_Win *win, int *code, ...)
{
  handler_calls++;
  handler_code = *code;
  handler_win = *win;
}

static int flavor_of(MPI_Win win)
{
  int *f, flag;
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &f, &flag);
  return flag ? *f : -1;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();

  /* ---- allocate ---- */
  double *a;
  MPI_Win wa;
  MPI_Win_allocate(8 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &a, &wa);
  CHECK(a != NULL, "MPI_Win_allocate gave no memory");
  CHECK(flavor_of(wa) == MPI_WIN_FLAVOR_ALLOCATE, "allocate flavor %d", flavor_of(wa));
  void *base;
  int flag;
  MPI_Win_get_attr(wa, MPI_WIN_BASE, &base, &flag);
  CHECK(flag && base == a, "allocate base");
  for (int i = 0; i < 8; i++)
    a[i] = 0;
  MPI_Win_fence(0, wa);
  double d = rank + 0.5;
  MPI_Put(&d, 1, MPI_DOUBLE, (rank + 1) % size, rank % 8, 1, MPI_DOUBLE, wa);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, wa);
  int l = (rank + size - 1) % size;
  CHECK(a[l % 8] == l + 0.5, "allocate put: %g", a[l % 8]);

  /* ---- error handlers on windows ---- */
  MPI_Errhandler eh, got;
  MPI_Win_create_errhandler(on_error, &eh);
  MPI_Win_set_errhandler(wa, eh);
  MPI_Win_get_errhandler(wa, &got);
  CHECK(got == eh, "MPI_Win_get_errhandler gave another handler");
  MPI_Errhandler_free(&got);
  MPI_Win_call_errhandler(wa, MPI_ERR_OTHER);
  CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_win == wa,
        "MPI_Win_call_errhandler: %d calls, code %d", handler_calls, handler_code);
  /* a real error: a Put outside any epoch */
  int rc = MPI_Put(&d, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, wa);
  CHECK(rc != MPI_SUCCESS && handler_calls == 2, "put outside an epoch: rc %d, %d calls", rc,
        handler_calls);
  CHECK(class_of(handler_code) == MPI_ERR_RMA_SYNC, "handler got class %d",
        class_of(handler_code));
  MPI_Win_set_errhandler(wa, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);
  MPI_Win_free(&wa);

  /* ---- shared memory: the ranks of this node ---- */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int nrank, nsize;
  MPI_Comm_rank(node, &nrank);
  MPI_Comm_size(node, &nsize);
  int *sh;
  MPI_Win ws;
  MPI_Win_allocate_shared((nrank + 1) * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &sh, &ws);
  CHECK(flavor_of(ws) == MPI_WIN_FLAVOR_SHARED, "shared flavor %d", flavor_of(ws));
  MPI_Win_lock_all(0, ws);
  for (int i = 0; i <= nrank; i++)
    sh[i] = 100 * nrank + i;
  MPI_Win_sync(ws);
  MPI_Barrier(node);
  MPI_Win_sync(ws);
  for (int r = 0; r < nsize; r++) {
    MPI_Aint sz;
    int du;
    int *p;
    MPI_Win_shared_query(ws, r, &sz, &du, &p);
    CHECK(sz == (MPI_Aint)((r + 1) * sizeof(int)) && du == (int)sizeof(int),
          "shared_query %d: size %ld unit %d", r, (long)sz, du);
    for (int i = 0; i <= r; i++)
      CHECK(p[i] == 100 * r + i, "load from rank %d [%d]: %d", r, i, p[i]);
  }
  /* and an RMA Get of the next node rank's segment */
  int g = -1, nr = (nrank + 1) % nsize;
  MPI_Get(&g, 1, MPI_INT, nr, 0, 1, MPI_INT, ws);
  MPI_Win_flush(nr, ws);
  CHECK(g == 100 * nr, "get on shared window: %d", g);
  MPI_Win_unlock_all(ws);
  MPI_Win_free(&ws);
  MPI_Comm_free(&node);

  /* ---- dynamic ---- */
  MPI_Win wd;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &wd);
  CHECK(flavor_of(wd) == MPI_WIN_FLAVOR_DYNAMIC, "dynamic flavor %d", flavor_of(wd));
  int *region = malloc(16 * sizeof(int));
  for (int i = 0; i < 16; i++)
    region[i] = -1;
  MPI_Win_attach(wd, region, 16 * sizeof(int));
  MPI_Aint mine, *addrs = malloc((size_t)size * sizeof *addrs);
  MPI_Get_address(region, &mine);
  MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
  int right = (rank + 1) % size;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, wd);
  int vals[3] = {rank, rank * 2, rank * 3};
  MPI_Put(vals, 3, MPI_INT, right, addrs[right] + 4 * sizeof(int), 3, MPI_INT, wd);
  MPI_Win_unlock(right, wd);
  MPI_Barrier(MPI_COMM_WORLD);
  int left = (rank + size - 1) % size;
  CHECK(region[4] == left && region[5] == 2 * left && region[6] == 3 * left && region[3] == -1,
        "dynamic put: %d %d %d", region[4], region[5], region[6]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(wd, region);
  free(region);
  free(addrs);
  MPI_Win_free(&wd);

  return mpitest_finalize();
}
