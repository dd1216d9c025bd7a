/* Replaying a time-independent trace through the MPI layer (format: smpi/replay/replay.h).
 *
 *   smpirun -replay t.txt -np 4 -platform p.xml
 *     = smpirun ... smpi-replay t.txt      (tools/smpi-replay.c: main -> smpi_replay_main)
 *
 *   each rank r:  MPI_Init -> open its action list -> for each line:
 *                   parse (replay_parse.c) -> perform with PMPI_* on MPI_COMM_WORLD,
 *                   "compute" as simulated flops on its host
 *                 -> wait for what is still pending -> MPI_Finalize
 *
 * What follows SimGrid 3.32's replay, so that a trace replays to the same date in both:
 * - the application's own CPU time is not measured (smpi/simulate-computation off): only
 *   "compute" lines (and reductions' comp_flops) take CPU time;
 * - every collective runs on MPI_COMM_WORLD (the trace does not say which communicator),
 *   with the default selector's algorithm, and reductions apply no operation (here: a
 *   commutative user operation that does nothing);
 * - isend/irecv requests are found again by (source, destination, tag) as written on the
 *   line; a wait or test whose request is not pending does nothing (a test may have
 *   completed it already); waitall waits for every pending request.
 * Where SimGrid's replay stops (wildcard sources, Ssend, nonblocking collectives), this one
 * goes on: docs/replay.md lists the differences.
 *
 * Buffers: payloads do not matter, so every rank sends from and receives into two scratch
 * buffers shared by the whole job, allocated with smpi_shared_malloc (folded: large
 * messages cost no copy) and grown, never moved while a request may still point at them
 * (an outgrown buffer is kept until the end).
 *
 * Reading: rank r keeps an offset into its file and refills a 64 KiB window by reopening
 * the file, so 100 000 ranks never hold 100 000 open files. A single-file trace (every
 * rank's lines in one file) is read once into memory and indexed by rank. */
#include "smpi/replay/replay.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi.h"
#include "smpi/smpi.h"
#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_SUBCATEGORY(smpi_replay, smpi, "replay of time-independent traces");
LOG_DEFAULT_CATEGORY(smpi_replay);

#define WINDOW (64 * 1024)

/* ---- reading a rank's lines ---- */

typedef struct reader {
  char *path;     /* the file read (per-rank mode) */
  long long base; /* file offset of buf[0] */
  char *buf;
  size_t len, pos, cap;
  bool eof;
  long lineno;
  /* single-file mode: indexes into the shared text */
  const size_t *lines; /* start offsets of this rank's lines */
  const long *linenos;
  size_t nlines, next;
} reader;

/* Job-wide state (libsmpi is not privatized: every rank sees the same). */
static struct replay_state {
  bool ready;
  int np;
  char *main_path;
  /* per-rank files */
  char **files;
  size_t nfiles;
  /* single file */
  bool single;
  char *text;
  size_t text_len;
  size_t **rank_lines;
  long **rank_linenos;
  size_t *rank_nlines;
  /* scratch buffers */
  char *sbuf, *rbuf;
  size_t scap, rcap;
  void **retired;
  size_t nretired, retired_cap;
  /* datatypes by SimGrid id, made lazily */
  MPI_Datatype types[64];
  bool have_type[64];
  MPI_Op noop;
  bool warned_derived;
} replay;

/* Per rank, in an array indexed by rank. */
typedef struct pending {
  int src, dst, tag; /* as written on the line */
  bool nbc;          /* a nonblocking collective (found by order, not by key) */
  MPI_Request req;
} pending;

/* A file of the trace's MPI-IO lines, opened at its first line: on MPI_COMM_WORLD for
 * collective lines whose communicator was the world, else on MPI_COMM_SELF. */
typedef struct replay_file {
  char *name;
  bool world;
  bool viewed; /* a view other than bytes is set */
  MPI_File fh;
} replay_file;

typedef struct rank_state {
  reader rd;
  replay_file *files;
  size_t nfiles, files_cap;
  pending *pend;
  size_t npend, pend_cap;
  int default_dt;   /* SimGrid id */
  const char *file; /* for messages */
} rank_state;

static rank_state *ranks;

static void job_fail(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), __noreturn__));
static void job_fail(const char *file, long line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (line > 0)
    fprintf(stderr, "smpi-replay: %s:%ld: ", file, line);
  else
    fprintf(stderr, "smpi-replay: %s: ", file);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  PMPI_Abort(MPI_COMM_WORLD, 1);
  abort(); /* not reached: PMPI_Abort ends the job */
}

static char *read_whole(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *s = xmalloc(cap + 1);
  size_t got;
  while ((got = fread(s + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      cap *= 2;
      s = xrealloc(s, cap + 1);
    }
  }
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    free(s);
    return NULL;
  }
  s[n] = 0;
  *len = n;
  return s;
}

