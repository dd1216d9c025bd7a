/* SimGrid's bcast arrival_scatter: rank 0 serves the ranks in the order they arrive, as in
 * arrival_pattern_aware_wait (three probe rounds per group, bcast_arrival.h), but each
 * group of T ranks gets a scatter and a ring allgather instead of a chain:
 *
 *   rank 0 -> every member: header [r0, r1, ..., -1] (128 ints), then member j gets
 *             piece j (count / T elements, the last one the remainder too)
 *   ring:   T - 1 steps; step i sends piece (j - i) to the next member and receives
 *           piece (j - i - 1) from the previous one
 *
 * SimGrid runs its configured bcast when count < size, i.e. itself when forced: endless
 * recursion. Here the default selector's choice runs then. Pieces are whole basic
 * elements of the byte view (bcast_arrival.h). */
#include "src/log.h"

LOG_EXTERNAL_CATEGORY(smpi_coll);
LOG_DEFAULT_CATEGORY(smpi_coll);

#include "collectives/bcast/bcast_arrival.h" /* logs in smpi_coll */

int coll_bcast_arrival_scatter(coll_ctx *x, const coll_args *a)
{
  int n = x->size;
  if (n == 1)
    return x->err;
  size_t nbytes = (size_t)a->rcount * smpi_dt_size(a->rdt), unit = coll_dt_unit(a->rdt);
  if (nbytes / unit < (size_t)n) {
    /* SimGrid: its configured bcast, i.e. this one again; here the default selector's */
    static bool told;
    if (!told) {
      told = true;
      LOG_INFO("MPI_bcast_arrival_scatter: count < size, use default MPI_bcast.");
    }
    coll_features f = {.coll = COLL_bcast,
                       .size = n,
                       .count = (size_t)a->rcount,
                       .dtsize = smpi_dt_size(a->rdt),
                       .bytes = nbytes,
                       .total = nbytes,
                       .commutative = true};
    int rc = coll_algos[coll_select_default(&f)].fn(x, a);
    return rc ? rc : x->err;
  }
  arrival s;
  arrival_init(&s, x, a, 128);
  to_rank0(&s);
  size_t units = s.count / unit;
  if (x->rank == 0) {
    bool *will = coll_tmp(x, (size_t)n * sizeof(bool));
    for (int i = 0; i < n; i++)
      will[i] = false;
    int served = 0;
    while (served < n - 1) {
      arrival_probe_rounds(&s, will);
      int h = 0;
      for (int i = 1; i < n; i++)
        if (will[i] && !s.served[i]) {
          s.hdr[h++] = i;
          s.served[i] = true;
          served++;
        }
      if (h == 0)
        continue;
      s.hdr[h] = -1;
      for (int i = 0; i < h; i++)
        coll_send(x, s.hdr, s.nhdr, s.ints, s.hdr[i], COLL_TAG_BCAST_ARRIVAL);
      size_t piece = units / (size_t)h * unit, rest = units % (size_t)h * unit;
      for (int i = 0; i < h; i++)
        coll_send(x, s.buf + (size_t)i * piece, piece + (i == h - 1 ? rest : 0), s.dt, s.hdr[i],
                  COLL_TAG_BCAST_ARRIVAL);
    }
  } else {
    coll_send(x, &s.bytes[0], 1, s.chars, 0, COLL_TAG_BCAST_ARRIVAL);
    coll_recv(x, s.hdr, s.nhdr, s.ints, 0, COLL_TAG_BCAST_ARRIVAL);
    int me = position(&s), t = 0;
    while (s.hdr[t] != -1)
      t++;
    size_t piece = units / (size_t)t * unit, rest = units % (size_t)t * unit;
    coll_recv(x, s.buf + (size_t)me * piece, piece + (me == t - 1 ? rest : 0), s.dt, 0,
              COLL_TAG_BCAST_ARRIVAL);
    int to = s.hdr[(me + 1) % t], from = s.hdr[(me - 1 + t) % t];
    for (int i = 0; i < t - 1; i++) {
      int sp = (me - i + t) % t, rp = (me - i - 1 + t) % t;
      coll_sendrecv(x, s.buf + (size_t)sp * piece, piece + (sp == t - 1 ? rest : 0), s.dt, to,
                    s.buf + (size_t)rp * piece, piece + (rp == t - 1 ? rest : 0), s.dt, from,
                    COLL_TAG_BCAST_ARRIVAL);
    }
  }
  coll_bytes_done(x, a, &s.b);
  return x->err;
}
