/* SimGrid's bcast arrival_pattern_aware_wait: three probe rounds per chain, no chain until
 * someone arrives, nonblocking sends (bcast_arrival.h). */
#include "src/log.h"

LOG_EXTERNAL_CATEGORY(smpi_coll);
LOG_DEFAULT_CATEGORY(smpi_coll);

#include "collectives/bcast/bcast_arrival.h" /* logs in smpi_coll */

int coll_bcast_arrival_pattern_aware_wait(coll_ctx *x, const coll_args *a)
{
  int n = x->size;
  if (n == 1)
    return x->err;
  arrival s;
  arrival_init(&s, x, a, 1024);
  to_rank0(&s);
  size_t seg = s.seg, pipe = s.pipe;
  if (s.count <= s.seg) { /* one segment of everything */
    seg = s.count;
    pipe = 1;
  }
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
      int to = s.hdr[0];
      coll_send(x, s.hdr, s.nhdr, s.ints, to, COLL_TAG_BCAST_ARRIVAL);
      for (size_t k = 0; k < pipe; k++)
        coll_isend(x, segment(&s, k), seg, s.dt, to, COLL_TAG_BCAST_ARRIVAL);
      coll_wait(x);
    }
  } else {
    coll_send(x, &s.bytes[0], 1, s.chars, 0, COLL_TAG_BCAST_ARRIVAL);
    coll_irecv(x, s.hdr, s.nhdr, s.ints, MPI_ANY_SOURCE, COLL_TAG_BCAST_ARRIVAL);
    coll_wait(x);
    int pos = position(&s);
    int to = s.hdr[pos + 1], from = pos == 0 ? 0 : s.hdr[pos - 1];
    if (to != -1)
      coll_send(x, s.hdr, s.nhdr, s.ints, to, COLL_TAG_BCAST_ARRIVAL);
    int first = -1;
    for (size_t k = 0; k < pipe; k++) {
      int id = coll_irecv(x, segment(&s, k), seg, s.dt, from, COLL_TAG_BCAST_ARRIVAL);
      if (first < 0)
        first = id;
    }
    if (to != -1)
      for (size_t k = 0; k < pipe; k++) {
        coll_wait_req(x, first + (int)k);
        coll_isend(x, segment(&s, k), seg, s.dt, to, COLL_TAG_BCAST_ARRIVAL);
      }
    coll_wait(x);
  }
  static bool told;
  return arrival_done(&s, "arrival_pattern_aware_wait", &told);
}
