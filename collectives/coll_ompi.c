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
