/* Reduce along chains of ranks in the order they arrive (STAR-MPI, SimGrid's reduce
 * arrival_pattern_aware): the mirror of bcast arrival_pattern_aware.
 *
 * Every rank first copies its input into its working buffer with a message to itself.
 * A non-root rank announces itself to rank 0 with a 1-byte message and waits for a header
 * (1024 ints: its chain, -1 at the end), which it passes on; the first rank of the chain
 * sends its buffer to the next, each following one combines what it receives into its
 * own and sends it on, the last one to rank 0, which combines every chain into its own:
 *
 *   rank 0: probe -> 3, 5, 6 arrived -> header [3, 5, 6, -1] to 3;  3 -> 5 -> 6 -> rank 0
 *           probe again -> 1, 2, 4   -> header [1, 2, 4, -1] to 1;  1 -> 2 -> 4 -> rank 0
 *
 * Up to one segment (8 KiB of elements) the data goes whole, and each of rank 0's probes is
 * followed by a 0.1 ms sleep; above, it goes in segments, rank 0 probes once per round and,
 * after an arrival, starts again at rank 2 (SimGrid's loop sets i = 1 before its i++).
 * Rank 0 sends the result to a root other than itself at the end; a remainder that does
 * not fill a segment is reduced by the default selector's algorithm (SimGrid's
 * reduce__default). Ranks other than the root work in scratch memory (SimGrid uses the
 * receive buffer, which MPI leaves undefined there). Chains combine in arrival order:
 * commutative ops only (SimGrid does not check). Against rules 1-2 of coll_private.h, as
 * the bcast (bcast_arrival.h). */
#include "collectives/coll_private.h"
#include "src/invariant.h"

#define SEGMENT_BYTES 8192
#define HEADER_INTS 1024

static int position(const int *hdr, size_t nhdr, int me)
{
  size_t k = 0;
  while (k < nhdr && hdr[k] != me)
    k++;
  ASSERTF(k < nhdr, "rank %d is not in its reduce chain", me);
  return (int)k;
}

