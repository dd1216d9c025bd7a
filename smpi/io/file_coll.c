/* file_coll.c: the timing of collective accesses (MPI_File_*_all), by two-phase
 * aggregation as ROMIO does it ("collective buffering").
 *
 * Four ranks on two hosts write an interleaved view (rank r owns every 4th block of b bytes);
 * aggregators: one per host (cb_nodes), the first rank of each; file span [lo, hi):
 *
 *   1. allgather of each rank's [first, last) byte          (everyone learns the span)
 *      not interleaved (and romio_cb_* not "enable")        -> each rank accesses alone
 *   2. the span cut into cb_nodes domains, one per aggregator:  A0 [lo, mid)  A1 [mid, hi)
 *   3. rounds of cb_buffer_size bytes of each domain; per round:
 *        alltoall of byte counts, then (write) alltoallv of the pieces to the aggregators
 *        each aggregator writes its window as one contiguous access (read first when the
 *        pieces it got do not fill it: read-modify-write)
 *      a read runs the other way: the aggregator reads its window, alltoallv to the owners
 *
 * Messages are ordinary collectives on the file's communicator (they contend with the
 * application's); disk accesses go through file_cost.c (local disk or storage host). The
 * data itself was moved by each rank in file.c: only the cost is simulated here. */
#include <stdlib.h>
#include <string.h>

#include "collectives/coll.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/io/file.h"
#include "smpi/runtime/world.h"
#include "src/mem.h"

typedef struct span {
  MPI_Offset lo, hi; /* hi == -1: no data */
} span;

