/* Parsing one line of a time-independent trace (format: smpi/replay/replay.h).
 *
 * Worked example, comm_size 4:
 *
 *   "2 gatherv 2 0 0 0 0 0 0 0"
 *    |  |      | '-----' | '-'-- sendtype, recvtype (ids, optional)
 *    |  |      |    |    '------ root
 *    |  |      |    '----------- recvcounts[4] (only meaningful at the root)
 *    |  |      '---------------- sendcount
 *    |  '----------------------- action name
 *    '-------------------------- rank
 *
 * The parser knows nothing of MPI: it checks the shape of the line and the range of each
 * number, so that the replay can trust every field. It is the fuzzed function
 * (tests/fuzz/fuzz_ti.c). */
#include "smpi/replay/replay.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/mem.h"

/* SimGrid 3.32's datatype ids (observed from its TI recorder, one send per predefined type)
 * with the sizes its MPI_Type_size gives them. */
static const struct {
  const char *name;
  int size;
} dt_table[] = {
    [0] = {"MPI_DOUBLE", 8},
    [1] = {"MPI_INT", 4},
    [2] = {"MPI_CHAR", 1},
    [3] = {"MPI_SHORT", 2},
    [4] = {"MPI_LONG", 8},
    [5] = {"MPI_FLOAT", 4},
    [6] = {"MPI_BYTE", 1},
    [7] = {"MPI_LONG_LONG", 8},
    [8] = {"MPI_SIGNED_CHAR", 1},
    [9] = {"MPI_UNSIGNED_CHAR", 1},
    [10] = {"MPI_UNSIGNED_SHORT", 2},
    [11] = {"MPI_UNSIGNED", 4},
    [12] = {"MPI_UNSIGNED_LONG", 8},
    [13] = {"MPI_UNSIGNED_LONG_LONG", 8},
    [14] = {"MPI_LONG_DOUBLE", 16},
    [15] = {"MPI_WCHAR", 4},
    [16] = {"MPI_C_BOOL", 1},
    [17] = {"MPI_INT8_T", 1},
    [18] = {"MPI_INT16_T", 2},
    [19] = {"MPI_INT32_T", 4},
    [20] = {"MPI_INT64_T", 8},
    [21] = {"MPI_UINT8_T", 1},
    [22] = {"MPI_UINT16_T", 2},
    [23] = {"MPI_UINT32_T", 4},
    [24] = {"MPI_UINT64_T", 8},
    [25] = {"MPI_C_FLOAT_COMPLEX", 8},
    [26] = {"MPI_C_DOUBLE_COMPLEX", 16},
    [27] = {"MPI_C_LONG_DOUBLE_COMPLEX", 32},
    [28] = {"MPI_AINT", 8},
    [29] = {"MPI_OFFSET", 8},
    [30] = {"MPI_FLOAT_INT", 8},
    [31] = {"MPI_LONG_INT", 16},
    [32] = {"MPI_DOUBLE_INT", 16},
    [33] = {"MPI_SHORT_INT", 8},
    [34] = {"MPI_2INT", 8},
    [35] = {"MPI_2FLOAT", 8},
    [36] = {"MPI_2DOUBLE", 16},
    [37] = {"MPI_2LONG", 16},
    [38] = {"MPI_REAL", 4},
    [39] = {"MPI_REAL4", 4},
    [40] = {"MPI_REAL8", 8},
    [41] = {"MPI_REAL16", 16},
    [42] = {"MPI_COMPLEX8", 8},
    [43] = {"MPI_COMPLEX16", 16},
    [44] = {"MPI_COMPLEX32", 16},
    [45] = {"MPI_INTEGER1", 4},
    [46] = {"MPI_INTEGER2", 2},
    [47] = {"MPI_INTEGER4", 4},
    [48] = {"MPI_INTEGER8", 8},
    [50] = {"MPI_LONG_DOUBLE_INT", 32},
    [57] = {"MPI_PACKED", 1},
    [59] = {"MPI_COUNT", 8},
};
#define DT_COUNT ((int)(sizeof dt_table / sizeof *dt_table))

