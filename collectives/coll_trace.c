/* What the traces record of a collective call (the coll hook of smpi/runtime/observer.h): its kind in SimGrid's TI
 * vocabulary and its counts, from the resolved arguments run_top gets. Fields follow what
 * SimGrid 3.32's recorder writes, e.g. for 4 ranks
 *
 *   MPI_Gatherv(.., 1 elt, .., counts {1,2,3,4}, .., root 2)  ->  gatherv 1 1 2 3 4 2 0 0
 *   (at the other ranks the counts they do not use are written as zeros)
 *
 * Alltoallw, which SimGrid does not record, is written as an alltoallv of bytes. */
#include <stdlib.h>

#include "collectives/coll_private.h"
#include "collectives/coll_trace.h"
#include "smpi/runtime/observer.h"
#include "src/mem.h"

void coll_trace(smpi_comm *c, int id, const coll_args *a)
{
  int n = smpi_comm_size(c), me = smpi_comm_rank(c);
  bool root = a->root == me;
  smpi_trace_coll_args t = {
      .mpi_name = coll_infos[id].mpi_name,
      .verb = coll_infos[id].name,
      .send = -1,
      .recv = -1,
      .nranks = n,
      .root = -1,
      .comp = -1,
      /* a rank that does not use one of its types has no handle for it: show the other */
      .sdt = a->sdt_h ? a->sdt_h : a->rdt_h,
      .rdt = a->rdt_h ? a->rdt_h : a->sdt_h,
  };
  int *tmp = NULL, *tmp2 = NULL;
  switch ((coll_id)id) {
  case COLL_barrier:
    t.sdt = t.rdt = MPI_DATATYPE_NULL;
    break;
  case COLL_bcast:
    t.send = a->scount;
    t.root = a->root;
    t.rdt = MPI_DATATYPE_NULL;
    break;
  case COLL_reduce:
    t.root = a->root;
    /* fall through */
  case COLL_allreduce:
  case COLL_scan:
  case COLL_exscan:
    t.send = a->scount;
    t.comp = 0;
    t.rdt = MPI_DATATYPE_NULL;
    break;
  case COLL_gather:
    t.send = a->scount;
    t.recv = root ? a->rcount : a->scount;
    t.root = a->root;
    break;
  case COLL_scatter:
    t.send = root ? a->scount : a->rcount;
    t.recv = a->rcount;
    t.root = a->root;
    break;
  case COLL_allgather:
  case COLL_alltoall:
    t.send = a->scount;
    t.recv = a->rcount;
    break;
  case COLL_gatherv:
    t.send = a->scount;
    t.rcounts = root ? a->rcounts : (tmp = xcalloc((size_t)n, sizeof *tmp));
    t.root = a->root;
    break;
  case COLL_scatterv:
    t.scounts = root ? a->scounts : (tmp = xcalloc((size_t)n, sizeof *tmp));
    t.recv = a->rcount;
    t.root = a->root;
    break;
  case COLL_allgatherv:
    t.send = a->scount;
    t.rcounts = a->rcounts;
    break;
  case COLL_alltoallv:
    t.scounts = a->scounts;
    t.rcounts = a->rcounts;
    break;
  case COLL_alltoallw:
    t.verb = "alltoallv";
    tmp = xmalloc((size_t)n * sizeof *tmp);
    tmp2 = xmalloc((size_t)n * sizeof *tmp2);
    for (int i = 0; i < n; i++) {
      tmp[i] = (int)((size_t)a->scounts[i] * smpi_dt_size(a->sdts[i]));
      tmp2[i] = (int)((size_t)a->rcounts[i] * smpi_dt_size(a->rdts[i]));
    }
    t.scounts = tmp;
    t.rcounts = tmp2;
    t.sdt = t.rdt = MPI_BYTE;
    break;
  case COLL_reduce_scatter:
    t.verb = "reducescatter";
    t.rcounts = a->rcounts;
    t.comp = 0;
    break;
  case COLL_reduce_scatter_block:
    t.verb = "reducescatter";
    tmp = xmalloc((size_t)n * sizeof *tmp);
    for (int i = 0; i < n; i++)
      tmp[i] = a->rcount;
    t.rcounts = tmp;
    t.comp = 0;
    break;
  default:
    break;
  }
  smpi_obs.coll(&t);
  free(tmp);
  free(tmp2);
}
