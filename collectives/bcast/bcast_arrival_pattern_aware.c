/* SimGrid's bcast arrival_pattern_aware: one probe round per chain; when nobody new has
 * arrived, rank 0 serves the first rank it has not served yet alone (bcast_arrival.h). */
#include "src/log.h"

LOG_EXTERNAL_CATEGORY(smpi_coll);
LOG_DEFAULT_CATEGORY(smpi_coll);

#include "collectives/bcast/bcast_arrival.h" /* logs in smpi_coll */

/* rank 0 of arrival_pattern_aware: probes every rank, takes the announcements of the new
 * arrivals into the header; true if anyone new had arrived */
static bool probe_round(arrival *s, bool *flag)
{
  coll_ctx *x = s->x;
  int n = x->size, h = 0;
  for (int i = 1; i < n; i++)
    flag[i] = coll_iprobe(x, i, COLL_TAG_BCAST_ARRIVAL);
  for (int i = 1; i < n; i++)
    if (flag[i] && !s->served[i]) {
      coll_recv(x, s->count <= s->seg ? &s->bytes[0] : &s->bytes[i], 1, s->chars, i,
                COLL_TAG_BCAST_ARRIVAL);
      s->hdr[h++] = i;
      s->served[i] = true;
    }
  s->hdr[h] = -1;
  return h > 0;
}

int coll_bcast_arrival_pattern_aware(coll_ctx *x, const coll_args *a)
{
  int n = x->size;
  if (n == 1)
    return x->err;
  arrival s;
  arrival_init(&s, x, a, 1024);
  to_rank0(&s);
  bool single = s.count <= s.seg;
  if (x->rank == 0) {
    bool *flag = coll_tmp(x, (size_t)n * sizeof(bool));
    bool *clean = coll_tmp(x, (size_t)n * sizeof(bool));
    for (int i = 0; i < n; i++)
      clean[i] = false;
    int served = 0;
    while (served < n - 1) {
      if (!probe_round(&s, flag)) {
        /* nobody new: the first rank not served yet, alone */
        int i = 1;
        while (s.served[i])
          i++;
        s.hdr[0] = i;
        s.hdr[1] = -1;
        s.served[i] = true;
        clean[i] = !single;
      }
      int to = s.hdr[0];
      coll_send(x, s.hdr, s.nhdr, s.ints, to, COLL_TAG_BCAST_ARRIVAL);
      if (single)
        coll_send(x, s.buf, s.count, s.dt, to, COLL_TAG_BCAST_ARRIVAL);
      else
        for (size_t k = 0; k < s.pipe; k++)
          coll_send(x, segment(&s, k), s.seg, s.dt, to, COLL_TAG_BCAST_ARRIVAL);
      served = 0;
      for (int i = 1; i < n; i++)
        served += s.served[i];
    }
    for (int i = 0; i < n; i++)
      if (clean[i])
        coll_recv(x, &s.bytes[i], 1, s.chars, i, COLL_TAG_BCAST_ARRIVAL);
  } else {
    coll_send(x, &s.bytes[0], 1, s.chars, 0, COLL_TAG_BCAST_ARRIVAL);
    if (single) {
      coll_recv(x, s.hdr, s.nhdr, s.ints, MPI_ANY_SOURCE, COLL_TAG_BCAST_ARRIVAL);
      int pos = position(&s), next = s.hdr[pos + 1], from = pos ? s.hdr[pos - 1] : 0;
      coll_recv(x, s.buf, s.count, s.dt, from, COLL_TAG_BCAST_ARRIVAL);
      if (next != -1) {
        coll_send(x, s.hdr, s.nhdr, s.ints, next, COLL_TAG_BCAST_ARRIVAL);
        coll_send(x, s.buf, s.count, s.dt, next, COLL_TAG_BCAST_ARRIVAL);
      }
    } else {
      coll_irecv(x, s.hdr, s.nhdr, s.ints, MPI_ANY_SOURCE, COLL_TAG_BCAST_ARRIVAL);
      coll_wait(x);
      int pos = position(&s), next = s.hdr[pos + 1], from = pos ? s.hdr[pos - 1] : 0;
      if (next != -1)
        coll_send(x, s.hdr, s.nhdr, s.ints, next, COLL_TAG_BCAST_ARRIVAL);
      int first = -1;
      for (size_t k = 0; k < s.pipe; k++) {
        int id = coll_irecv(x, segment(&s, k), s.seg, s.dt, from, COLL_TAG_BCAST_ARRIVAL);
        if (first < 0)
          first = id;
      }
      if (next != -1)
        for (size_t k = 0; k < s.pipe; k++) {
          coll_wait_req(x, first + (int)k);
          coll_isend(x, segment(&s, k), s.seg, s.dt, next, COLL_TAG_BCAST_ARRIVAL);
        }
      coll_wait(x);
    }
  }
  static bool told;
  return arrival_done(&s, "arrival_pattern_aware", &told);
}
