/* Open MPI's generic segmented tree broadcast and reduction (see coll_ompi.h). */
#include "collectives/coll_ompi.h"

size_t coll_ompi_segcount(size_t segsize, size_t dtsize, size_t count)
{
  size_t seg = count;
  if (dtsize && segsize >= dtsize && segsize < dtsize * count) {
    seg = segsize / dtsize;
    if (segsize - seg * dtsize > dtsize / 2)
      seg++;
  }
  return seg ? seg : 1;
}

void coll_ompi_bcast_generic(coll_ctx *x, void *buf, size_t count, const smpi_dt *dt,
                             const coll_tree *t, size_t segcount, int tag)
{
  size_t nseg = count ? (count + segcount - 1) / segcount : 1;
  size_t last = count - (nseg - 1) * segcount;
  if (t->parent < 0) { /* root */
    for (size_t s = 0; s < nseg; s++) {
      size_t n = s == nseg - 1 ? last : segcount;
      for (int i = 0; i < t->nchildren; i++)
        coll_isend(x, coll_at(buf, s * segcount, dt), n, dt, t->children[i], tag);
      coll_wait(x);
    }
    return;
  }
  /* one receive ahead: post segment s + 1, then wait for s and forward it */
  int cur = coll_irecv(x, buf, nseg == 1 ? last : segcount, dt, t->parent, tag);
  for (size_t s = 1; s <= nseg; s++) {
    int next = -1;
    if (s < nseg)
      next = coll_irecv(x, coll_at(buf, s * segcount, dt), s == nseg - 1 ? last : segcount, dt,
                        t->parent, tag);
    coll_wait_req(x, cur);
    size_t n = s - 1 == nseg - 1 ? last : segcount;
    if (t->nchildren) {
      int first = -1;
      for (int i = 0; i < t->nchildren; i++) {
        int id = coll_isend(x, coll_at(buf, (s - 1) * segcount, dt), n, dt, t->children[i], tag);
        if (first < 0)
          first = id;
      }
      for (int i = 0; i < t->nchildren; i++)
        coll_wait_req(x, first + i);
    }
    cur = next;
  }
  coll_wait(x);
}

/* Worked example, a rank with two children c0, c1 and a commutative op, 3 segments:
 *
 *   seg 0: irecv c0 -> accum[0]            seg 1: irecv c0 -> accum[1]
 *          irecv c1 -> in[1]; wait c0              wait c1(seg 0); accum[0] += in; send
 *          accum[0] += own[0]                      irecv c1 -> in; wait c0; accum[1] += own
 *   ...    after the last segment one more round combines c1's part and sends it.
 *
 * Non-commutative ops receive every child into in[] and fold it into a copy of the own
 * data, child data being the left operand (the in-order tree lists higher ranks first). */
void coll_ompi_reduce_generic(coll_ctx *x, const coll_args *a, const coll_tree *t,
                              size_t segcount, int max_outstanding)
{
  (void)max_outstanding; /* 0 (no flow control) is all the callers use */
  const smpi_dt *dt = a->rdt;
  size_t count = (size_t)a->rcount;
  size_t nseg = count ? (count + segcount - 1) / segcount : 1;
  size_t last = count - (nseg - 1) * segcount;
  bool is_root = t->parent < 0;
  if (t->nchildren == 0) {
    if (is_root) {
      coll_copy(x, a->sbuf, count, dt, a->rbuf, count, dt);
      return;
    }
    for (size_t s = 0; s < nseg; s++)
      coll_send(x, coll_at(a->sbuf, s * segcount, dt), s == nseg - 1 ? last : segcount, dt,
                t->parent, COLL_TAG_REDUCE);
    return;
  }
  bool commutative = smpi_op_is_commutative(a->op);
  bool root_in_place = is_root && a->sbuf == a->rbuf;
  bool direct = commutative && !root_in_place; /* first child lands in the accumulator */
  char *accum = is_root && a->rbuf ? a->rbuf : coll_tmp_dt(x, count, dt);
  if (!commutative && !root_in_place)
    coll_copy(x, a->sbuf, count, dt, accum, count, dt);
  void *in[2] = {coll_tmp_dt(x, segcount, dt), coll_tmp_dt(x, segcount, dt)};
  int req[2] = {-1, -1};
  int inbi = 0;
  size_t rcount = 0, prev;
  for (size_t s = 0; s <= nseg; s++) {
    prev = rcount;
    rcount = s == nseg - 1 ? last : segcount;
    for (int i = 0; i < t->nchildren; i++) {
      if (s < nseg) {
        void *dst = i == 0 && direct ? coll_at(accum, s * segcount, dt) : in[inbi];
        req[inbi] = coll_irecv(x, dst, rcount, dt, t->children[i], COLL_TAG_REDUCE);
      }
      if (req[inbi ^ 1] >= 0) {
        coll_wait_req(x, req[inbi ^ 1]);
        req[inbi ^ 1] = -1;
      }
      const void *opbuf = in[inbi ^ 1];
      if (i > 0) {
        if (i == 1 && direct)
          opbuf = coll_at(a->sbuf, s * segcount, dt);
        coll_reduce(x, a, opbuf, coll_at(accum, s * segcount, dt), rcount);
      } else if (s > 0) {
        char *acc = coll_at(accum, (s - 1) * segcount, dt);
        if (t->nchildren <= 1 && direct)
          opbuf = coll_at(a->sbuf, (s - 1) * segcount, dt);
        coll_reduce(x, a, opbuf, acc, prev);
        if (!is_root)
          coll_send(x, acc, prev, dt, t->parent, COLL_TAG_REDUCE);
        if (s == nseg)
          break;
      }
      inbi ^= 1;
    }
  }
  coll_wait(x);
}
