/* Allgather, Bruck's algorithm (MPICH; SimGrid's bruck): blocks gather at the top of a
 * byte buffer in rank - me order; in step k a rank sends the 2^k blocks it has to
 * rank - 2^k and receives 2^k more from rank + 2^k; a last step moves the remaining
 * n - 2^floor(log2 n) blocks; a rotation puts them in place. ceil(log2 n) rounds, any n. */
#include "collectives/coll_private.h"

int coll_allgather_bruck(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  size_t rc = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt, *byte = coll_byte();
  size_t bb = rc * smpi_dt_size(dt);
  char *tmp = coll_tmp(x, bb * (size_t)n);
  /* own block, packed (the send data, converted through the receive type's layout) */
  char *own = coll_tmp_dt(x, rc, dt);
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, own, rc, dt);
  coll_pack(x, own, rc, dt, tmp);
  size_t curr = 1;
  int pof2 = 1;
  for (; pof2 <= n / 2; pof2 *= 2, curr *= 2)
    coll_sendrecv(x, tmp, curr * bb, byte, (me - pof2 + n) % n, tmp + curr * bb, curr * bb, byte,
                  (me + pof2) % n, COLL_TAG_ALLGATHER);
  int rem = n - pof2;
  if (rem)
    coll_sendrecv(x, tmp, (size_t)rem * bb, byte, (me - pof2 + n) % n, tmp + curr * bb,
                  (size_t)rem * bb, byte, (me + pof2) % n, COLL_TAG_ALLGATHER);
  /* tmp block i is rank me + i */
  for (int i = 0; i < n; i++)
    coll_unpack(x, tmp + (size_t)i * bb, rc, dt,
                coll_at(a->rbuf, (size_t)((me + i) % n) * rc, dt));
  return x->err;
}