int coll_reduce_arrival_pattern_aware(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root;
  const smpi_dt *dt = a->rdt, *ints = smpi_dt_get(MPI_INT), *chars = smpi_dt_get(MPI_CHAR);
  size_t count = (size_t)a->rcount, ext = (size_t)smpi_dt_extent(dt);
  size_t seg = ext ? SEGMENT_BYTES / ext : SEGMENT_BYTES;
  if (seg == 0)
    seg = 1;
  size_t pipe = count / seg, rem = count % seg, inc = seg * ext;
  size_t nhdr = (size_t)n + 1 > HEADER_INTS ? (size_t)n + 1 : HEADER_INTS;
  int *hdr = coll_tmp(x, nhdr * sizeof(int));
  for (size_t i = 0; i < nhdr; i++)
    hdr[i] = -1;
  char *bytes = coll_tmp(x, (size_t)n);
  bool *got = coll_tmp(x, (size_t)n * sizeof(bool)); /* rank 0: already in a chain */
  for (int i = 0; i < n; i++) {
    bytes[i] = 0;
    got[i] = false;
  }
  char *work = me == root ? a->rbuf : coll_tmp_dt(x, count, dt);
  char *tmp = coll_tmp_dt(x, count, dt);
  /* a root other than rank 0 receives the whole result at the end: in place, that would
   * overwrite the remainder's input (SimGrid's does), so it is kept aside first */
  const char *rem_in = (const char *)a->sbuf + pipe * inc;
  if (rem && count > seg && me == root && root != 0 && a->sbuf == a->rbuf) {
    char *keep = coll_tmp_dt(x, rem, dt);
    coll_copy(x, rem_in, rem, dt, keep, rem, dt);
    rem_in = keep;
  }
  coll_sendrecv(x, a->sbuf, count, dt, me, work, count, dt, me, COLL_TAG_REDUCE_ARRIVAL);

  if (count <= seg) {
    if (me == 0) {
      bool *flag = coll_tmp(x, (size_t)n * sizeof(bool));
      int done = 0;
      while (done < n - 1) {
        for (int i = 1; i < n; i++)
          if (!got[i]) {
            flag[i] = coll_iprobe(x, i, COLL_TAG_REDUCE_ARRIVAL);
            coll_sleep(x, 0.0001);
          }
        int h = 0;
        for (int i = 1; i < n; i++)
          if (flag[i] && !got[i]) {
            coll_recv(x, &bytes[0], 1, chars, i, COLL_TAG_REDUCE_ARRIVAL);
            hdr[h++] = i;
            got[i] = true;
            done++;
          }
        if (h) {
          hdr[h] = -1;
          coll_send(x, hdr, nhdr, ints, hdr[0], COLL_TAG_REDUCE_ARRIVAL);
          coll_recv(x, tmp, count, dt, hdr[h - 1], COLL_TAG_REDUCE_ARRIVAL);
          coll_reduce(x, a, tmp, work, count);
        }
      }
    } else {
      coll_send(x, &bytes[0], 1, chars, 0, COLL_TAG_REDUCE_ARRIVAL);
      coll_recv(x, hdr, nhdr, ints, MPI_ANY_SOURCE, COLL_TAG_REDUCE_ARRIVAL);
      int pos = position(hdr, nhdr, me), next = hdr[pos + 1];
      if (next != -1)
        coll_send(x, hdr, nhdr, ints, next, COLL_TAG_REDUCE_ARRIVAL);
      int to = next == -1 ? 0 : next;
      if (pos > 0) {
        coll_recv(x, tmp, count, dt, hdr[pos - 1], COLL_TAG_REDUCE_ARRIVAL);
        coll_reduce(x, a, tmp, work, count);
      }
      coll_send(x, work, count, dt, to, COLL_TAG_REDUCE_ARRIVAL);
    }
  } else if (me == 0) {
    bool *will = coll_tmp(x, (size_t)n * sizeof(bool));
    for (int i = 0; i < n; i++)
      will[i] = false;
    int done = 0;
    while (done < n - 1) {
      for (int i = 1; i < n; i++)
        if (!got[i] && !will[i] && coll_iprobe(x, i, COLL_TAG_REDUCE_ARRIVAL)) {
          will[i] = true;
          coll_recv(x, &bytes[i], 1, chars, i, COLL_TAG_REDUCE_ARRIVAL);
          i = 1; /* SimGrid's restart: rank 2 next */
        }
      int h = 0;
      for (int i = 1; i < n; i++)
        if (will[i] && !got[i]) {
          hdr[h++] = i;
          got[i] = true;
          done++;
        }
      if (h == 0)
        continue;
      hdr[h] = -1;
      coll_send(x, hdr, nhdr, ints, hdr[0], COLL_TAG_REDUCE_ARRIVAL);
      for (size_t k = 0; k < pipe; k++) {
        coll_recv(x, tmp + k * inc, seg, dt, hdr[h - 1], COLL_TAG_REDUCE_ARRIVAL);
        coll_reduce(x, a, tmp + k * inc, work + k * inc, seg);
      }
    }
  } else {
    coll_send(x, &bytes[0], 1, chars, 0, COLL_TAG_REDUCE_ARRIVAL);
    coll_irecv(x, hdr, nhdr, ints, MPI_ANY_SOURCE, COLL_TAG_REDUCE_ARRIVAL);
    coll_wait(x);
    int pos = position(hdr, nhdr, me), next = hdr[pos + 1];
    if (next != -1)
      coll_send(x, hdr, nhdr, ints, next, COLL_TAG_REDUCE_ARRIVAL);
    int to = next == -1 ? 0 : next;
    if (pos == 0) {
      for (size_t k = 0; k < pipe; k++)
        coll_isend(x, work + k * inc, seg, dt, to, COLL_TAG_REDUCE_ARRIVAL);
    } else {
      int first = -1;
      for (size_t k = 0; k < pipe; k++) {
        int id = coll_irecv(x, tmp + k * inc, seg, dt, hdr[pos - 1], COLL_TAG_REDUCE_ARRIVAL);
        if (first < 0)
          first = id;
      }
      for (size_t k = 0; k < pipe; k++) {
        coll_wait_req(x, first + (int)k);
        coll_reduce(x, a, tmp + k * inc, work + k * inc, seg);
        coll_isend(x, work + k * inc, seg, dt, to, COLL_TAG_REDUCE_ARRIVAL);
      }
    }
    coll_wait(x);
  }

  if (root != 0) {
    if (me == 0)
      coll_send(x, work, count, dt, root, COLL_TAG_REDUCE_ARRIVAL);
    else if (me == root)
      coll_recv(x, work, count, dt, 0, COLL_TAG_REDUCE_ARRIVAL);
  }
  if (rem == 0 || count <= seg)
    return x->err;
  /* the remainder: SimGrid's reduce__default, i.e. the default selector's algorithm */
  coll_args r = *a;
  r.sbuf = rem_in;
  r.rbuf = me == root ? work + pipe * inc : NULL;
  r.in_place = r.sbuf == r.rbuf;
  r.scount = r.rcount = (int)rem;
  coll_features f = {.coll = COLL_reduce,
                     .size = n,
                     .count = rem,
                     .dtsize = smpi_dt_size(dt),
                     .bytes = rem * smpi_dt_size(dt),
                     .total = rem * smpi_dt_size(dt),
                     .commutative = true};
  coll_alg_id id = coll_select_default(&f);
  int rc = coll_algos[id].fn(x, &r);
  return rc ? rc : x->err;
}
