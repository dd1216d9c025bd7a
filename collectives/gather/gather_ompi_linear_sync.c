/* Gather, Open MPI's linear_sync: the root asks the ranks one at a time with an empty
 * message; each answers with the first segment of its block (a blocking send) and the
 * rest; the root waits for a first segment before asking the next rank, and for all the
 * rests at the end. The handshake keeps the root from being flooded. First segment: 32 KiB
 * for blocks above 92160 bytes, else 1 KiB (Open MPI's decision thresholds, also what
 * SimGrid 3.32 uses when forced). Blocks are cut in bytes at multiples of the basic type. */
#include "collectives/coll_ompi.h"

int coll_gather_ompi_linear_sync(coll_ctx *x, const coll_args *a)
{
  const smpi_dt *byte = coll_byte();
  int n = x->size, me = x->rank, root = a->root;
  bool is_root = me == root;
  const smpi_dt *dt = is_root ? a->rdt : a->sdt;
  size_t cnt = is_root ? (size_t)a->rcount : (size_t)a->scount;
  size_t bytes = cnt * smpi_dt_size(dt), unit = coll_dt_unit(dt);
  size_t fseg = bytes > 92160 ? 32768 : 1024;
  size_t first = coll_ompi_segcount(fseg, unit, bytes / unit) * unit;
  if (first > bytes)
    first = bytes;
  if (!is_root) {
    const char *p;
    if (smpi_dt_is_contiguous(dt)) {
      p = (const char *)a->sbuf + smpi_dt_true_lb(dt);
    } else {
      char *t = coll_tmp(x, bytes);
      coll_pack(x, a->sbuf, cnt, dt, t);
      p = t;
    }
    coll_recv(x, NULL, 0, byte, root, COLL_TAG_GATHER);
    coll_send(x, p, first, byte, root, COLL_TAG_GATHER);
    coll_send(x, p + first, bytes - first, byte, root, COLL_TAG_GATHER);
    return x->err;
  }
  bool contig = smpi_dt_is_contiguous(dt);
  char *stage = contig ? NULL : coll_tmp(x, bytes * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (i == me)
      continue;
    char *p = contig ? coll_at(a->rbuf, (size_t)i * cnt, dt) + smpi_dt_true_lb(dt)
                     : stage + (size_t)i * bytes;
    int f = coll_irecv(x, p, first, byte, i, COLL_TAG_GATHER);
    coll_send(x, NULL, 0, byte, i, COLL_TAG_GATHER);
    coll_irecv(x, p + first, bytes - first, byte, i, COLL_TAG_GATHER);
    coll_wait_req(x, f);
  }
  coll_copy(x, a->sbuf, (size_t)a->scount, a->sdt, coll_at(a->rbuf, (size_t)me * cnt, dt), cnt,
            dt);
  coll_wait(x);
  if (!contig)
    for (int i = 0; i < n; i++)
      if (i != me)
        coll_unpack(x, stage + (size_t)i * bytes, cnt, dt, coll_at(a->rbuf, (size_t)i * cnt, dt));
  return x->err;
}
