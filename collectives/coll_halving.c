/* Recursive halving (the scheme and an example are in coll_halving.h). */
#include "collectives/coll_halving.h"

void coll_halving_init(coll_halving *h, int n, int survivor)
{
  h->p = coll_pof2_floor(n);
  h->rem = n - h->p;
  h->survivor = survivor;
  h->cnts = h->disps = NULL;
  h->send_idx = h->recv_idx = 0;
  h->last_idx = h->p;
  h->base = 0;
  h->stride = 1;
  h->me = -1; /* x->rank */
}

void coll_halving_init_sub(coll_halving *h, int n, int survivor, int base, int stride, int me)
{
  coll_halving_init(h, n, survivor);
  h->base = base;
  h->stride = stride;
  h->me = me;
}

void coll_halving_even_blocks(coll_ctx *x, coll_halving *h, size_t count)
{
  size_t p = (size_t)h->p;
  size_t *cnts = coll_tmp(x, p * sizeof *cnts), *disps = coll_tmp(x, p * sizeof *disps);
  for (size_t i = 0; i < p; i++) {
    cnts[i] = i < p - 1 ? count / p : count - count / p * (p - 1);
    disps[i] = i * (count / p);
  }
  h->cnts = cnts;
  h->disps = disps;
}

int coll_halving_fold(coll_ctx *x, const coll_args *a, const coll_halving *h, void *buf,
                      void *tmp, size_t count, const smpi_dt *dt, int tag)
{
  int me = h->me >= 0 ? h->me : x->rank;
  if (me >= 2 * h->rem)
    return me - h->rem;
  int partner = h->base + h->stride * (me % 2 ? me - 1 : me + 1);
  if (me % 2 != h->survivor) {
    coll_send(x, buf, count, dt, partner, tag);
    return -1;
  }
  coll_recv(x, tmp, count, dt, partner, tag);
  coll_reduce(x, a, tmp, buf, count);
  return me / 2;
}

static size_t sum(const coll_halving *h, int lo, int hi)
{
  size_t s = 0;
  for (int i = lo; i < hi; i++)
    s += h->cnts[i];
  return s;
}

static coll_halving_step step_of(const coll_halving *h, int send_lo, int send_hi, int recv_lo,
                                 int recv_hi)
{
  return (coll_halving_step){h->disps[h->send_idx], sum(h, send_lo, send_hi),
                             h->disps[h->recv_idx], sum(h, recv_lo, recv_hi)};
}

coll_halving_step coll_halving_split(coll_halving *h, bool keep_low, int half)
{
  coll_halving_step s;
  if (keep_low) {
    h->send_idx = h->recv_idx + half;
    s = step_of(h, h->send_idx, h->last_idx, h->recv_idx, h->send_idx);
  } else {
    h->recv_idx = h->send_idx + half;
    s = step_of(h, h->send_idx, h->recv_idx, h->recv_idx, h->last_idx);
  }
  /* the kept half is the next step's range; after the last step last_idx stays, as the
   * doubling back expects (its first step reads the range of two blocks) */
  h->send_idx = h->recv_idx;
  if (half > 1)
    h->last_idx = h->recv_idx + half;
  return s;
}

coll_halving_step coll_halving_unsplit(coll_halving *h, bool keep_low, int half)
{
  coll_halving_step s;
  if (keep_low) {
    if (half != 1)
      h->last_idx += half;
    h->recv_idx = h->send_idx + half;
    s = step_of(h, h->send_idx, h->recv_idx, h->recv_idx, h->last_idx);
  } else {
    h->recv_idx = h->send_idx - half;
    s = step_of(h, h->send_idx, h->last_idx, h->recv_idx, h->send_idx);
    h->send_idx = h->recv_idx;
  }
  return s;
}

void coll_halving_reduce_scatter(coll_ctx *x, const coll_args *a, coll_halving *h, int newrank,
                                 void *buf, void *tmp, const smpi_dt *dt, int tag)
{
  for (int mask = 1; mask < h->p; mask <<= 1) {
    int nd = newrank ^ mask, dst = coll_halving_real(h, nd);
    coll_halving_step s = coll_halving_split(h, newrank < nd, h->p / (mask * 2));
    coll_sendrecv(x, coll_at(buf, s.soff, dt), s.scnt, dt, dst, coll_at(tmp, s.roff, dt), s.rcnt,
                  dt, dst, tag);
    coll_reduce(x, a, coll_at(tmp, s.roff, dt), coll_at(buf, s.roff, dt), s.rcnt);
  }
}