/* Does this line look like an action ("<int> <word> ...") rather than a file name? */
static bool looks_like_action(const char *line)
{
  const char *p = line;
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '-')
    p++;
  if (*p < '0' || *p > '9')
    return false;
  while (*p >= '0' && *p <= '9')
    p++;
  return *p == ' ' || *p == '\t';
}

static char *resolve(const char *main_path, const char *name)
{
  if (name[0] == '/')
    return xstrdup(name);
  /* relative to the main file's directory first (SimGrid writes "<main>_files/..."
   * relative to where it ran, which is usually where the main file is), then to the
   * current directory */
  const char *slash = strrchr(main_path, '/');
  if (slash) {
    size_t d = (size_t)(slash - main_path) + 1;
    char *p = xmalloc(d + strlen(name) + 1);
    memcpy(p, main_path, d);
    strcpy(p + d, name);
    FILE *f = fopen(p, "r");
    if (f) {
      fclose(f);
      return p;
    }
    free(p);
  }
  return xstrdup(name);
}

/* One file holding every rank's lines: kept in memory, each rank gets the offsets of its
 * lines (so np ranks do not each scan the whole file). */
static void index_single(const char *path, char *text, size_t len, int np)
{
  replay.single = true;
  free(replay.main_path);
  replay.main_path = xstrdup(path);
  replay.text = text;
  replay.text_len = len;
  replay.rank_lines = xcalloc((size_t)np, sizeof *replay.rank_lines);
  replay.rank_linenos = xcalloc((size_t)np, sizeof *replay.rank_linenos);
  replay.rank_nlines = xcalloc((size_t)np, sizeof *replay.rank_nlines);
  size_t *caps = xcalloc((size_t)np, sizeof *caps);
  size_t *caps2 = xcalloc((size_t)np, sizeof *caps2);
  long lineno = 0;
  for (size_t off = 0; off < len;) {
    char *nl = memchr(text + off, '\n', len - off);
    size_t end = nl ? (size_t)(nl - text) : len;
    lineno++;
    text[end] = 0; /* lines become strings */
    const char *s = text + off;
    while (*s == ' ' || *s == '\t')
      s++;
    if (*s && *s != '#' && *s != '\r') {
      char *e;
      errno = 0;
      long r = strtol(s, &e, 10);
      if (e == s || errno || r < 0)
        job_fail(path, lineno, "a line starts with the rank that performs it, not '%.40s'", s);
      if (r < np) {
        size_t k = (size_t)r;
        XGROW(replay.rank_lines[k], caps[k], replay.rank_nlines[k] + 1);
        XGROW(replay.rank_linenos[k], caps2[k], replay.rank_nlines[k] + 1);
        replay.rank_lines[k][replay.rank_nlines[k]] = off;
        replay.rank_linenos[k][replay.rank_nlines[k]++] = lineno;
      }
    }
    off = end + 1;
  }
  free(caps);
  free(caps2);
  for (int r = 0; r < np; r++)
    if (replay.rank_nlines[r] == 0)
      job_fail(path, 0, "no line for rank %d (the trace has fewer ranks than -np %d?)", r, np);
}

/* First rank in: reads the main file and decides between the layouts. */
static void job_setup(const char *path, int np)
{
  replay.np = np;
  replay.main_path = xstrdup(path);
  size_t len;
  char *text = read_whole(path, &len);
  if (!text)
    job_fail(path, 0, "cannot read the trace: %s", strerror(errno));
  if (memchr(text, 0, len))
    job_fail(path, 0, "this is not a text file (it contains NUL bytes)");
  /* the first line with something on it decides */
  char *p = text;
  while (*p == '\n' || *p == ' ' || *p == '\t' || *p == '\r' || *p == '#') {
    if (*p == '#')
      while (*p && *p != '\n')
        p++;
    else
      p++;
  }
  replay.single = looks_like_action(p);
  ranks = xcalloc((size_t)np, sizeof *ranks);
  if (replay.single) {
    index_single(path, text, len, np);
  } else {
    size_t cap = 0;
    long lineno = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
      lineno++;
      char *e = line + strlen(line);
      while (e > line && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
        *--e = 0;
      while (*line == ' ' || *line == '\t')
        line++;
      if (!*line || *line == '#')
        continue;
      XGROW(replay.files, cap, replay.nfiles + 1);
      replay.files[replay.nfiles++] = resolve(path, line);
    }
    free(text);
    if (replay.nfiles == 1 && np > 1) {
      /* SimGrid's ti-one-file: a list naming the one file that holds every rank's lines */
      char *one = read_whole(replay.files[0], &len);
      if (!one)
        job_fail(replay.files[0], 0, "cannot read the trace: %s", strerror(errno));
      if (memchr(one, 0, len))
        job_fail(replay.files[0], 0, "this is not a text file (it contains NUL bytes)");
      index_single(replay.files[0], one, len, np);
      replay.ready = true;
      return;
    }
    if (replay.nfiles < (size_t)np)
      job_fail(path, 0, "lists %zu per-rank file%s, fewer than the %d ranks of -np",
               replay.nfiles, replay.nfiles == 1 ? "" : "s", np);
    if (replay.nfiles > (size_t)np)
      LOG_WARN("%s lists %zu per-rank files; only the first %d are replayed (-np %d)", path,
               replay.nfiles, np, np);
  }
  replay.ready = true;
}

