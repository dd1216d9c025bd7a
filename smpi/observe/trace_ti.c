/* Time-independent traces in SimGrid 3.32's format (tracing/smpi/format:TI, smpirun
 * -trace-ti), for smpirun -replay.
 *
 *   smpi_simgrid.txt                      the main file: one rank file per line
 *   smpi_simgrid.txt_files/<stamp>_rank-1.txt
 *       0 init
 *       0 compute 244.165                 flops (measured seconds x smpi/host-speed)
 *       0 send 1 7 100 0                  peer tag count datatype
 *       0 irecv -333 11 1 1               -333: any source, -444: any tag
 *       0 isend -666 12 1 1               -666: MPI_PROC_NULL
 *       0 wait -333 0 11                  src dst tag of the request waited for
 *       0 bcast 50 0 0                    collectives: SimGrid's field order (below)
 *       0 file_write out.dat 0 4096 4096 1 4
 *                                         MPI-IO (verbs of our own: SimGrid's TI has none):
 *                                         file offset bytes span pieces comm_size
 *       0 finalize
 *
 * Ranks are written as in MPI_COMM_WORLD, from 0 in the lines and from 1 in the file names
 * (SimGrid's actor ids). Datatypes are SimGrid's codes of the predefined types (MPI_DOUBLE
 * 0, MPI_INT 1, MPI_CHAR 2, ...); counts of other types are written in bytes with the code
 * of MPI_BYTE, so that a replay moves the same amount of data (SimGrid writes -1 there).
 * Roots are ranks of the collective's communicator, as SimGrid writes them.
 *
 * Each rank's lines are buffered and appended to its file in blocks (64 KiB, less beyond
 * 4096 ranks so that all buffers stay under 256 MiB), so a large job does not keep one
 * open file per rank. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "smpi/mpi/datatype.h"
#include "smpi/mpi/datatype_impl.h"
#include "smpi/observe/trace_private.h"
#include "src/invariant.h"
#include "src/mem.h"

/* SimGrid's values of the wildcards, as they appear in its traces. A peer MPI_PROC_NULL
 * (what a non-periodic MPI_Cart_shift gives beyond the edge) is written as SimGrid's
 * MPI_PROC_NULL, -666, which smpirun -replay performs as the program did: a send or receive
 * that does nothing and takes no time. (A blocking MPI_Send or MPI_Recv with it makes no
 * request, so it writes no line at all, as SimGrid writes none for such an MPI_Recv.) */
#define TI_ANY_SOURCE (-333)
#define TI_ANY_TAG (-444)
#define TI_PROC_NULL (-666)
/* all ranks' buffers together stay under this (64 KiB each up to 4096 ranks) */
#define TI_BUFFERED_MAX (256u << 20)

typedef struct ti_buf {
  char *path;
  char *data;
  size_t len, cap;
  bool created;
} ti_buf;

static struct ti_state {
  bool one_file;
  ti_buf *bufs; /* one per rank, or one */
  int nbufs;
  size_t flush_at; /* bytes a rank buffers before appending them to its file */
  bool failed;
} ti;

static void buf_flush(ti_buf *b)
{
  if (b->len == 0 && b->created)
    return;
  FILE *f = fopen(b->path, b->created ? "a" : "w");
  if (!f || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) != 0) {
    if (!ti.failed)
      fprintf(stderr, "smpi: cannot write the time-independent trace file '%s': %s\n", b->path,
              strerror(errno));
    ti.failed = true;
  }
  b->created = true;
  b->len = 0;
}

