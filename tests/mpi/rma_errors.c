/* rma_errors: each misuse of one-sided communication returns its error class through the
 * window's error handler (MPI_ERRORS_RETURN here) and leaves the window usable:
 * MPI_ERR_RMA_SYNC (operations outside an epoch, unlock without lock, complete without
 * start, wait without post, a request-based operation in a fence epoch, a second lock of
 * one target, a fence inside a lock epoch), MPI_ERR_RMA_RANGE (displacement past the end of
 * the target's window, and into memory a dynamic window did not attach), MPI_ERR_DISP
 * (negative displacement), MPI_ERR_RANK, MPI_ERR_WIN, MPI_ERR_LOCKTYPE, MPI_ERR_OP,
 * MPI_ERR_RMA_FLAVOR (attach to a non-dynamic window, shared query of a non-shared one),
 * MPI_ERR_RMA_ATTACH (detach of memory never attached, overlapping attach),
 * MPI_ERR_RMA_SHARED (a shared window over ranks that share no memory, when there are
 * such ranks), MPI_ERR_TYPE (compare-and-swap of a double), MPI_ERR_RMA_CONFLICT (a Put into a window exposed with MPI_MODE_NOPUT), and
 * the creation arguments (MPI_ERR_SIZE, MPI_ERR_DISP... of the disp_unit, MPI_ERR_ARG for a
 * NULL base of a non-empty window).
 *
 * Some checks are the simulator's own: MPICH 4.0 does not detect them (it writes out of
 * range, or lets the conflict happen). They are compiled only under smpi
 * (SMPI_VERSION_MAJOR is defined by our mpi.h). Run with 2 ranks. */
#define MPITEST_NAME "rma_errors"
#include "mpitest.h"

#include <stdlib.h>

#define EXPECT(call, want) CHECK_CLASS(call, want, "RMA call")

static void add_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)in, (void)inout, (void)len, (void)dt;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int mem[8] = {0};
  MPI_Win win;
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int peer = (rank + 1) % size, v = 1, r = 0;

  /* ---- epochs ---- */
  EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Get(&r, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Accumulate(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Win_unlock(peer, win), MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Win_flush(peer, win), MPI_ERR_RMA_SYNC);

  MPI_Win_fence(0, win);
#ifdef SMPI_VERSION_MAJOR
  /* request-based operations belong to passive-target epochs (MPI 3.1 section 11.3.5) */
  MPI_Request rq = MPI_REQUEST_NULL;
  EXPECT(MPI_Rput(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, win, &rq), MPI_ERR_RMA_SYNC);
#endif
  /* ---- arguments of operations (in a valid fence epoch) ---- */
  EXPECT(MPI_Put(&v, 1, MPI_INT, peer, -1, 1, MPI_INT, win), MPI_ERR_DISP);
  EXPECT(MPI_Put(&v, 1, MPI_INT, size + 3, 0, 1, MPI_INT, win), MPI_ERR_RANK);
  EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_DATATYPE_NULL, win), MPI_ERR_TYPE);
  EXPECT(MPI_Put(&v, -1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
  EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN);
  MPI_Op user;
  MPI_Op_create(add_fn, 1, &user);
  EXPECT(MPI_Accumulate(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, user, win), MPI_ERR_OP);
  MPI_Op_free(&user);
#ifdef SMPI_VERSION_MAJOR
  double dv = 1.0;
  EXPECT(MPI_Accumulate(&dv, 1, MPI_DOUBLE, peer, 0, 1, MPI_DOUBLE, MPI_BAND, win), MPI_ERR_OP);
  /* past the end: 8 ints, so displacement 8 and ints 6..9 are out */
  EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 8, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
  int four[4] = {0};
  EXPECT(MPI_Get(four, 4, MPI_INT, peer, 6, 4, MPI_INT, win), MPI_ERR_RMA_RANGE);
#endif
  /* still usable: a good Put in the same epoch */
  v = 42 + rank;
  EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 7, 1, MPI_INT, win), MPI_SUCCESS);
  EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win), MPI_ERR_RMA_SYNC);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  CHECK(mem[7] == 42 + (rank + size - 1) % size, "good put after errors: %d", mem[7]);

  /* ---- locks ---- */
#ifdef SMPI_VERSION_MAJOR
  EXPECT(MPI_Win_lock(12345, peer, 0, win), MPI_ERR_LOCKTYPE);
#else
  EXPECT(MPI_Win_lock(12345, peer, 0, win), MPI_ERR_ARG); /* MPICH's class for it */
