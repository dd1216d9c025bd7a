/* Alltoall by recursive doubling (SimGrid's rdb): MPICH's recursive-doubling allgather
 * (allgatherv_mpich_rdb.c, with its have-nots step for sizes that are not powers of two)
 * on whole send buffers: every rank ends up with all n send buffers (n^2 blocks of scratch)
 * and keeps the block each one holds for it. The own send buffer enters the scratch as a
 * message to itself, and each kept block leaves it as one (n messages to itself). Memory:
 * n^2 blocks per rank, none written for folded send buffers (marks, as allgatherv_mpich_rdb.c). */
#include "collectives/coll_private.h"

int coll_alltoall_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount, un = (size_t)n;
  const smpi_dt *dt = a->rdt;
  size_t *pos = coll_tmp(x, (un + 1) * sizeof *pos);
  for (int i = 0; i <= n; i++)
    pos[i] = (size_t)i * un * rc;
  char *tmp = coll_tmp_dt(x, pos[n] ? pos[n] : 1, dt);
  /* junk[i]: rank i's send buffer holds nothing (coll_private.h, "Blocks whose content does
   * not matter"): it is neither copied nor forwarded, and no block of it is kept */
  bool *junk = coll_tmp(x, sizeof(bool) * un);
  for (int i = 0; i < n; i++)
    junk[i] = false;
  junk[me] = coll_sendrecv_fold(x, a->sbuf, (size_t)a->scount * un, a->sdt, me,
                                coll_at(tmp, pos[me], dt), rc * un, dt, me, COLL_TAG_ALLTOALL);
  coll_allgather_rdb_blocks(x, tmp, pos, dt, COLL_TAG_ALLTOALL, junk);
  for (int i = 0; i < n; i++)
    coll_sendrecv(x, coll_send_from(coll_at(tmp, pos[i] + (size_t)me * rc, dt), rc, dt, junk[i]),
                  rc, dt, me, coll_at(a->rbuf, (size_t)i * rc, a->rdt), rc, a->rdt, me,
                  COLL_TAG_ALLTOALL);
  return x->err;
}