const char *ti_dt_name(int id) { return id >= 0 && id < DT_COUNT ? dt_table[id].name : NULL; }
int ti_dt_size(int id) { return ti_dt_name(id) ? dt_table[id].size : 0; }
int ti_dt_id(const char *mpi_name)
{
  for (int i = 0; i < DT_COUNT; i++)
    if (dt_table[i].name && !strcmp(dt_table[i].name, mpi_name))
      return i;
  return -1;
}

/* Argument shapes: how the fields after the action name are laid out. */
typedef enum {
  SH_NONE,       /* nothing (extra fields are an error) */
  SH_INIT,       /* optional anything: its presence switches the default type */
  SH_ONE_INT,    /* n (waitall, comm_size) */
  SH_TWO_INT,    /* color key (comm_split) */
  SH_AMOUNT,     /* one non-negative number (compute, sleep) */
  SH_P2P,        /* peer tag count [dt] */
  SH_KEY,        /* src dst tag (wait, test) */
  SH_SENDRECV,   /* scount dst rcount src [dt dt] */
  SH_BCAST,      /* count root [dt] */
  SH_REDUCE,     /* count comp root [dt] */
  SH_ALLRED,     /* count comp [dt] */
  SH_ALLTOALL,   /* scount rcount [dt dt] */
  SH_GATHER,     /* scount rcount root [dt dt] */
  SH_ALLTOALLV,  /* ssum scounts[n] rsum rcounts[n] [dt dt] */
  SH_GATHERV,    /* scount rcounts[n] root [dt dt] */
  SH_ALLGATHERV, /* scount rcounts[n] [dt dt] */
  SH_SCATTERV,   /* scounts[n] rcount root [dt dt] */
  SH_REDSCAT,    /* rcounts[n] comp [dt] */
  SH_ANY,        /* location: fields ignored */
  SH_FILE,       /* name offset bytes span pieces comm_size (file_*) */
} shape;

static const struct {
  const char *name;
  ti_kind kind;
  shape sh;
} actions[] = {
    {"init", TI_INIT, SH_INIT},
    {"finalize", TI_FINALIZE, SH_NONE},
    {"comm_size", TI_COMM_SIZE, SH_ONE_INT},
    {"comm_split", TI_COMM_SPLIT, SH_TWO_INT},
    {"comm_dup", TI_COMM_DUP, SH_NONE},
    {"send", TI_SEND, SH_P2P},
    {"isend", TI_ISEND, SH_P2P},
    {"Isend", TI_ISEND, SH_P2P},
    {"Ssend", TI_SSEND, SH_P2P},
    {"ssend", TI_SSEND, SH_P2P},
    {"Issend", TI_ISSEND, SH_P2P},
    {"issend", TI_ISSEND, SH_P2P},
    {"recv", TI_RECV, SH_P2P},
    {"irecv", TI_IRECV, SH_P2P},
    {"Irecv", TI_IRECV, SH_P2P},
    {"sendRecv", TI_SENDRECV, SH_SENDRECV},
    {"sendrecv", TI_SENDRECV, SH_SENDRECV},
    {"test", TI_TEST, SH_KEY},
    {"wait", TI_WAIT, SH_KEY},
    {"waitall", TI_WAITALL, SH_ONE_INT},
    {"barrier", TI_BARRIER, SH_NONE},
    {"bcast", TI_BCAST, SH_BCAST},
    {"reduce", TI_REDUCE, SH_REDUCE},
    {"allreduce", TI_ALLREDUCE, SH_ALLRED},
    {"scan", TI_SCAN, SH_ALLRED},
    {"exscan", TI_EXSCAN, SH_ALLRED},
    {"alltoall", TI_ALLTOALL, SH_ALLTOALL},
    {"allgather", TI_ALLGATHER, SH_ALLTOALL},
    {"gather", TI_GATHER, SH_GATHER},
    {"scatter", TI_SCATTER, SH_GATHER},
    {"alltoallv", TI_ALLTOALLV, SH_ALLTOALLV},
    {"gatherv", TI_GATHERV, SH_GATHERV},
    {"allgatherv", TI_ALLGATHERV, SH_ALLGATHERV},
    {"scatterv", TI_SCATTERV, SH_SCATTERV},
    {"reducescatter", TI_REDUCESCATTER, SH_REDSCAT},
    {"ibarrier", TI_IBARRIER, SH_NONE},
    {"ibcast", TI_IBCAST, SH_BCAST},
    {"iallreduce", TI_IALLREDUCE, SH_ALLRED},
    {"compute", TI_COMPUTE, SH_AMOUNT},
    {"sleep", TI_SLEEP, SH_AMOUNT},
    {"location", TI_LOCATION, SH_ANY},
    {"file_read", TI_FILE_READ, SH_FILE},
    {"file_write", TI_FILE_WRITE, SH_FILE},
    {"file_read_all", TI_FILE_READ_ALL, SH_FILE},
    {"file_write_all", TI_FILE_WRITE_ALL, SH_FILE},
};
#define N_ACTIONS (sizeof actions / sizeof *actions)

