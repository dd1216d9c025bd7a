/* Allreduce after Rabenseifner (SimGrid's rab): the halving of reduce_rab.c
 * (coll_rab_halve), then the same levels in reverse, each pair swapping the halves they
 * hold, and the fold's even ranks send the whole result to their odd partner. */
#include "collectives/coll_halving.h"

int coll_allreduce_rab(coll_ctx *x, const coll_args *a)
{
  int me = x->rank;
  size_t count = (size_t)a->rcount;
  const smpi_dt *dt = a->rdt;
  void *buf = a->rbuf;
  coll_copy(x, a->sbuf, count, a->sdt, buf, count, dt);
  if (count == 0 || x->size == 1) /* SimGrid recurses into itself there */
    return x->err;
  coll_rab s;
  coll_rab_halve(x, a, &s, buf, count, COLL_TAG_ALLREDUCE);
  if (s.newrank >= 0)
    for (int k = s.n - 1; k >= 0; k--) {
      int b = (s.newrank >> k) & 1, nr = s.newrank ^ (1 << k);
      int peer = nr < s.r ? nr * 2 : nr + s.r;
      coll_sendrecv(x, coll_at(buf, s.start[b][k], dt), s.cnt[b][k], dt, peer,
                    coll_at(buf, s.start[!b][k], dt), s.cnt[!b][k], dt, peer, COLL_TAG_ALLREDUCE);
    }
  if (me < 2 * s.r) {
    if (me % 2 == 0)
      coll_send(x, buf, count, dt, me + 1, COLL_TAG_ALLREDUCE);
    else
      coll_recv(x, buf, count, dt, me - 1, COLL_TAG_ALLREDUCE);
  }
  return x->err;
}