#endif
  MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win);
  /* compare-and-swap is for integers, logicals and bytes */
  double d1 = 1, d0 = 0, dr;
  EXPECT(MPI_Compare_and_swap(&d1, &d0, &dr, MPI_DOUBLE, peer, 0, win), MPI_ERR_TYPE);
#ifdef SMPI_VERSION_MAJOR
  /* MPICH 4.0 fails an internal assertion on this one */
  EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win), MPI_ERR_RMA_SYNC);
#endif
  EXPECT(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
#ifdef SMPI_VERSION_MAJOR
  /* a target not locked while another is (MPICH 4.0 fails an assertion) */
  EXPECT(MPI_Win_unlock(rank == peer ? MPI_PROC_NULL : rank, win),
         rank == peer ? MPI_SUCCESS : MPI_ERR_RMA_SYNC);
#endif
  MPI_Win_unlock(peer, win);

#ifdef SMPI_VERSION_MAJOR
  /* ---- conflicts: a Put into a window posted with MPI_MODE_NOPUT ---- */
  MPI_Group world, other;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &peer, &other);
  int left = (rank + size - 1) % size;
  MPI_Group lg;
  MPI_Group_incl(world, 1, &left, &lg);
  MPI_Win_post(lg, MPI_MODE_NOPUT, win);
  MPI_Win_start(other, 0, win);
  EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_RMA_CONFLICT);
  EXPECT(MPI_Get(&r, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_SUCCESS);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  MPI_Group_free(&world);
  MPI_Group_free(&other);
  MPI_Group_free(&lg);
  /* and in a fence epoch opened with MPI_MODE_NOPUT */
  MPI_Win_fence(MPI_MODE_NOPUT, win);
  EXPECT(MPI_Accumulate(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_CONFLICT);
  EXPECT(MPI_Get(&r, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_SUCCESS);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
#endif

  /* ---- flavors ---- */
  EXPECT(MPI_Win_attach(win, mem, sizeof mem), MPI_ERR_RMA_FLAVOR);
  MPI_Aint qs;
  int qd;
  void *qp;
  EXPECT(MPI_Win_shared_query(win, 0, &qs, &qd, &qp), MPI_ERR_RMA_FLAVOR);
  MPI_Win_free(&win);
  EXPECT(MPI_Win_fence(0, win), MPI_ERR_WIN); /* MPI_WIN_NULL now */

  MPI_Win dyn;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
  MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN);
  int region[4] = {0}, other_mem[4];
  MPI_Win_attach(dyn, region, sizeof region);
#ifdef SMPI_VERSION_MAJOR
  EXPECT(MPI_Win_attach(dyn, &region[1], sizeof(int)), MPI_ERR_RMA_ATTACH);
  EXPECT(MPI_Win_detach(dyn, other_mem), MPI_ERR_RMA_ATTACH);
  /* an address that was never attached at the target */
  MPI_Aint bad;
  MPI_Get_address(other_mem, &bad);
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, dyn);
  EXPECT(MPI_Put(&v, 1, MPI_INT, rank, bad, 1, MPI_INT, dyn), MPI_ERR_RMA_RANGE);
  MPI_Win_unlock(rank, dyn);
#endif
  (void)other_mem;
  MPI_Win_detach(dyn, region);
  MPI_Win_free(&dyn);

  /* ---- creation ---- */
  MPI_Win bad_win = MPI_WIN_NULL;
  EXPECT(MPI_Win_create(mem, -8, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &bad_win), MPI_ERR_SIZE);
  EXPECT(MPI_Win_create(mem, 8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &bad_win), MPI_ERR_DISP);
  EXPECT(MPI_Win_create(mem, 8, 4, MPI_INFO_NULL, MPI_COMM_NULL, &bad_win), MPI_ERR_COMM);
  /* no memory behind a non-empty window (MPICH 4.0: MPI_ERR_ARG too) */
  EXPECT(MPI_Win_create(NULL, 8, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &bad_win), MPI_ERR_ARG);
  CHECK(bad_win == MPI_WIN_NULL, "a window was made over NULL");

  /* shared memory over ranks on different nodes, when there are such ranks */
  MPI_Comm node;
  int nsize;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &nsize);
  MPI_Comm_free(&node);
  if (nsize < size) {
    int *p;
    MPI_Win sw = MPI_WIN_NULL;
    EXPECT(MPI_Win_allocate_shared(16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &sw),
           MPI_ERR_RMA_SHARED);
  }

  return mpitest_finalize();
}
