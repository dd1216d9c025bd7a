/* Alltoall by RMA (SimGrid's alltoall pair_rma), registered with the collectives at
 * start-up (collectives/coll.h: collectives/ sits below smpi/rma/ and cannot call it).
 *
 *   MPI_Win_create(receive buffer, disp unit = the receive type's extent)
 *   MPI_Win_fence
 *   for i in 0 .. n-1: MPI_Put(my block for rank ^ i -> rank ^ i, at my block's place)
 *   MPI_Win_fence; MPI_Win_free
 *
 * The window's creation, fences and puts are this simulator's RMA (docs/rma.md), whose
 * timing differs from SimGrid's at small sizes. SimGrid puts at displacement `rank`
 * whatever the count (blocks overlap above one element); here at rank * count, where the
 * block belongs. Needs a power-of-two size (COLL_F_POW2): rank ^ i must be a rank. */
#include "collectives/coll.h"
#include "smpi/mpi/comm.h"
#include "smpi/mpi/datatype.h"
#include "smpi/rma/win.h"
#include "src/invariant.h"

static int pair_rma(smpi_comm *c, const void *sbuf, int scount, const smpi_dt *sdt, void *rbuf,
                    int rcount, const smpi_dt *rdt)
{
  static const char *const fname = "MPI_Alltoall";
  int n = smpi_comm_size(c), me = smpi_comm_rank(c);
  MPI_Aint rext = smpi_dt_extent(rdt), sext = smpi_dt_extent(sdt);
  MPI_Win h;
  smpi_win_create(smpi_comm_handle(c), rbuf, (MPI_Aint)n * rcount * rext, (int)rext,
                  MPI_INFO_NULL, &h);
  smpi_win *w = smpi_win_get(h);
  ASSERT(w);
  int rc = smpi_rma_fence(w, 0, fname);
  for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
    int dst = me ^ i;
    smpi_rma_args a = {.kind = RMA_OP_PUT,
                       .oaddr = (const char *)sbuf + (MPI_Aint)dst * scount * sext,
                       .ocount = (size_t)scount,
                       .odt = (smpi_dt *)sdt,
                       .target = dst,
                       .disp = (MPI_Aint)me * rcount,
                       .tcount = (size_t)rcount,
                       .tdt = (smpi_dt *)rdt,
                       .op = MPI_REPLACE,
                       .basic = MPI_DATATYPE_NULL};
    rc = smpi_rma_issue(w, &a, fname);
  }
  int rc2 = smpi_rma_fence(w, 0, fname);
  int rc3 = smpi_win_free(w, &h, fname);
  return rc ? rc : rc2 ? rc2 : rc3;
}

void smpi_rma_declare_config(void) { coll_register_alltoall_pair_rma(pair_rma); }