const char *ti_kind_name(ti_kind k)
{
  for (size_t i = 0; i < N_ACTIONS; i++)
    if (actions[i].kind == k)
      return actions[i].name;
  return "?";
}

void ti_action_clear(ti_action *a)
{
  free(a->counts1);
  free(a->counts2);
  free(a->name);
  memset(a, 0, sizeof *a);
}

/* ---- fields ---- */

#define MAX_FIELDS_INLINE 64

typedef struct {
  const char *s; /* not NUL-terminated */
  size_t len;
} field;

typedef struct {
  field *f;
  size_t n, cap;
  field inline_f[MAX_FIELDS_INLINE];
  char *err;
  size_t errlen;
} line_ctx;

static int fail(line_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(line_ctx *c, const char *fmt, ...)
{
  if (c->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static void add_field(line_ctx *c, const char *s, size_t len)
{
  if (c->n == c->cap) {
    size_t cap = c->cap * 2;
    field *nf = xmalloc(cap * sizeof *nf);
    memcpy(nf, c->f, c->n * sizeof *nf);
    if (c->f != c->inline_f)
      free(c->f);
    c->f = nf;
    c->cap = cap;
  }
  c->f[c->n].s = s;
  c->f[c->n].len = len;
  c->n++;
}

/* Copies a field into buf for strtoX (fields are short; longer ones are not numbers). */
static bool field_str(const field *f, char *buf, size_t size)
{
  if (f->len == 0 || f->len >= size)
    return false;
  memcpy(buf, f->s, f->len);
  buf[f->len] = 0;
  return true;
}

static int get_ll(line_ctx *c, size_t i, const char *what, long long lo, long long hi,
                  long long *out)
{
  char buf[64];
  if (i >= c->n)
    return fail(c, "missing %s", what);
  const field *f = &c->f[i];
  char *end;
  errno = 0;
  long long v = 0;
  bool ok = field_str(f, buf, sizeof buf);
  if (ok) {
    v = strtoll(buf, &end, 10);
    ok = end != buf && *end == 0 && errno == 0;
  }
  if (!ok)
    return fail(c, "%s: expected an integer, got '%.*s'", what, (int)(f->len > 40 ? 40 : f->len),
                f->s);
  if (v < lo || v > hi)
    return fail(c, "%s: %lld is out of range [%lld, %lld]", what, v, lo, hi);
  *out = v;
  return 0;
}

static int get_int(line_ctx *c, size_t i, const char *what, long long lo, long long hi, int *out)
{
  long long v;
  if (get_ll(c, i, what, lo, hi, &v) != 0)
    return -1;
  *out = (int)v;
  return 0;
}

static int get_amount(line_ctx *c, size_t i, const char *what, double *out)
{
  char buf[64];
  if (i >= c->n)
    return fail(c, "missing %s", what);
  const field *f = &c->f[i];
  char *end;
  double v = 0;
  bool ok = field_str(f, buf, sizeof buf);
  if (ok) {
    errno = 0;
    v = strtod(buf, &end);
    ok = end != buf && *end == 0;
  }
  if (!ok)
    return fail(c, "%s: expected a number, got '%.*s'", what, (int)(f->len > 40 ? 40 : f->len),
                f->s);
  if (!isfinite(v) || v < 0)
    return fail(c, "%s: %s is not a finite non-negative number", what, buf);
  *out = v;
  return 0;
}

/* Ranks on a line are world ranks; SimGrid writes MPI_UNDEFINED (-333) for a wildcard
 * source, and its own MPI_ANY_SOURCE / MPI_PROC_NULL / MPI_ANY_TAG values may appear too. */
#define RANK_MAX 100000000LL
#define COUNT_MAX ((long long)INT_MAX)
#define TAG_LO (-1000000LL)

static int get_dt(line_ctx *c, size_t i, const char *what, int *out)
{
  if (i >= c->n) {
    *out = TI_DT_DEFAULT;
    return 0;
  }
  int id;
  if (get_int(c, i, what, -1, 1000, &id) != 0)
    return -1;
  if (id != TI_DT_DERIVED && !ti_dt_name(id))
    return fail(c, "%s: %d is not a SimGrid datatype id", what, id);
  *out = id;
  return 0;
}

/* Checks that the fields from `first` on are at most `max` optional datatypes. */
static int get_dts(line_ctx *c, size_t first, int ndt, ti_action *a)
{
  if (c->n > first + (size_t)ndt)
    return fail(c, "%zu field%s too many after the action (expected at most %zu)",
                c->n - first - (size_t)ndt, c->n - first - (size_t)ndt == 1 ? "" : "s",
                first + (size_t)ndt - 2);
  if (get_dt(c, first, "datatype", &a->dt1) != 0)
    return -1;
  if (ndt == 2)
    return get_dt(c, first + 1, "second datatype", &a->dt2);
  a->dt2 = a->dt1;
  return 0;
}

static int get_counts(line_ctx *c, size_t first, int n, const char *what, long long **out)
{
  if (first + (size_t)n > c->n)
    return fail(c,
                "%s: expected %d counts (the communicator size), the line has %zu field%s left",
                what, n, c->n > first ? c->n - first : 0, c->n - first == 1 ? "" : "s");
  *out = xmalloc((size_t)(n ? n : 1) * sizeof **out);
  for (int k = 0; k < n; k++)
    if (get_ll(c, first + (size_t)k, what, 0, COUNT_MAX, &(*out)[k]) != 0)
      return -1;
  return 0;
}

static int need_n(line_ctx *c, int comm_size, const char *name)
{
  if (comm_size <= 0)
    return fail(c, "'%s' needs the communicator size, which is not known here", name);
  return 0;
}

static int parse_fields(line_ctx *c, int comm_size, ti_action *a)
{
  const field *name = &c->f[1];
  size_t k;
  for (k = 0; k < N_ACTIONS; k++)
    if (strlen(actions[k].name) == name->len && !memcmp(actions[k].name, name->s, name->len))
      break;
  if (k == N_ACTIONS)
    return fail(c, "unknown action '%.*s'", (int)(name->len > 40 ? 40 : name->len), name->s);
  a->kind = actions[k].kind;
  const char *an = actions[k].name;
  int n = comm_size;
  switch (actions[k].sh) {
  case SH_NONE:
    if (c->n > 2)
      return fail(c, "'%s' takes no argument", an);
    return 0;
  case SH_INIT:
    a->count = (long long)(c->n - 2); /* >0: the default type becomes MPI_DOUBLE */
    return 0;
  case SH_ANY:
    return 0;
  case SH_ONE_INT:
    if (c->n > 3)
      return fail(c, "'%s' takes one argument", an);
    if (a->kind == TI_WAITALL && c->n == 2)
      return 0; /* "waitall" alone: every pending request */
    return get_ll(c, 2, a->kind == TI_COMM_SIZE ? "communicator size" : "request count", 0,
                  RANK_MAX, &a->count);
  case SH_TWO_INT:
    if (c->n != 4)
      return fail(c, "'%s' takes two arguments (color key)", an);
    if (get_int(c, 2, "color", -RANK_MAX, RANK_MAX, &a->peer) != 0)
      return -1;
    return get_int(c, 3, "key", -RANK_MAX, RANK_MAX, &a->peer2);
  case SH_FILE:
    if (c->n != 8)
      return fail(c, "'%s' takes 6 arguments: file offset bytes span pieces comm_size", an);
    if (get_ll(c, 3, "offset", 0, LLONG_MAX, &a->offset) != 0 ||
        get_ll(c, 4, "bytes", 0, COUNT_MAX, &a->count) != 0 ||
        get_ll(c, 5, "span", 0, LLONG_MAX, &a->span) != 0 ||
        get_ll(c, 6, "pieces", 0, COUNT_MAX, &a->pieces) != 0 ||
        get_int(c, 7, "communicator size", 1, RANK_MAX, &a->peer) != 0)
      return -1;
    a->name = xstrndup(c->f[2].s, c->f[2].len);
    return 0;
  case SH_AMOUNT:
    if (c->n != 3)
      return fail(c, "'%s' takes one argument", an);
    return get_amount(c, 2, a->kind == TI_SLEEP ? "duration" : "flops", &a->amount);
  case SH_P2P: {
    bool recv = a->kind == TI_RECV || a->kind == TI_IRECV;
    if (get_int(c, 2, recv ? "source" : "destination", -1000, RANK_MAX, &a->peer) != 0 ||
        get_int(c, 3, "tag", TAG_LO, INT_MAX, &a->tag) != 0 ||
        get_ll(c, 4, "count", recv ? -1 : 0, COUNT_MAX, &a->count) != 0)
      return -1;
    return get_dts(c, 5, 1, a);
  }
  case SH_KEY:
    if (c->n != 5)
      return fail(c, "'%s' takes three arguments (source destination tag)", an);
    if (get_int(c, 2, "source", -1000, RANK_MAX, &a->peer) != 0 ||
        get_int(c, 3, "destination", -1000, RANK_MAX, &a->peer2) != 0)
      return -1;
    return get_int(c, 4, "tag", TAG_LO, INT_MAX, &a->tag);
  case SH_SENDRECV:
    if (get_ll(c, 2, "send count", 0, COUNT_MAX, &a->count) != 0 ||
        get_int(c, 3, "destination", -1000, RANK_MAX, &a->peer) != 0 ||
        get_ll(c, 4, "receive count", 0, COUNT_MAX, &a->count2) != 0 ||
        get_int(c, 5, "source", -1000, RANK_MAX, &a->peer2) != 0)
      return -1;
    return get_dts(c, 6, 2, a);
  case SH_BCAST:
    if (get_ll(c, 2, "count", 0, COUNT_MAX, &a->count) != 0 ||
        get_int(c, 3, "root", 0, RANK_MAX, &a->peer) != 0)
      return -1;
    return get_dts(c, 4, 1, a);
  case SH_REDUCE:
    if (get_ll(c, 2, "count", 0, COUNT_MAX, &a->count) != 0 ||
        get_amount(c, 3, "computation flops", &a->amount) != 0 ||
        get_int(c, 4, "root", 0, RANK_MAX, &a->peer) != 0)
      return -1;
    return get_dts(c, 5, 1, a);
  case SH_ALLRED:
    if (get_ll(c, 2, "count", 0, COUNT_MAX, &a->count) != 0 ||
        get_amount(c, 3, "computation flops", &a->amount) != 0)
      return -1;
    return get_dts(c, 4, 1, a);
  case SH_ALLTOALL:
    if (get_ll(c, 2, "send count", 0, COUNT_MAX, &a->count) != 0 ||
        get_ll(c, 3, "receive count", 0, COUNT_MAX, &a->count2) != 0)
      return -1;
    return get_dts(c, 4, 2, a);
  case SH_GATHER:
    if (get_ll(c, 2, "send count", 0, COUNT_MAX, &a->count) != 0 ||
        get_ll(c, 3, "receive count", 0, COUNT_MAX, &a->count2) != 0 ||
        get_int(c, 4, "root", 0, RANK_MAX, &a->peer) != 0)
      return -1;
    return get_dts(c, 5, 2, a);
  case SH_ALLTOALLV: {
    if (need_n(c, n, an) != 0)
      return -1;
    long long ssum, rsum;
    a->ncounts = n;
    if (get_ll(c, 2, "send total", 0, LLONG_MAX / 2, &ssum) != 0 ||
        get_counts(c, 3, n, "send counts", &a->counts1) != 0 ||
        get_ll(c, 3 + (size_t)n, "receive total", 0, LLONG_MAX / 2, &rsum) != 0 ||
        get_counts(c, 4 + (size_t)n, n, "receive counts", &a->counts2) != 0)
      return -1;
    a->count = ssum;
    a->count2 = rsum;
    return get_dts(c, 4 + 2 * (size_t)n, 2, a);
  }
  case SH_GATHERV:
    if (need_n(c, n, an) != 0)
      return -1;
    a->ncounts = n;
    if (get_ll(c, 2, "send count", 0, COUNT_MAX, &a->count) != 0 ||
        get_counts(c, 3, n, "receive counts", &a->counts1) != 0 ||
        get_int(c, 3 + (size_t)n, "root", 0, RANK_MAX, &a->peer) != 0)
      return -1;
    return get_dts(c, 4 + (size_t)n, 2, a);
  case SH_ALLGATHERV:
    if (need_n(c, n, an) != 0)
      return -1;
    a->ncounts = n;
    if (get_ll(c, 2, "send count", 0, COUNT_MAX, &a->count) != 0 ||
        get_counts(c, 3, n, "receive counts", &a->counts1) != 0)
      return -1;
    return get_dts(c, 3 + (size_t)n, 2, a);
  case SH_SCATTERV:
    if (need_n(c, n, an) != 0)
      return -1;
    a->ncounts = n;
    if (get_counts(c, 2, n, "send counts", &a->counts1) != 0 ||
        get_ll(c, 2 + (size_t)n, "receive count", 0, COUNT_MAX, &a->count) != 0 ||
        get_int(c, 3 + (size_t)n, "root", 0, RANK_MAX, &a->peer) != 0)
      return -1;
    return get_dts(c, 4 + (size_t)n, 2, a);
  case SH_REDSCAT:
    if (need_n(c, n, an) != 0)
      return -1;
    a->ncounts = n;
    if (get_counts(c, 2, n, "receive counts", &a->counts1) != 0 ||
        get_amount(c, 2 + (size_t)n, "computation flops", &a->amount) != 0)
      return -1;
    return get_dts(c, 3 + (size_t)n, 1, a);
  }
  return fail(c, "unhandled argument shape");
}

int ti_parse_line(const char *line, int comm_size, ti_action *out, char *err, size_t errlen)
{
  ti_action_clear(out);
  if (errlen)
    err[0] = 0;
  line_ctx c = {.f = NULL, .n = 0, .cap = MAX_FIELDS_INLINE, .err = err, .errlen = errlen};
  c.f = c.inline_f;
  for (const char *p = line; *p && *p != '\n';) {
    if (*p == ' ' || *p == '\t' || *p == '\r') {
      p++;
      continue;
    }
    const char *s = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
      p++;
    add_field(&c, s, (size_t)(p - s));
  }
  int rc;
  if (c.n == 0 || c.f[0].s[0] == '#') {
    rc = 0;
  } else if (c.n == 1) {
    rc = fail(&c, "a line is '<rank> <action> [arguments]'; this one has no action");
  } else if (get_int(&c, 0, "rank", 0, RANK_MAX, &out->rank) != 0) {
    rc = -1;
  } else {
    out->dt1 = out->dt2 = TI_DT_DEFAULT;
    rc = parse_fields(&c, comm_size, out) == 0 ? 1 : -1;
  }
  if (c.f != c.inline_f)
    free(c.f);
  if (rc < 0) {
    ti_action_clear(out);
    if (errlen && !err[0])
      snprintf(err, errlen, "malformed line");
  }
  return rc;
}