static void ti_printf(int rank, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ti_printf(int rank, const char *fmt, ...)
{
  ti_buf *b = &ti.bufs[ti.one_file ? 0 : rank];
  for (;;) {
    size_t room = b->cap - b->len;
    va_list ap;
    va_start(ap, fmt);
    int n = room ? vsnprintf(b->data + b->len, room, fmt, ap) : -1;
    va_end(ap);
    ASSERT(n != -1 || room == 0);
    if (n >= 0 && (size_t)n < room) {
      b->len += (size_t)n;
      break;
    }
    XGROW(b->data, b->cap, b->len + (n > 0 ? (size_t)n : 0) + 256);
  }
  if (b->len >= ti.flush_at)
    buf_flush(b);
}

int ti_open(const char *path, bool one_file, char *err, size_t errlen)
{
  ti.one_file = one_file;
  ti.nbufs = one_file ? 1 : tracer.np;
  ti.flush_at = TI_BUFFERED_MAX / (size_t)ti.nbufs;
  if (ti.flush_at > 65536)
    ti.flush_at = 65536;
  if (ti.flush_at < 4096)
    ti.flush_at = 4096;
  size_t dlen = strlen(path) + 16;
  char *dir = xmalloc(dlen);
  snprintf(dir, dlen, "%s_files", path);
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    snprintf(err, errlen, "cannot create the directory '%s' of the time-independent trace: %s",
             dir, strerror(errno));
    free(dir);
    return -1;
  }
  FILE *main = fopen(path, "w");
  if (!main) {
    snprintf(err, errlen, "cannot create the trace file '%s': %s (check tracing/filename)", path,
             strerror(errno));
    free(dir);
    return -1;
  }
  /* SimGrid names the files after the wall-clock time of the run */
  struct timeval tv;
  gettimeofday(&tv, NULL);
  ti.bufs = xcalloc((size_t)ti.nbufs, sizeof *ti.bufs);
  for (int r = 0; r < ti.nbufs; r++) {
    size_t n = dlen + 64;
    ti.bufs[r].path = xmalloc(n);
    snprintf(ti.bufs[r].path, n, "%s/%ld.%06ld_rank-%d.txt", dir, (long)tv.tv_sec,
             (long)tv.tv_usec, r + 1);
    fprintf(main, "%s\n", ti.bufs[r].path);
  }
  free(dir);
  if (fclose(main) != 0) {
    snprintf(err, errlen, "cannot write the trace file '%s': %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* One MPI-IO access. A name cannot hold a blank in a line: blanks and controls become '_'. */
void ti_io(int rank, const smpi_trace_io_args *a)
{
  char name[256];
  size_t n = 0;
  for (const char *p = a->file; *p && n + 1 < sizeof name; p++)
    name[n++] = (unsigned char)*p <= ' ' ? '_' : *p;
  name[n] = '\0';
  ti_printf(rank, "%d %s %s %lld %lld %lld %lld %d\n", rank, a->verb, name, a->offset, a->bytes,
            a->span, a->pieces, a->comm_size);
}

void ti_close(void)
{
  for (int r = 0; r < ti.nbufs; r++) {
    buf_flush(&ti.bufs[r]);
    free(ti.bufs[r].data);
    free(ti.bufs[r].path);
  }
  free(ti.bufs);
  ti.bufs = NULL;
}

/* SimGrid 3.32's codes of its predefined datatypes; -1: none (the count goes in bytes) */
static int sg_code(MPI_Datatype h)
{
  static const struct {
    MPI_Datatype h;
    int code;
  } table[] = {
      {MPI_DOUBLE, 0},
      {MPI_INT, 1},
      {MPI_CHAR, 2},
      {MPI_SHORT, 3},
      {MPI_LONG, 4},
      {MPI_FLOAT, 5},
      {MPI_BYTE, 6},
      {MPI_LONG_LONG_INT, 7},
      {MPI_SIGNED_CHAR, 8},
      {MPI_UNSIGNED_CHAR, 9},
      {MPI_UNSIGNED_SHORT, 10},
      {MPI_UNSIGNED, 11},
      {MPI_UNSIGNED_LONG, 12},
      {MPI_UNSIGNED_LONG_LONG, 13},
      {MPI_LONG_DOUBLE, 14},
      {MPI_WCHAR, 15},
      {MPI_C_BOOL, 16},
      {MPI_INT8_T, 17},
      {MPI_INT16_T, 18},
      {MPI_INT32_T, 19},
      {MPI_INT64_T, 20},
      {MPI_UINT8_T, 21},
      {MPI_UINT16_T, 22},
      {MPI_UINT32_T, 23},
      {MPI_UINT64_T, 24},
      {MPI_C_FLOAT_COMPLEX, 25},
      {MPI_C_DOUBLE_COMPLEX, 26},
      {MPI_C_LONG_DOUBLE_COMPLEX, 27},
      {MPI_AINT, 28},
      {MPI_OFFSET, 29},
      {MPI_FLOAT_INT, 30},
      {MPI_LONG_INT, 31},
      {MPI_DOUBLE_INT, 32},
      {MPI_SHORT_INT, 33},
      {MPI_2INT, 34},
      {MPI_2REAL, 35},
      {MPI_2DOUBLE_PRECISION, 36},
      {MPI_REAL, 38},
      {MPI_REAL4, 39},
      {MPI_REAL8, 40},
      {MPI_REAL16, 41},
      {MPI_COMPLEX8, 42},
      {MPI_COMPLEX16, 43},
      {MPI_COMPLEX32, 44},
      {MPI_INTEGER1, 45},
      {MPI_INTEGER2, 46},
      {MPI_INTEGER4, 47},
      {MPI_INTEGER8, 48},
      {MPI_INTEGER16, 49},
      {MPI_LONG_DOUBLE_INT, 50},
      {MPI_UB, 55},
      {MPI_LB, 56},
      {MPI_PACKED, 57},
      {MPI_COUNT, 59},
      {MPI_CHARACTER, 2},
      {MPI_LOGICAL, 1},
      {MPI_INTEGER, 1},
      {MPI_DOUBLE_PRECISION, 0},
      {MPI_COMPLEX, 25},
      {MPI_DOUBLE_COMPLEX, 26},
      {MPI_2INTEGER, 34},
  };
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (table[i].h == h)
      return table[i].code;
  return -1;
}

/* The code of dt, or MPI_BYTE's with *scale set to the bytes of one element. */
static int dt_code(const smpi_dt *dt, long *scale)
{
  *scale = 1;
  if (!dt)
    return 6;
  int code = dt->predefined && dt->info ? sg_code(dt->info->handle) : -1;
  if (code >= 0)
    return code;
  *scale = (long)smpi_dt_size(dt);
  return 6;
}

static int peer_code(int peer)
{
  return peer == MPI_ANY_SOURCE ? TI_ANY_SOURCE : peer < 0 ? TI_PROC_NULL : peer;
}

static int tag_code(int tag) { return tag == MPI_ANY_TAG ? TI_ANY_TAG : tag; }

void ti_init(int rank) { ti_printf(rank, "%d init\n", rank); }

void ti_compute(int rank, double flops) { ti_printf(rank, "%d compute %g\n", rank, flops); }

static const trace_req *find_req(const trace_rank *t, bool send)
{
  for (int i = 0; i < t->nreq; i++)
    if (t->req[i].send == send)
      return &t->req[i];
  return NULL;
}

static void p2p_line(int rank, const char *verb, const trace_req *q, bool bytes)
{
  long scale;
  int code = dt_code(q->dt, &scale);
  long count = bytes ? (long)q->bytes : q->count * scale;
  ti_printf(rank, "%d %s %d %d %ld %d\n", rank, verb, peer_code(q->peer), tag_code(q->tag), count,
            code);
}

void ti_call_end(int rank, trace_rank *t)
{
  static const struct {
    const char *call, *verb;
  } p2p[] = {{"MPI_Send", "send"},     {"MPI_Rsend", "send"},    {"MPI_Ssend", "Ssend"},
             {"MPI_Bsend", "bsend"},   {"MPI_Isend", "isend"},   {"MPI_Irsend", "isend"},
             {"MPI_Issend", "ISsend"}, {"MPI_Ibsend", "ibsend"}, {"MPI_Recv", "recv"},
             {"MPI_Irecv", "irecv"},   {"MPI_Start", "Start"}};
  const char *c = t->call;
  for (size_t i = 0; i < sizeof p2p / sizeof *p2p; i++)
    if (!strcmp(c, p2p[i].call)) {
      if (t->nreq > 0)
        p2p_line(rank, p2p[i].verb, &t->req[0], !strcmp(c, "MPI_Start"));
      return;
    }
  if (!strcmp(c, "MPI_Finalize")) {
    ti_printf(rank, "%d finalize\n", rank);
  } else if (!strcmp(c, "MPI_Sendrecv") || !strcmp(c, "MPI_Sendrecv_replace")) {
    const trace_req *s = find_req(t, true), *r = find_req(t, false);
    if (s && r) {
      long ss, rs;
      int sc = dt_code(s->dt, &ss), rc = dt_code(r->dt, &rs);
      ti_printf(rank, "%d sendRecv %ld %d %ld %d %d %d\n", rank, s->count * ss,
                peer_code(s->peer), r->count * rs, peer_code(r->peer), sc, rc);
    }
  } else if (!strcmp(c, "MPI_Wait") || !strcmp(c, "MPI_Test")) {
    if (t->have_seen)
      ti_printf(rank, "%d %s %d %d %d\n", rank, c[4] == 'W' ? "wait" : "test",
                peer_code(t->seen_src), peer_code(t->seen_dst), tag_code(t->seen_tag));
  } else if (!strcmp(c, "MPI_Waitall")) {
    ti_printf(rank, "%d waitall %ld\n", rank, t->wait_n > 0 ? t->wait_n : 0);
  } else if (!strcmp(c, "MPI_Waitany")) {
    ti_printf(rank, "%d waitAny %ld\n", rank, t->wait_n > 0 ? t->wait_n : 0);
  } else if (!strcmp(c, "MPI_Testall")) {
    ti_printf(rank, "%d testall\n", rank);
  } else if (!strcmp(c, "MPI_Testany")) {
    ti_printf(rank, "%d testany\n", rank);
  } else if (!strcmp(c, "MPI_Startall")) {
    ti_printf(rank, "%d Startall\n", rank);
  }
}

/* SimGrid's collective lines: the verb, then each field it has followed by a space (sizes,
 * count arrays, computation amount, root), then "<send type> <receive type>"; a collective
 * with one type ends with a space. */
void ti_coll(int rank, const smpi_trace_coll_args *a)
{
  long ss = 1, rs = 1;
  const smpi_dt *sdt = a->sdt != MPI_DATATYPE_NULL ? smpi_dt_get(a->sdt) : NULL;
  const smpi_dt *rdt = a->rdt != MPI_DATATYPE_NULL ? smpi_dt_get(a->rdt) : NULL;
  int sc = sdt ? dt_code(sdt, &ss) : -1, rc = rdt ? dt_code(rdt, &rs) : -1;
  if (!a->verb[0] || !strcmp(a->verb, "barrier") || !strcmp(a->verb, "ibarrier")) {
    ti_printf(rank, "%d %s\n", rank, a->verb);
    return;
  }
  char line[256];
  size_t n = 0;
  char *big = NULL; /* count arrays of large communicators */
  /* 22 characters hold any long and its space */
  size_t need = 128 + (size_t)(a->scounts ? a->nranks + 1 : 0) * 22 +
                (size_t)(a->rcounts ? a->nranks + 1 : 0) * 22;
  char *out = line;
  size_t cap = sizeof line;
  if (need > cap) {
    big = xmalloc(need);
    out = big;
    cap = need;
  }
#define PUT(...) n += (size_t)snprintf(out + n, cap - n, __VA_ARGS__)
  PUT("%d %s ", rank, a->verb);
  if (a->send >= 0)
    PUT("%ld ", a->send * ss);
  if (a->scounts) {
    long sum = 0;
    for (int i = 0; i < a->nranks; i++)
      sum += a->scounts[i];
    /* alltoallv: the total before the counts */
    if (a->rcounts)
      PUT("%ld ", sum * ss);
    for (int i = 0; i < a->nranks; i++)
      PUT("%ld ", a->scounts[i] * ss);
  }
  if (a->recv >= 0)
    PUT("%ld ", a->recv * rs);
  if (a->rcounts) {
    if (a->scounts) {
      long sum = 0;
      for (int i = 0; i < a->nranks; i++)
        sum += a->rcounts[i];
      PUT("%ld ", sum * rs);
    }
    for (int i = 0; i < a->nranks; i++)
      PUT("%ld ", a->rcounts[i] * rs);
  }
  /* reducescatter puts its computation amount where the send type goes */
  bool rs_line = !strcmp(a->verb, "reducescatter");
  if (rs_line) {
    PUT("%d %d", a->comp >= 0 ? a->comp : 0, rc);
    ti_printf(rank, "%s\n", out);
    free(big);
    return;
  }
  if (a->comp >= 0)
    PUT("%d ", a->comp);
  if (a->root >= 0)
    PUT("%d ", a->root);
  if (sc >= 0)
    PUT("%d", sc);
  PUT(" ");
  if (rc >= 0)
    PUT("%d", rc);
#undef PUT
  ti_printf(rank, "%s\n", out);
  free(big);
}