/* The next line of rank r (NUL-terminated, without '\n'), or NULL at the end. */
static char *next_line(rank_state *st, long *lineno)
{
  reader *rd = &st->rd;
  if (replay.single) {
    if (rd->next >= rd->nlines)
      return NULL;
    *lineno = rd->linenos[rd->next];
    return replay.text + rd->lines[rd->next++];
  }
  for (;;) {
    char *start = rd->buf ? rd->buf + rd->pos : NULL; /* NULL + 0 is undefined: first call */
    char *nl = rd->len > rd->pos ? memchr(start, '\n', rd->len - rd->pos) : NULL;
    if (nl || (rd->eof && rd->pos < rd->len)) {
      size_t end = nl ? (size_t)(nl - rd->buf) : rd->len;
      rd->buf[end] = 0;
      rd->pos = end + 1;
      if (rd->pos > rd->len)
        rd->pos = rd->len;
      *lineno = ++rd->lineno;
      return start;
    }
    if (rd->eof)
      return NULL;
    /* refill from the first unread byte; a line longer than the window grows it */
    rd->base += (long long)rd->pos;
    size_t keep = rd->len - rd->pos;
    if (keep + WINDOW / 2 > rd->cap) {
      rd->cap = (keep + WINDOW) * 2;
      char *nb = xmalloc(rd->cap + 1);
      if (keep) /* rd->buf is still NULL before the first read */
        memcpy(nb, rd->buf + rd->pos, keep);
      free(rd->buf);
      rd->buf = nb;
    } else {
      if (keep)
        memmove(rd->buf, rd->buf + rd->pos, keep);
    }
    rd->pos = 0;
    rd->len = keep;
    FILE *f = fopen(rd->path, "rb");
    if (!f)
      job_fail(rd->path, 0, "cannot open this rank's trace: %s", strerror(errno));
    if (fseeko(f, (off_t)(rd->base + (long long)keep), SEEK_SET) != 0)
      job_fail(rd->path, 0, "cannot seek in this rank's trace: %s", strerror(errno));
    size_t got = fread(rd->buf + keep, 1, rd->cap - keep, f);
    if (ferror(f))
      job_fail(rd->path, 0, "cannot read this rank's trace: %s", strerror(errno));
    if (got < rd->cap - keep)
      rd->eof = true;
    fclose(f);
    if (memchr(rd->buf + keep, 0, got))
      job_fail(rd->path, rd->lineno + 1, "this is not a text file (it contains NUL bytes)");
    rd->len = keep + got;
  }
}

/* ---- buffers, datatypes ---- */

static void *scratch(char **buf, size_t *cap, size_t need)
{
  if (need <= *cap && *buf)
    return *buf;
  size_t ncap = *cap ? *cap : 4096;
  while (ncap < need)
    ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
  if (*buf) {
    XGROW(replay.retired, replay.retired_cap, replay.nretired + 1);
    replay.retired[replay.nretired++] = *buf;
  }
  *buf = smpi_shared_malloc(ncap, __FILE__, __LINE__);
  if (!*buf)
    job_fail(replay.main_path, 0,
             "cannot allocate a %zu-byte message buffer (see smpi/shared-malloc "
             "in docs/emulation.md to fold large buffers)",
             ncap);
  *cap = ncap;
  return *buf;
}

static const struct {
  const char *name;
  MPI_Datatype dt;
} our_types[] = {
#define T(x) \
  {          \
#x, x    \
  }
    T(MPI_DOUBLE),
    T(MPI_INT),
    T(MPI_CHAR),
    T(MPI_SHORT),
    T(MPI_LONG),
    T(MPI_FLOAT),
    T(MPI_BYTE),
    T(MPI_LONG_LONG),
    T(MPI_SIGNED_CHAR),
    T(MPI_UNSIGNED_CHAR),
    T(MPI_UNSIGNED_SHORT),
    T(MPI_UNSIGNED),
    T(MPI_UNSIGNED_LONG),
    T(MPI_UNSIGNED_LONG_LONG),
    T(MPI_LONG_DOUBLE),
    T(MPI_WCHAR),
    T(MPI_C_BOOL),
    T(MPI_INT8_T),
    T(MPI_INT16_T),
    T(MPI_INT32_T),
    T(MPI_INT64_T),
    T(MPI_UINT8_T),
    T(MPI_UINT16_T),
    T(MPI_UINT32_T),
    T(MPI_UINT64_T),
    T(MPI_C_FLOAT_COMPLEX),
    T(MPI_C_DOUBLE_COMPLEX),
    T(MPI_C_LONG_DOUBLE_COMPLEX),
    T(MPI_AINT),
    T(MPI_OFFSET),
    T(MPI_FLOAT_INT),
    T(MPI_LONG_INT),
    T(MPI_DOUBLE_INT),
    T(MPI_SHORT_INT),
    T(MPI_2INT),
    T(MPI_REAL),
    T(MPI_REAL4),
    T(MPI_REAL8),
    T(MPI_REAL16),
    T(MPI_COMPLEX8),
    T(MPI_COMPLEX16),
    T(MPI_COMPLEX32),
    T(MPI_INTEGER1),
    T(MPI_INTEGER2),
    T(MPI_INTEGER4),
    T(MPI_INTEGER8),
    T(MPI_LONG_DOUBLE_INT),
    T(MPI_PACKED),
    T(MPI_COUNT),
#undef T
};