static int cmp_span(const void *a, const void *b)
{
  const span *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* the ranks of f's communicator that aggregate: the first of each host, then more in rank
 * order up to cb_nodes */
static int pick_aggregators(const smpi_file *f, int *aggr)
{
  int n = smpi_comm_size(f->c), want = io_cb_nodes(f), k = 0;
  bool *taken = xcalloc((size_t)n, sizeof *taken);
  for (int r = 0; r < n && k < want; r++) {
    size_t h = smpi_w.ranks[smpi_comm_world_rank(f->c, r)].host;
    bool seen = false;
    for (int q = 0; q < k && !seen; q++)
      seen = smpi_w.ranks[smpi_comm_world_rank(f->c, aggr[q])].host == h;
    if (!seen) {
      aggr[k++] = r;
      taken[r] = true;
    }
  }
  for (int r = 0; r < n && k < want; r++)
    if (!taken[r])
      aggr[k++] = r;
  free(taken);
  return k;
}

/* bytes of segs inside [lo, hi) (a scan of all of them per window: rounds are few) */
static MPI_Offset bytes_in(const io_segs *segs, MPI_Offset lo, MPI_Offset hi)
{
  MPI_Offset sum = 0;
  for (size_t i = 0; i < segs->n; i++) {
    MPI_Offset a = segs->v[i].off, b = a + segs->v[i].len;
    if (a < lo)
      a = lo;
    if (b > hi)
      b = hi;
    if (b > a)
      sum += b - a;
  }
  return sum;
}

void io_coll_cost(smpi_file *f, bool write, const io_segs *segs, const char *fname)
{
  int n = smpi_comm_size(f->c), me = f->rank;
  span mine = {0, -1};
  for (size_t i = 0; i < segs->n; i++) {
    if (mine.hi < 0 || segs->v[i].off < mine.lo)
      mine.lo = segs->v[i].off;
    if (segs->v[i].off + segs->v[i].len > mine.hi)
      mine.hi = segs->v[i].off + segs->v[i].len;
  }
  span *all = xmalloc((size_t)n * sizeof *all);
  coll_mpi_allgather(&mine, 2, MPI_OFFSET, all, 2, MPI_OFFSET, f->comm, fname);
  /* the span, and whether the accesses interleave */
  span *used = xmalloc((size_t)n * sizeof *used);
  int nu = 0;
  for (int r = 0; r < n; r++)
    if (all[r].hi >= 0)
      used[nu++] = all[r];
  free(all);
  qsort(used, (size_t)nu, sizeof *used, cmp_span);
  bool interleaved = false;
  MPI_Offset lo = nu ? used[0].lo : 0, hi = 0;
  for (int i = 0; i < nu; i++) {
    if (i > 0 && used[i].lo < hi)
      interleaved = true;
    if (used[i].hi > hi)
      hi = used[i].hi;
  }
  free(used);
  char v[64] = "";
  int flag = 0;
  if (f->info != MPI_INFO_NULL)
    smpi_info_value(smpi_info_get(f->info), write ? "romio_cb_write" : "romio_cb_read",
                    (int)sizeof v - 1, v, &flag);
  bool forced = flag && strcmp(v, "enable") == 0;
  if (nu == 0)
    return;
  if (!interleaved && !forced) { /* ROMIO's "automatic": nothing to gain, each alone */
    io_cost_rw(f, write, segs);
    return;
  }

  int *aggr = xmalloc((size_t)n * sizeof *aggr);
  int na = pick_aggregators(f, aggr);
  int my_aggr = -1; /* index in aggr[] of this rank, or -1 */
  for (int a = 0; a < na; a++)
    if (aggr[a] == me)
      my_aggr = a;
  MPI_Offset dom = (hi - lo + na - 1) / na;
  MPI_Offset cb = (MPI_Offset)io_cb_buffer_size(f);
  MPI_Offset rounds = (dom + cb - 1) / cb;

  int *scount = xcalloc((size_t)n, sizeof *scount), *rcount = xcalloc((size_t)n, sizeof *rcount);
  int *sdisp = xcalloc((size_t)n, sizeof *sdisp), *rdisp = xcalloc((size_t)n, sizeof *rdisp);
  for (MPI_Offset t = 0; t < rounds; t++) {
    /* this round's window of every aggregator; my bytes in each */
    for (int r = 0; r < n; r++)
      scount[r] = 0;
    for (int a = 0; a < na; a++) {
      MPI_Offset wlo = lo + a * dom + t * cb, whi = wlo + cb;
      if (whi > lo + (a + 1) * dom)
        whi = lo + (a + 1) * dom;
      if (whi > hi)
        whi = hi;
      scount[aggr[a]] = whi > wlo ? (int)bytes_in(segs, wlo, whi) : 0;
    }
    /* who sends what to whom (ROMIO exchanges offset/length lists; counts stand for them) */
    coll_mpi_alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, f->comm, fname);
    long stot = 0, rtot = 0;
    for (int r = 0; r < n; r++) {
      sdisp[r] = (int)stot;
      rdisp[r] = (int)rtot;
      stot += scount[r];
      rtot += rcount[r];
    }
    MPI_Offset wlen = 0; /* my window's length, if I aggregate */
    if (my_aggr >= 0) {
      MPI_Offset wlo = lo + my_aggr * dom + t * cb, whi = wlo + cb;
      if (whi > lo + (my_aggr + 1) * dom)
        whi = lo + (my_aggr + 1) * dom;
      if (whi > hi)
        whi = hi;
      wlen = whi > wlo ? whi - wlo : 0;
    }
    if (!write && rtot > 0) /* the aggregator reads its window first */
      io_cost_disk(f->host, f->disk, false, (double)wlen);
    /* the pieces: to the aggregators (write) or back from them (read); their content does not
     * matter, so folded scratch memory carries them when there is some */
    long out = write ? stot : rtot, in = write ? rtot : stot;
    void *sbuf = smpi_shared_scratch((size_t)out + 1);
    bool own = !sbuf;
    if (own)
      sbuf = xcalloc((size_t)out + 1, 1);
    void *rbuf = xmalloc((size_t)in + 1);
    if (write)
      coll_mpi_alltoallv(sbuf, scount, sdisp, MPI_BYTE, rbuf, rcount, rdisp, MPI_BYTE, f->comm,
                         fname);
    else
      coll_mpi_alltoallv(sbuf, rcount, rdisp, MPI_BYTE, rbuf, scount, sdisp, MPI_BYTE, f->comm,
                         fname);
    if (own)
      free(sbuf);
    free(rbuf);
    if (write && rtot > 0) { /* one contiguous write; holes are read first */
      if (rtot < wlen)
        io_cost_disk(f->host, f->disk, false, (double)wlen);
      io_cost_disk(f->host, f->disk, true, (double)(rtot < wlen ? wlen : rtot));
    }
  }
  free(scount);
  free(rcount);
  free(sdisp);
  free(rdisp);
  free(aggr);
}
