/* Shared by the arrival-pattern-aware broadcasts (bcast_arrival_pattern_aware*.c).
 *
 * Broadcast to the ranks in the order they arrive (STAR-MPI's arrival-pattern-aware
 * pipelined chain, SimGrid's arrival_pattern_aware and arrival_pattern_aware_wait).
 *
 * A non-root rank announces itself to rank 0 with a 1-byte message, then waits for a
 * header (1024 ints: the ranks of its chain, -1 at the end) and the data, which it
 * forwards to the next rank of the header. Rank 0 (the root sends it the buffer first when
 * the root is another rank) polls with MPI_Iprobe and serves whoever has arrived as one
 * chain, 8 KiB segments:
 *
 *   rank 0: probe 1..n-1 -> 3, 5 arrived -> header [3, 5, -1] + data to 3 -> 3 -> 5
 *           probe again   -> 1, 2, 4     -> header [1, 2, 4, -1] + data to 1 -> 1 -> 2 -> 4
 *
 *   arrival_pattern_aware:      one probe round per chain; when nobody new has arrived,
 *                               rank 0 serves the first rank it has not served yet alone
 *                               (the pipelined form takes its 1-byte message at the end;
 *                               the single-segment form never does: the message stays, as
 *                               in SimGrid, and the next call's probe finds it)
 *   arrival_pattern_aware_wait: three probe rounds per chain, each restarting at rank 1
 *                               after every arrival; no chain until someone arrives; data
 *                               sent nonblocking, received from the predecessor only
 *
 * The probes cost what MPI_Iprobe costs (smpi/iprobe, growing while they fail), so the
 * chains, and the time, depend on arrival dates exactly as in SimGrid. A remainder that
 * does not fill a segment is broadcast again by the configured algorithm (SimGrid's
 * colls::bcast). Segments are whole elements: 8192 / extent of them.
 *
 * Against rules 1 and 2 of coll_private.h (control flow on arrival and on the received
 * header; the header written by hand): these run as blocking calls or in a nonblocking
 * collective's helper, never as recorded schedules. */
#ifndef SMPI_COLLECTIVES_BCAST_ARRIVAL_H
#define SMPI_COLLECTIVES_BCAST_ARRIVAL_H

#include "collectives/coll_private.h"
#include "src/invariant.h"
#include "src/log.h" /* the including file sets its default category */

#define ARRIVAL_SEGMENT_BYTES 8192

typedef struct arrival {
  coll_ctx *x;
  const coll_args *a;
  coll_bytes b; /* the buffer as bytes (packed when the datatype is not contiguous) */
  char *buf;
  size_t count, seg, pipe;          /* bytes: the buffer, a segment, whole segments */
  const smpi_dt *dt, *ints, *chars; /* dt: MPI_BYTE */
  int *hdr;     /* header: SimGrid's size in ints (more if the ranks do not fit) */
  size_t nhdr;  /* ints in a header */
  char *bytes;  /* one announcement byte per rank */
  bool *served; /* rank 0: already in a chain */
} arrival;

/* hdr_ints: SimGrid's header size (1024 ints; 128 for arrival_scatter). Segments are
 * 8192 bytes rounded down to whole basic elements (SimGrid: 8192 / extent elements; the
 * same for basic types, and it keeps ranks that describe the buffer with different
 * datatypes in step). */
static inline void arrival_init(arrival *s, coll_ctx *x, const coll_args *a, size_t hdr_ints)
{
  int n = x->size;
  s->x = x;
  s->a = a;
  coll_bytes_get(x, a, &s->b);
  s->buf = s->b.buf;
  s->count = s->b.nbytes;
  s->dt = coll_byte();
  s->seg = ARRIVAL_SEGMENT_BYTES / s->b.unit * s->b.unit;
  if (s->seg == 0)
    s->seg = s->b.unit;
  s->pipe = s->count / s->seg;
  s->ints = smpi_dt_get(MPI_INT);
  s->chars = smpi_dt_get(MPI_CHAR);
  /* more ranks than the header holds would overflow it in SimGrid */
  s->nhdr = (size_t)n + 1 > hdr_ints ? (size_t)n + 1 : hdr_ints;
  s->hdr = coll_tmp(x, s->nhdr * sizeof(int));
  s->bytes = coll_tmp(x, (size_t)n);
  s->served = coll_tmp(x, (size_t)n * sizeof(bool));
  for (int i = 0; i < n; i++) {
    s->bytes[i] = 0;
    s->served[i] = false;
  }
  for (size_t i = 0; i < s->nhdr; i++)
    s->hdr[i] = -1;
}

static inline void *segment(const arrival *s, size_t i) { return s->buf + i * s->seg; }

/* rank 0, the _wait and _scatter forms: three probing rounds over the ranks neither served
 * nor announced yet, to let more ranks arrive before a chain starts; an arrival's
 * announcement is received into s->bytes[i], marks will[i], and the scan restarts at rank 1 */
static inline void arrival_probe_rounds(arrival *s, bool *will)
{
  coll_ctx *x = s->x;
  for (int k = 0; k < 3; k++)
    for (int i = 1; i < x->size; i++)
      if (!s->served[i] && !will[i] && coll_iprobe(x, i, COLL_TAG_BCAST_ARRIVAL)) {
        will[i] = true;
        coll_recv(x, &s->bytes[i], 1, s->chars, i, COLL_TAG_BCAST_ARRIVAL);
        i = 0; /* from rank 1 again */
      }
}

/* a root other than rank 0 hands the buffer to rank 0 first (on the plain bcast tag: the
 * root's announcement follows on the arrival tag) */
static inline void to_rank0(arrival *s)
{
  int root = s->a->root;
  if (root == 0)
    return;
  if (s->x->rank == root)
    coll_send(s->x, s->buf, s->count, s->dt, 0, COLL_TAG_BCAST);
  else if (s->x->rank == 0)
    coll_recv(s->x, s->buf, s->count, s->dt, root, COLL_TAG_BCAST);
}

/* this rank's place in the received header */
static inline int position(const arrival *s)
{
  size_t k = 0;
  while (k < s->nhdr && s->hdr[k] != s->x->rank)
    k++;
  ASSERTF(k < s->nhdr, "rank %d is not in its bcast chain", s->x->rank);
  return (int)k;
}

/* the remainder after the whole segments, by the configured algorithm, then the bytes
 * back into the user's buffer */
static inline int arrival_done(arrival *s, const char *name, bool *told)
{
  size_t rem = s->count % s->seg;
  int rc = s->x->err;
  if (rem && s->count > s->seg && rc == MPI_SUCCESS) {
    if (!*told) {
      *told = true;
      LOG_INFO("MPI_bcast_%s: count is not divisible by block size, use default MPI_bcast "
               "for remainder.",
               name);
    }
    coll_args b = *s->a;
    b.rbuf = segment(s, s->pipe);
    b.sbuf = b.rbuf;
    b.rcount = b.scount = (int)rem;
    b.rdt = b.sdt = s->dt;
    b.rdt_h = b.sdt_h = MPI_BYTE;
    rc = coll_run(s->x, COLL_bcast, &b);
    if (rc == MPI_SUCCESS)
      rc = s->x->err;
  }
  coll_bytes_done(s->x, s->a, &s->b);
  return rc;
}

#endif