/* Our datatype for a SimGrid id, with SimGrid's size: the time of a transfer follows from
 * its bytes, and the collectives split counts in elements, so both must agree. A type whose
 * size differs here (MPI_LONG_DOUBLE_INT is 32 bytes in SimGrid) or that we lack becomes
 * a contiguous run of that many bytes. */
static MPI_Datatype replay_type(rank_state *st, int id, long lineno)
{
  if (id == TI_DT_DERIVED) {
    if (!replay.warned_derived) {
      replay.warned_derived = true;
      LOG_WARN("%s:%ld: datatype -1 (a derived type: its layout is not in the trace) is "
               "replayed as the default type %s",
               st->file, lineno, ti_dt_name(st->default_dt));
    }
    id = st->default_dt;
  }
  if (id == TI_DT_DEFAULT)
    id = st->default_dt;
  if (id < 0 || id >= 64 || !ti_dt_name(id))
    job_fail(st->file, lineno, "datatype id %d is not one of SimGrid's", id);
  if (replay.have_type[id])
    return replay.types[id];
  int want = ti_dt_size(id);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  for (size_t k = 0; k < sizeof our_types / sizeof *our_types; k++) {
    if (!strcmp(our_types[k].name, ti_dt_name(id))) {
      int sz = 0;
      if (PMPI_Type_size(our_types[k].dt, &sz) == MPI_SUCCESS && sz == want)
        t = our_types[k].dt;
      break;
    }
  }
  if (t == MPI_DATATYPE_NULL) {
    if (PMPI_Type_contiguous(want, MPI_BYTE, &t) != MPI_SUCCESS ||
        PMPI_Type_commit(&t) != MPI_SUCCESS)
      job_fail(st->file, lineno, "cannot make a %d-byte datatype for %s", want, ti_dt_name(id));
  }
  replay.types[id] = t;
  replay.have_type[id] = true;
  return t;
}

static size_t dt_bytes(rank_state *st, int id)
{
  if (id == TI_DT_DERIVED || id == TI_DT_DEFAULT)
    id = st->default_dt;
  return (size_t)ti_dt_size(id);
}

/* ---- pending requests ---- */

static void pend_add(rank_state *st, int src, int dst, int tag, bool nbc, MPI_Request req)
{
  XGROW(st->pend, st->pend_cap, st->npend + 1);
  st->pend[st->npend++] = (pending){src, dst, tag, nbc, req};
}

/* Removes and returns the oldest pending request with this key (MPI_REQUEST_NULL if none);
 * failing that, the oldest nonblocking collective: SimGrid writes their waits with keys
 * that no isend/irecv has. */
static MPI_Request pend_take(rank_state *st, int src, int dst, int tag)
{
  size_t k, found = st->npend;
  for (k = 0; k < st->npend; k++)
    if (!st->pend[k].nbc && st->pend[k].src == src && st->pend[k].dst == dst &&
        st->pend[k].tag == tag) {
      found = k;
      break;
    }
  if (found == st->npend)
    for (k = 0; k < st->npend; k++)
      if (st->pend[k].nbc) {
        found = k;
        break;
      }
  if (found == st->npend)
    return MPI_REQUEST_NULL;
  MPI_Request r = st->pend[found].req;
  memmove(st->pend + found, st->pend + found + 1, (st->npend - found - 1) * sizeof *st->pend);
  st->npend--;
  return r;
}

/* ---- the actions ---- */

static int peer_rank(int v)
{
  /* SimGrid writes a wildcard source as MPI_UNDEFINED (-333); its MPI_ANY_SOURCE (-555)
   * and MPI_PROC_NULL (-666) mean what they say. A peer MPI_PROC_NULL (a non-periodic
   * MPI_Cart_shift's beyond the edge) is replayed as the program made it: a send or receive
   * that does nothing and takes no time. -100 is how our -trace-ti wrote MPI_PROC_NULL
   * before it wrote SimGrid's value: such traces replay too. */
  if (v == -333 || v == -555)
    return MPI_ANY_SOURCE;
  if (v == -666 || v == -100)
    return MPI_PROC_NULL;
  return v;
}

static int tag_value(int v) { return v == -444 ? MPI_ANY_TAG : v; }

