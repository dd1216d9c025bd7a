/* Allgatherv = Gatherv to rank 0 + Bcast of all blocks from rank 0 (SimGrid's GB), each
 * part with the algorithm configured or selected for it. The blocks travel packed in the
 * broadcast, in rank order. */
#include "collectives/coll_allgatherv.h"

int coll_allgatherv_GB(coll_ctx *x, const coll_args *a)
{
  int n = x->size;
  coll_args g = *a;
  g.root = 0;
  g.in_place = false;
  int rc = coll_run(x, COLL_gatherv, &g);
  if (rc)
    return rc;
  size_t total = agv_span_bytes(a, n, 0, n);
  char *packed = coll_tmp(x, total);
  if (x->rank == 0)
    agv_pack(x, a, n, 0, n, packed);
  coll_args b = {0};
  b.sbuf = b.rbuf = packed;
  b.scount = b.rcount = (int)total;
  b.sdt = b.rdt = coll_byte();
  b.sdt_h = b.rdt_h = MPI_BYTE;
  b.root = 0;
  rc = coll_run(x, COLL_bcast, &b);
  if (rc == MPI_SUCCESS && x->rank != 0)
    agv_unpack(x, a, n, 0, n, packed);
  return rc ? rc : x->err;
}