static void check_peer(rank_state *st, long lineno, int v, const char *what, bool wildcard_ok)
{
  int p = peer_rank(v);
  if (p == MPI_PROC_NULL || (wildcard_ok && p == MPI_ANY_SOURCE))
    return;
  if (v < 0 || v >= replay.np)
    job_fail(st->file, lineno, "%s %d is not a rank of this job (-np %d)", what, v, replay.np);
}

static int *int_counts(rank_state *st, long lineno, const ti_action *a, const long long *c,
                       int **displs, size_t *sum)
{
  int *out = xmalloc((size_t)a->ncounts * sizeof *out);
  *displs = xmalloc((size_t)a->ncounts * sizeof **displs);
  long long s = 0;
  for (int k = 0; k < a->ncounts; k++) {
    out[k] = (int)c[k];
    if (s > INT_MAX)
      job_fail(st->file, lineno, "the counts add up to more than an int can hold");
    (*displs)[k] = (int)s;
    s += c[k];
  }
  *sum = (size_t)s;
  return out;
}

static void check_rc(rank_state *st, long lineno, const ti_action *a, int rc)
{
  if (rc == MPI_SUCCESS)
    return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (PMPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
    snprintf(msg, sizeof msg, "error %d", rc);
  job_fail(st->file, lineno, "'%s' failed: %s", ti_kind_name(a->kind), msg);
}

static MPI_File replay_file_of(rank_state *st, const char *name, bool world, long lineno)
{
  for (size_t i = 0; i < st->nfiles; i++)
    if (st->files[i].world == world && !strcmp(st->files[i].name, name))
      return st->files[i].fh;
  MPI_File fh;
  int rc = PMPI_File_open(world ? MPI_COMM_WORLD : MPI_COMM_SELF, name,
                          MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS)
    job_fail(st->file, lineno, "cannot open the file '%s' of an MPI-IO line", name);
  XGROW(st->files, st->files_cap, st->nfiles + 1);
  st->files[st->nfiles++] = (replay_file){.name = xstrdup(name), .world = world, .fh = fh};
  return fh;
}

/* An MPI-IO line: the same bytes, in `pieces` evenly spread pieces over the span (a strided
 * view when there are several), with the call of the line. A collective line of a file
 * opened on a smaller communicator than the world is replayed as an independent access (the
 * trace does not say which communicator), and a world file sets its view at each line (a
 * collective call, so that every rank does it: one barrier more than the program made). */
static int replay_io(rank_state *st, long lineno, const ti_action *a)
{
  bool coll = a->kind == TI_FILE_READ_ALL || a->kind == TI_FILE_WRITE_ALL;
  bool write = a->kind == TI_FILE_WRITE || a->kind == TI_FILE_WRITE_ALL;
  bool world = coll && a->peer == replay.np;
  MPI_File fh = replay_file_of(st, a->name, world, lineno);
  replay_file *rf = NULL;
  for (size_t i = 0; i < st->nfiles; i++)
    if (st->files[i].fh == fh)
      rf = &st->files[i];
  long long pieces = a->pieces > 1 ? a->pieces : 1;
  MPI_Datatype ft = MPI_BYTE;
  int rc = MPI_SUCCESS;
  if (pieces > 1) {
    long long blk = (a->count + pieces - 1) / pieces;
    long long stride = (a->span - blk) / (pieces - 1);
    if (stride < blk)
      stride = blk;
    if (blk > INT_MAX || pieces > INT_MAX)
      job_fail(st->file, lineno, "MPI-IO line with pieces too large to replay");
    PMPI_Type_create_hvector((int)pieces, (int)blk, (MPI_Aint)stride, MPI_BYTE, &ft);
    PMPI_Type_commit(&ft);
  }
  if (world || pieces > 1 || rf->viewed) {
    rc = PMPI_File_set_view(fh, pieces > 1 ? a->offset : 0, MPI_BYTE, ft, "native",
                            MPI_INFO_NULL);
    rf->viewed = pieces > 1;
  }
  MPI_Offset off = pieces > 1 ? 0 : a->offset;
  void *buf = write ? scratch(&replay.sbuf, &replay.scap, (size_t)a->count + 1)
                    : scratch(&replay.rbuf, &replay.rcap, (size_t)a->count + 1);
  int n = (int)a->count;
  if (rc == MPI_SUCCESS) {
    if (write)
      rc = coll && world ? PMPI_File_write_at_all(fh, off, buf, n, MPI_BYTE, MPI_STATUS_IGNORE)
                         : PMPI_File_write_at(fh, off, buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
    else
      rc = coll && world ? PMPI_File_read_at_all(fh, off, buf, n, MPI_BYTE, MPI_STATUS_IGNORE)
                         : PMPI_File_read_at(fh, off, buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
  }
  if (ft != MPI_BYTE)
    PMPI_Type_free(&ft);
  return rc;
}

static void perform(rank_state *st, long lineno, const ti_action *a, int me)
{
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Datatype t1 = MPI_DATATYPE_NULL, t2 = MPI_DATATYPE_NULL;
  size_t b1 = 0, b2 = 0;
  if (a->kind >= TI_SEND && a->kind <= TI_IALLREDUCE && a->kind != TI_TEST &&
      a->kind != TI_WAIT && a->kind != TI_WAITALL && a->kind != TI_BARRIER &&
      a->kind != TI_IBARRIER) {
    t1 = replay_type(st, a->dt1, lineno);
    t2 = replay_type(st, a->dt2, lineno);
    b1 = dt_bytes(st, a->dt1);
    b2 = dt_bytes(st, a->dt2);
  }
  int n = replay.np, rc = MPI_SUCCESS;
  size_t c1 = (size_t)(a->count > 0 ? a->count : 0), c2 = (size_t)(a->count2 > 0 ? a->count2 : 0);
  MPI_Request req;
  switch (a->kind) {
  case TI_INIT:
    st->default_dt = a->count > 0 ? 0 /* MPI_DOUBLE */ : 6 /* MPI_BYTE */;
    break;
  case TI_FINALIZE:
  case TI_LOCATION:
  case TI_COMM_SIZE:
    break;
  case TI_COMM_SPLIT: {
    MPI_Comm c;
    rc = PMPI_Comm_split(w, a->peer, a->peer2, &c);
    if (rc == MPI_SUCCESS && c != MPI_COMM_NULL)
      rc = PMPI_Comm_free(&c);
    break;
  }
  case TI_COMM_DUP: {
    MPI_Comm c;
    rc = PMPI_Comm_dup(w, &c);
    if (rc == MPI_SUCCESS)
      rc = PMPI_Comm_free(&c);
    break;
  }
  case TI_SEND:
  case TI_SSEND:
  case TI_ISEND:
  case TI_ISSEND: {
    check_peer(st, lineno, a->peer, "destination", false);
    void *b = scratch(&replay.sbuf, &replay.scap, c1 * b1);
    int dst = peer_rank(a->peer), tag = tag_value(a->tag);
    if (a->kind == TI_SEND)
      rc = PMPI_Send(b, (int)c1, t1, dst, tag, w);
    else if (a->kind == TI_SSEND)
      rc = PMPI_Ssend(b, (int)c1, t1, dst, tag, w);
    else {
      rc = a->kind == TI_ISEND ? PMPI_Isend(b, (int)c1, t1, dst, tag, w, &req)
                               : PMPI_Issend(b, (int)c1, t1, dst, tag, w, &req);
      if (rc == MPI_SUCCESS)
        pend_add(st, me, a->peer, a->tag, false, req);
    }
    break;
  }
  case TI_RECV:
  case TI_IRECV: {
    check_peer(st, lineno, a->peer, "source", true);
    int src = peer_rank(a->peer), tag = tag_value(a->tag);
    long long count = a->count;
    if (count < 0) { /* size unknown to the receiver: what is coming decides */
      MPI_Status s;
      int got = 0;
      rc = PMPI_Probe(src, tag, w, &s);
      if (rc == MPI_SUCCESS)
        rc = PMPI_Get_count(&s, t1, &got);
      count = got > 0 ? got : 0;
    }
    if (rc != MPI_SUCCESS)
      break;
    void *b = scratch(&replay.rbuf, &replay.rcap, (size_t)count * b1);
    if (a->kind == TI_RECV) {
      rc = PMPI_Recv(b, (int)count, t1, src, tag, w, MPI_STATUS_IGNORE);
    } else {
      rc = PMPI_Irecv(b, (int)count, t1, src, tag, w, &req);
      if (rc == MPI_SUCCESS)
        pend_add(st, a->peer, me, a->tag, false, req);
    }
    break;
  }
  case TI_SENDRECV: {
    check_peer(st, lineno, a->peer, "destination", false);
    check_peer(st, lineno, a->peer2, "source", true);
    void *sb = scratch(&replay.sbuf, &replay.scap, c1 * b1);
    void *rb = scratch(&replay.rbuf, &replay.rcap, c2 * b2);
    rc = PMPI_Sendrecv(sb, (int)c1, t1, peer_rank(a->peer), 0, rb, (int)c2, t2,
                       peer_rank(a->peer2), MPI_ANY_TAG, w, MPI_STATUS_IGNORE);
    break;
  }
  case TI_WAIT:
  case TI_TEST: {
    req = pend_take(st, a->peer, a->peer2, a->tag);
    if (req == MPI_REQUEST_NULL)
      break; /* completed by an earlier test, as SimGrid assumes */
    if (a->kind == TI_WAIT) {
      rc = PMPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
      int flag = 0;
      rc = PMPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      if (rc == MPI_SUCCESS && !flag)
        pend_add(st, a->peer, a->peer2, a->tag, false, req);
    }
    break;
  }
  case TI_WAITALL: {
    if (st->npend == 0)
      break;
    MPI_Request *rs = xmalloc(st->npend * sizeof *rs);
    size_t nr = st->npend;
    for (size_t k = 0; k < nr; k++)
      rs[k] = st->pend[k].req;
    st->npend = 0;
    rc = PMPI_Waitall((int)nr, rs, MPI_STATUSES_IGNORE);
    free(rs);
    break;
  }
  case TI_BARRIER:
    rc = PMPI_Barrier(w);
    break;
  case TI_IBARRIER:
    rc = PMPI_Ibarrier(w, &req);
    if (rc == MPI_SUCCESS)
      pend_add(st, 0, 0, 0, true, req);
    break;
  case TI_BCAST:
  case TI_IBCAST:
    if (a->peer >= n)
      job_fail(st->file, lineno, "root %d is not a rank of this job (-np %d)", a->peer, n);
    if (a->kind == TI_BCAST) {
      rc = PMPI_Bcast(scratch(&replay.rbuf, &replay.rcap, c1 * b1), (int)c1, t1, a->peer, w);
    } else {
      rc = PMPI_Ibcast(scratch(&replay.rbuf, &replay.rcap, c1 * b1), (int)c1, t1, a->peer, w,
                       &req);
      if (rc == MPI_SUCCESS)
        pend_add(st, 0, 0, 0, true, req);
    }
    break;
  case TI_REDUCE:
    if (a->peer >= n)
      job_fail(st->file, lineno, "root %d is not a rank of this job (-np %d)", a->peer, n);
    rc = PMPI_Reduce(scratch(&replay.sbuf, &replay.scap, c1 * b1),
                     scratch(&replay.rbuf, &replay.rcap, c1 * b1), (int)c1, t1, replay.noop,
                     a->peer, w);
    if (rc == MPI_SUCCESS)
      smpi_execute_flops(a->amount);
    break;
  case TI_ALLREDUCE:
  case TI_SCAN:
  case TI_EXSCAN:
  case TI_IALLREDUCE: {
    void *sb = scratch(&replay.sbuf, &replay.scap, c1 * b1),
         *rb = scratch(&replay.rbuf, &replay.rcap, c1 * b1);
    if (a->kind == TI_ALLREDUCE)
      rc = PMPI_Allreduce(sb, rb, (int)c1, t1, replay.noop, w);
    else if (a->kind == TI_SCAN)
      rc = PMPI_Scan(sb, rb, (int)c1, t1, replay.noop, w);
    else if (a->kind == TI_EXSCAN)
      rc = PMPI_Exscan(sb, rb, (int)c1, t1, replay.noop, w);
    else {
      rc = PMPI_Iallreduce(sb, rb, (int)c1, t1, replay.noop, w, &req);
      if (rc == MPI_SUCCESS)
        pend_add(st, 0, 0, 0, true, req);
    }
    if (rc == MPI_SUCCESS && a->kind != TI_IALLREDUCE)
      smpi_execute_flops(a->amount);
    break;
  }
  case TI_ALLTOALL:
    rc = PMPI_Alltoall(scratch(&replay.sbuf, &replay.scap, c1 * b1 * (size_t)n), (int)c1, t1,
                       scratch(&replay.rbuf, &replay.rcap, c2 * b2 * (size_t)n), (int)c2, t2, w);
    break;
  case TI_ALLGATHER:
    rc = PMPI_Allgather(scratch(&replay.sbuf, &replay.scap, c1 * b1), (int)c1, t1,
                        scratch(&replay.rbuf, &replay.rcap, c2 * b2 * (size_t)n), (int)c2, t2, w);
    break;
  case TI_GATHER:
  case TI_SCATTER:
    if (a->peer >= n)
      job_fail(st->file, lineno, "root %d is not a rank of this job (-np %d)", a->peer, n);
    if (a->kind == TI_GATHER)
      rc = PMPI_Gather(scratch(&replay.sbuf, &replay.scap, c1 * b1), (int)c1, t1,
                       scratch(&replay.rbuf, &replay.rcap, c2 * b2 * (size_t)n), (int)c2, t2,
                       a->peer, w);
    else
      rc = PMPI_Scatter(scratch(&replay.sbuf, &replay.scap, c1 * b1 * (size_t)n), (int)c1, t1,
                        scratch(&replay.rbuf, &replay.rcap, c2 * b2), (int)c2, t2, a->peer, w);
    break;
  case TI_ALLTOALLV: {
    int *sd, *rd;
    size_t ssum, rsum;
    int *sc = int_counts(st, lineno, a, a->counts1, &sd, &ssum);
    int *rcn = int_counts(st, lineno, a, a->counts2, &rd, &rsum);
    rc = PMPI_Alltoallv(scratch(&replay.sbuf, &replay.scap, ssum * b1), sc, sd, t1,
                        scratch(&replay.rbuf, &replay.rcap, rsum * b2), rcn, rd, t2, w);
    free(sc), free(sd), free(rcn), free(rd);
    break;
  }
  case TI_GATHERV:
  case TI_ALLGATHERV: {
    int *rd;
    size_t rsum;
    int *rcn = int_counts(st, lineno, a, a->counts1, &rd, &rsum);
    void *sb = scratch(&replay.sbuf, &replay.scap, c1 * b1),
         *rb = scratch(&replay.rbuf, &replay.rcap, rsum * b2);
    if (a->kind == TI_GATHERV) {
      if (a->peer >= n)
        job_fail(st->file, lineno, "root %d is not a rank of this job (-np %d)", a->peer, n);
      rc = PMPI_Gatherv(sb, (int)c1, t1, rb, rcn, rd, t2, a->peer, w);
    } else {
      rc = PMPI_Allgatherv(sb, (int)c1, t1, rb, rcn, rd, t2, w);
    }
    free(rcn), free(rd);
    break;
  }
  case TI_SCATTERV: {
    int *sd;
    size_t ssum;
    if (a->peer >= n)
      job_fail(st->file, lineno, "root %d is not a rank of this job (-np %d)", a->peer, n);
    int *sc = int_counts(st, lineno, a, a->counts1, &sd, &ssum);
    rc = PMPI_Scatterv(scratch(&replay.sbuf, &replay.scap, ssum * b1), sc, sd, t1,
                       scratch(&replay.rbuf, &replay.rcap, c1 * b2), (int)c1, t2, a->peer, w);
    free(sc), free(sd);
    break;
  }
  case TI_REDUCESCATTER: {
    int *d;
    size_t sum;
    int *rcn = int_counts(st, lineno, a, a->counts1, &d, &sum);
    rc = PMPI_Reduce_scatter(scratch(&replay.sbuf, &replay.scap, sum * b1),
                             scratch(&replay.rbuf, &replay.rcap, (size_t)rcn[me] * b1), rcn, t1,
                             replay.noop, w);
    if (rc == MPI_SUCCESS)
      smpi_execute_flops(a->amount);
    free(rcn), free(d);
    break;
  }
  case TI_COMPUTE:
    smpi_execute_flops(a->amount);
    break;
  case TI_SLEEP:
    smpi_sleep_now(a->amount);
    break;
  case TI_FILE_READ:
  case TI_FILE_WRITE:
  case TI_FILE_READ_ALL:
  case TI_FILE_WRITE_ALL:
    rc = replay_io(st, lineno, a);
    break;
  case TI_KIND_COUNT:
    break;
  }
  check_rc(st, lineno, a, rc);
}

/* The noop operation: payloads are scratch, and SimGrid's replay applies none either. */
static void noop_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
  (void)in, (void)inout, (void)len, (void)dt;
}

SMPI_PUBLIC int smpi_replay_run(const char *trace_path)
{
  int me, np;
  PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  PMPI_Comm_size(MPI_COMM_WORLD, &np);
  PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (!replay.ready) {
    job_setup(trace_path, np);
    if (PMPI_Op_create(noop_fn, 1, &replay.noop) != MPI_SUCCESS)
      job_fail(trace_path, 0, "cannot create the replay's reduction operation");
  }
  rank_state *st = &ranks[me];
  st->default_dt = 6; /* MPI_BYTE until "init" says otherwise */
  if (replay.single) {
    st->file = replay.main_path;
    st->rd.lines = replay.rank_lines[me];
    st->rd.linenos = replay.rank_linenos[me];
    st->rd.nlines = replay.rank_nlines[me];
  } else {
    st->rd.path = replay.files[me];
    st->file = st->rd.path;
  }
  ti_action a = {0};
  char err[256];
  long lineno = 0;
  char *line;
  while ((line = next_line(st, &lineno)) != NULL) {
    int rc = ti_parse_line(line, np, &a, err, sizeof err);
    if (rc < 0)
      job_fail(st->file, lineno, "%s", err);
    if (rc == 0)
      continue;
    if (replay.single && a.rank != me)
      continue;
    perform(st, lineno, &a, me);
  }
  ti_action_clear(&a);
  /* what the trace left pending completes before MPI_Finalize, as in SimGrid */
  if (st->npend) {
    ti_action wa = {.kind = TI_WAITALL};
    perform(st, lineno, &wa, me);
  }
  for (size_t i = 0; i < st->nfiles; i++) { /* world files in the same order on every rank */
    PMPI_File_close(&st->files[i].fh);
    free(st->files[i].name);
  }
  free(st->files);
  st->files = NULL;
  st->nfiles = 0;
  free(st->pend);
  st->pend = NULL;
  free(st->rd.buf);
  st->rd.buf = NULL;
  return 0;
}

SMPI_PUBLIC int smpi_replay_main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "smpi-replay: usage: smpirun -replay TRACE [-np N] [-platform P] ...\n");
    return 1;
  }
  /* the replaying code's own CPU time is not the application's: only "compute" counts */
  smpi_w.simulate_computation = false;
  int rc = PMPI_Init(&argc, &argv);
  if (rc != MPI_SUCCESS)
    return 1;
  rc = smpi_replay_run(argv[1]);
  PMPI_Finalize();
  return rc;
}
