/* file.c: MPI-IO file objects, names, views, file pointers and the data calls (see file.h).
 *
 * Where the bytes go (a rank of host "node1" opens "ufs:/scratch/run/out.dat"):
 *
 *   "ufs:" dropped (ROMIO's file-system prefixes)    -> name   "/scratch/run/out.dat"
 *   host file  <smpi/io-dir>/scratch/run/out.dat        (directories made as needed)
 *   disk       disk_find(node1, "/scratch/run/out.dat")  (a relative name counts from "/")
 *
 * A view maps the data stream onto the file (MPI 3.1 section 13.3): the filetype, tiled from
 * disp every extent bytes, keeps ft_blocks of each tile. Worked example, filetype = vector(2
 * blocks of 1 int, stride 4 ints) resized to extent 32, disp 100, etype MPI_INT:
 *
 *   ft_blocks {0, 4} {16, 4}, ft_size 8, ft_extent 32
 *   data bytes [0, 12) -> file [100, 104) [116, 120) [132, 136)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectives/coll.h"
#include "kernel/disk.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/io/file.h"
#include "smpi/mpi/datatype_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/runtime/observer.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"

LOG_NEW_CATEGORY(io, "MPI-IO: files, views, simulated storage");
LOG_DEFAULT_CATEGORY(io);

struct io_shared {
  int refs; /* ranks that have it open */
  int fd;
  char *name; /* as the program gave it, prefix dropped */
  char *path; /* the host file */
  int amode;
  bool atomic;
  MPI_Offset shared_pos; /* shared file pointer, etypes of the view */
  int ordered_done;      /* _ordered calls whose shared pointer update is done */
  bool delete_on_close;
};

static struct io_state {
  char *dir;    /* where the files live; NULL until the first open */
  bool temp;    /* dir is ours (mkdtemp), removed at exit unless smpi/io-keep */
  bool removed; /* ... already (MPI_Abort, then exit) */
  bool warned_no_disk;
  bool warned_dir; /* the directory's failure was reported */
} io;

static const cfg_key io_keys[] = {
    CFG_KEY_STRING("smpi/io-dir", "", NULL,
                   "Directory holding the files MPI-IO programs open (a file '/scratch/a' is "
                   "<dir>/scratch/a); empty: a temporary directory made for the run and removed "
                   "at its end"),
    CFG_KEY_BOOL("smpi/io-keep", false,
                 "Keep the temporary directory of smpi/io-dir (its name is printed at the end)"),
    CFG_KEY_INT("smpi/io-cb-nodes", 0,
                "Aggregators of collective I/O (ROMIO's cb_nodes hint); 0: one per host of the "
                "file's communicator, ROMIO's default"),
    CFG_KEY_INT("smpi/io-rpc-size", 1048576,
                "Accesses to a disk of another host (a storage host) are pipelined in pieces of "
                "this many bytes: the message of one piece overlaps the disk access of the "
                "previous (Lustre's RPC size, 1 MiB); 0: one piece, message then disk"),
    CFG_KEY_INT("smpi/io-cb-buffer-size", 16777216,
                "Bytes an aggregator handles per round of collective I/O (ROMIO's "
                "cb_buffer_size hint, default 16 MiB)"),
};

void smpi_io_declare_config(void) { cfg_declare_keys(io_keys, CFG_NKEYS(io_keys)); }

/* ---- the directory ---- */

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb;
  (void)flag;
  (void)ftw;
  remove(p); /* best effort: what cannot be removed stays */
  return 0;
}

static void io_atexit(void)
{
  if (!io.dir || !io.temp || io.removed)
    return;
  io.removed = true;
  if (cfg_get_bool("smpi/io-keep")) {
    fprintf(stderr, "smpi: MPI-IO files kept in %s\n", io.dir);
    return;
  }
  nftw(io.dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Files default to MPI_ERRORS_RETURN: without this line a program would only see MPI_ERR_IO
 * for a directory it cannot use (once per run). */
static void warn_dir(const char *detail)
{
  if (!io.warned_dir)
    fprintf(stderr, "smpi: MPI-IO: %s\n", detail);
  io.warned_dir = true;
}

/* 0, or an errno with what failed in detail */
static int io_dir(char *detail, size_t dlen)
{
  if (io.dir)
    return 0;
  const char *d = cfg_get_string("smpi/io-dir");
  if (d && *d) {
    struct stat st;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
      int e = errno ? errno : ENOTDIR;
      snprintf(detail, dlen,
               "smpi/io-dir '%s' is not a directory (create it, or leave the "
               "key empty for a temporary one)",
               d);
      warn_dir(detail);
      return e;
    }
    io.dir = xstrdup(d);
    return 0;
  }
  const char *tmp = getenv("TMPDIR");
  char *tpl = xasprintf("%s/smpi-io-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(tpl)) {
    int e = errno;
    snprintf(detail, dlen,
             "cannot make a temporary directory %s: %s (set TMPDIR or "
             "smpi/io-dir)",
             tpl, strerror(e));
    warn_dir(detail);
    free(tpl);
    return e;
  }
  io.dir = tpl;
  io.temp = true;
  atexit(io_atexit);
  smpi_on_abort = io_atexit; /* MPI_Abort and fatal errors end the job with _exit */
  return 0;
}

/* The name without a ROMIO prefix ("ufs:", "nfs:", "lustre:": two letters or more, so that
 * a Windows-like "C:" stays) */
static const char *drop_prefix(const char *name)
{
  const char *c = strchr(name, ':');
  if (!c || c - name < 2)
    return name;
  for (const char *p = name; p < c; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_'))
      return name;
  return c + 1;
}

/* the name for disk_find ("/" + a relative name), or NULL for a name with a ".." part */
static char *model_name(const char *name)
{
  const char *n = drop_prefix(name);
  for (const char *p = n; (p = strstr(p, "..")); p += 2)
    if ((p == n || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
      return NULL;
  return n[0] == '/' ? xstrdup(n) : xasprintf("/%s", n);
}

static int mkdirs_for(char *path)
{
  for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
    *p = '\0';
    int rc = mkdir(path, 0777);
    int e = errno;
    *p = '/';
    if (rc != 0 && e != EEXIST)
      return e;
  }
  return 0;
}

/* errno of a failed open/unlink -> MPI error class */
static int errno_class(int e)
{
  switch (e) {
  case ENOENT:
  case ENOTDIR:
    return MPI_ERR_NO_SUCH_FILE;
  case EEXIST:
    return MPI_ERR_FILE_EXISTS;
  case EACCES:
  case EPERM:
    return MPI_ERR_ACCESS;
  case EROFS:
    return MPI_ERR_READ_ONLY;
  case ENOSPC:
  case EDQUOT:
    return MPI_ERR_NO_SPACE;
  case ENAMETOOLONG:
    return MPI_ERR_BAD_FILE;
  default:
    return MPI_ERR_IO;
  }
}

/* ---- objects and errors ---- */

smpi_file *smpi_file_get(MPI_File h)
{
  smpi_file *f = smpi_handle_get(h, SMPI_KIND_FILE);
  if (!f || !smpi_self() || smpi_comm_world_rank(f->c, f->rank) != smpi_self()->rank)
    return NULL;
  return f;
}

int smpi_file_error(smpi_file *f, int code, const char *fname, const char *detail)
{
  if (code == MPI_SUCCESS)
    return code;
  smpi_errhandler *eh;
  MPI_Errhandler h = MPI_ERRHANDLER_NULL;
  if (f) {
    eh = f->eh;
  } else {
    h = smpi_errhandler_get_file_default(); /* a reference of ours */
    eh = smpi_errhandler_get(h);
  }
  char on[MPI_MAX_OBJECT_NAME + 16];
  snprintf(on, sizeof on, "file '%s'", f ? f->sh->name : "MPI_FILE_NULL");
  int rc = smpi_errhandler_run(eh, f ? f->handle : MPI_FILE_NULL, on, code, fname, detail);
  if (!f)
    smpi_errhandler_unref(eh);
  return rc;
}

static void *shared_new(void *arg)
{
  io_shared *sh = xcalloc(1, sizeof *sh);
  sh->refs = *(int *)arg;
  sh->fd = -1;
  return sh;
}

static void view_free(smpi_file *f)
{
  if (f->etype)
    smpi_dt_unref(f->etype);
  if (f->filetype)
    smpi_dt_unref(f->filetype);
  free(f->ft_blocks);
  f->etype = f->filetype = NULL;
  f->ft_blocks = NULL;
}

void io_segs_push(io_segs *s, MPI_Offset off, MPI_Offset len)
{
  if (len <= 0)
    return;
  if (s->n && s->v[s->n - 1].off + s->v[s->n - 1].len == off) {
    s->v[s->n - 1].len += len;
    return;
  }
  XGROW(s->v, s->cap, s->n + 1);
  s->v[s->n++] = (io_seg){off, len};
}

void io_segs_free(io_segs *s)
{
  free(s->v);
  *s = (io_segs){0};
}

static void flatten(const dt_prog *p, MPI_Aint base, io_segs *out)
{
  for (size_t k = 0; k < p->n; k++) {
    const dt_node *nd = &p->nodes[k];
    for (size_t i = 0; i < nd->count; i++) {
      MPI_Aint o = base + nd->off + (MPI_Aint)i * nd->stride;
      if (nd->sub)
        flatten(nd->sub, o, out);
      else
        io_segs_push(out, o, (MPI_Offset)nd->len);
    }
  }
}

static void view_set(smpi_file *f, MPI_Offset disp, smpi_dt *etype, smpi_dt *filetype,
                     const char *datarep)
{
  smpi_dt_ref(etype);
  smpi_dt_ref(filetype);
  view_free(f);
  f->disp = disp;
  f->etype = etype;
  f->filetype = filetype;
  snprintf(f->datarep, sizeof f->datarep, "%s", datarep);
  io_segs s = {0};
  if (smpi_dt_is_contiguous(filetype))
    io_segs_push(&s, smpi_dt_true_lb(filetype), (MPI_Offset)smpi_dt_size(filetype));
  else
    flatten(filetype->prog, 0, &s);
  f->ft_blocks = s.v;
  f->ft_nblocks = s.n;
  f->ft_size = (MPI_Offset)smpi_dt_size(filetype);
  f->ft_extent = smpi_dt_extent(filetype);
  f->pos = 0;
}

void io_view_map(const smpi_file *f, MPI_Offset start, MPI_Offset bytes, io_segs *out)
{
  if (bytes <= 0 || f->ft_size <= 0)
    return;
  MPI_Offset tile = start / f->ft_size, in = start % f->ft_size;
  size_t b = 0;
  MPI_Offset seen = 0; /* data bytes of the tile before block b */
  while (seen + f->ft_blocks[b].len <= in)
    seen += f->ft_blocks[b++].len;
  MPI_Offset skip = in - seen;
  while (bytes > 0) {
    const io_seg *blk = &f->ft_blocks[b];
    MPI_Offset n = blk->len - skip;
    if (n > bytes)
      n = bytes;
    io_segs_push(out, f->disp + tile * f->ft_extent + blk->off + skip, n);
    bytes -= n;
    skip = 0;
    if (++b == f->ft_nblocks) {
      b = 0;
      tile++;
    }
  }
}

/* ---- open, close, delete ---- */

int smpi_file_open(smpi_comm *c, const char *name, int amode, MPI_Info info, MPI_File *out,
                   const char *fname, char *detail, size_t dlen)
{
  /* the same object for every member: keyed by the dup's context id, as windows are */
  smpi_comm *dup = NULL;
  smpi_comm_dup(c, &dup, "MPI_Comm_dup");
  ASSERT(dup);
  char key[48];
  snprintf(key, sizeof key, "file:%u", (unsigned)smpi_comm_p2p_context(dup));
  int n = smpi_comm_size(dup);
  io_shared *sh = smpi_shared_take(key, n, shared_new, &n);
  int rank = smpi_comm_rank(dup);
  int err = MPI_SUCCESS;
  if (rank == 0) {
    /* one rank opens the host file, the others share the descriptor (they run in the same
     * process); its outcome reaches them through the broadcast below */
    char *mname = model_name(name);
    int e = mname ? io_dir(detail, dlen) : 0;
    if (!mname) {
      err = MPI_ERR_BAD_FILE;
      snprintf(detail, dlen, "'..' in a file name");
    } else if (e) {
      err = MPI_ERR_IO;
    } else {
      sh->name = xstrdup(drop_prefix(name));
      sh->path = xasprintf("%s%s", io.dir, mname);
      int flags = (amode & MPI_MODE_RDONLY) ? O_RDONLY : O_RDWR;
      if (amode & MPI_MODE_CREATE)
        flags |= O_CREAT;
      if (amode & MPI_MODE_EXCL)
        flags |= O_EXCL;
      if (amode & MPI_MODE_CREATE)
        mkdirs_for(sh->path);
      sh->fd = open(sh->path, flags | O_CLOEXEC, 0666);
      if (sh->fd < 0) {
        err = errno_class(errno);
        snprintf(detail, dlen, "%s: %s", name, strerror(errno));
      }
      struct stat st;
      if (sh->fd >= 0 && (amode & MPI_MODE_APPEND) && fstat(sh->fd, &st) == 0)
        sh->shared_pos = (MPI_Offset)st.st_size; /* before anyone can use it */
      sh->amode = amode;
      sh->delete_on_close = amode & MPI_MODE_DELETE_ON_CLOSE;
    }
    free(mname);
  }
  coll_mpi_bcast(&err, 1, MPI_INT, 0, smpi_comm_handle(dup), fname);
  if (err != MPI_SUCCESS) {
    if (rank != 0)
      snprintf(detail, dlen, "%s", name);
    if (--sh->refs == 0) {
      free(sh->name);
      free(sh->path);
      free(sh);
    }
    smpi_comm_free(dup);
    return err;
  }
  smpi_file *f = xcalloc(1, sizeof *f);
  f->sh = sh;
  f->c = dup;
  f->comm = smpi_comm_handle(dup);
  f->rank = rank;
  f->host = smpi_self()->host;
  f->amode = amode;
  char *mname = model_name(sh->name);
  f->disk = disk_find(f->host, mname);
  free(mname);
  if (f->disk < 0 && disk_count() == 0 && !io.warned_no_disk) {
    io.warned_no_disk = true;
    LOG_WARN("the platform has no disk: MPI-IO calls take no simulated time (add <disk> "
             "elements to hosts, platforms/README.md)");
  }
  MPI_Errhandler h = smpi_errhandler_get_file_default();
  f->eh = smpi_errhandler_get(h); /* keeps the reference taken */
  f->info = info == MPI_INFO_NULL ? MPI_INFO_NULL : smpi_info_dup_handle(info);
  view_set(f, 0, smpi_dt_get(MPI_BYTE), smpi_dt_get(MPI_BYTE), "native");
  if (amode & MPI_MODE_APPEND) /* the pointers start at the end (MPI 3.1 section 13.2.1) */
    f->pos = smpi_file_size(f);
  /* deadlock and mismatch reports name the file rather than a bare communicator handle */
  char cname[MPI_MAX_OBJECT_NAME];
  snprintf(cname, sizeof cname, "the file '%s'", sh->name);
  smpi_comm_set_name(dup, cname);
  f->handle = smpi_handle_new(SMPI_KIND_FILE, f);
  *out = f->handle;
  return MPI_SUCCESS;
}

int smpi_file_close(smpi_file *f, const char *fname)
{
  /* the last rank in closes (and deletes) before anyone leaves the barrier: a rank that
   * reopens the name right after its close finds it gone */
  io_shared *sh = f->sh;
  if (--sh->refs == 0) {
    close(sh->fd);
    if (sh->delete_on_close)
      unlink(sh->path);
    free(sh->name);
    free(sh->path);
    free(sh);
  }
  coll_mpi_barrier(f->comm, fname);
  view_free(f);
  smpi_errhandler_unref(f->eh);
  if (f->info != MPI_INFO_NULL)
    smpi_info_free_handle(f->info);
  smpi_comm_free(f->c);
  smpi_handle_free(f->handle);
  free(f);
  return MPI_SUCCESS;
}

int smpi_file_delete(const char *name, char *detail, size_t dlen)
{
  char *mname = model_name(name);
  if (!mname) {
    snprintf(detail, dlen, "'..' in a file name");
    return MPI_ERR_BAD_FILE;
  }
  int e = io_dir(detail, dlen);
  if (e) {
    free(mname);
    return MPI_ERR_IO;
  }
  char *path = xasprintf("%s%s", io.dir, mname);
  free(mname);
  int rc = MPI_SUCCESS;
  if (unlink(path) != 0) {
    rc = errno_class(errno);
    snprintf(detail, dlen, "%s: %s", name, strerror(errno));
  }
  free(path);
  return rc;
}

/* ---- size, info, view, pointers ---- */

MPI_Offset smpi_file_size(const smpi_file *f)
{
  struct stat st;
  return fstat(f->sh->fd, &st) == 0 ? (MPI_Offset)st.st_size : 0;
}

int smpi_file_set_size(smpi_file *f, MPI_Offset size, bool preallocate, const char *fname)
{
  coll_mpi_barrier(f->comm, fname);
  if (f->rank == 0) {
    MPI_Offset cur = smpi_file_size(f);
    if ((!preallocate || size > cur) && ftruncate(f->sh->fd, size) != 0)
      return MPI_ERR_IO;
    if (preallocate && size > cur && f->disk >= 0)
      io_cost_disk(f->host, f->disk, true, (double)(size - cur)); /* blocks are written */
  }
  coll_mpi_barrier(f->comm, fname);
  return MPI_SUCCESS;
}

int smpi_file_set_info(smpi_file *f, MPI_Info info)
{
  if (info == MPI_INFO_NULL)
    return MPI_SUCCESS;
  if (f->info == MPI_INFO_NULL)
    f->info = smpi_info_new_handle();
  smpi_info *dst = smpi_info_get(f->info), *src = smpi_info_get(info);
  int nk = smpi_info_nkeys(src);
  for (int i = 0; i < nk; i++) {
    char k[MPI_MAX_INFO_KEY + 1], v[MPI_MAX_INFO_VAL + 1];
    int flag;
    smpi_info_nthkey(src, i, k);
    smpi_info_value(src, k, MPI_MAX_INFO_VAL, v, &flag);
    smpi_info_set(dst, k, v);
  }
  return MPI_SUCCESS;
}

MPI_Info smpi_file_get_info(const smpi_file *f)
{
  /* the hints in use: what was set, plus the collective buffering values applied */
  MPI_Info h = f->info == MPI_INFO_NULL ? smpi_info_new_handle() : smpi_info_dup_handle(f->info);
  smpi_info *i = smpi_info_get(h);
  char v[32];
  snprintf(v, sizeof v, "%zu", io_cb_buffer_size(f));
  smpi_info_set(i, "cb_buffer_size", v);
  snprintf(v, sizeof v, "%d", io_cb_nodes(f));
  smpi_info_set(i, "cb_nodes", v);
  return h;
}

int smpi_file_set_view(smpi_file *f, MPI_Offset disp, smpi_dt *etype, smpi_dt *filetype,
                       const char *datarep, MPI_Info info, const char *fname)
{
  if (disp == MPI_DISPLACEMENT_CURRENT) /* sequential files only (checked by the binding) */
    disp = f->sh->shared_pos * (MPI_Offset)smpi_dt_size(f->etype) + f->disp;
  view_set(f, disp, etype, filetype, datarep);
  smpi_file_set_info(f, info);
  coll_mpi_barrier(f->comm, fname);
  f->sh->shared_pos = 0; /* "resets the individual and shared file pointers to zero" */
  return MPI_SUCCESS;
}

static MPI_Offset etype_size(const smpi_file *f) { return (MPI_Offset)smpi_dt_size(f->etype); }

/* the offset of the view (etypes) the end of the file is at: data bytes before it */
static MPI_Offset view_eof(const smpi_file *f)
{
  MPI_Offset size = smpi_file_size(f) - f->disp, es = etype_size(f);
  if (size <= 0 || f->ft_size <= 0 || es <= 0)
    return 0;
  MPI_Offset tiles = size / f->ft_extent, rest = size % f->ft_extent, data = tiles * f->ft_size;
  for (size_t b = 0; b < f->ft_nblocks && f->ft_blocks[b].off < rest; b++) {
    MPI_Offset end = f->ft_blocks[b].off + f->ft_blocks[b].len;
    data += (end <= rest ? end : rest) - f->ft_blocks[b].off;
  }
  return (data + es - 1) / es;
}

int smpi_file_seek(smpi_file *f, MPI_Offset offset, int whence, bool shared)
{
  MPI_Offset *p = shared ? &f->sh->shared_pos : &f->pos;
  MPI_Offset base = whence == MPI_SEEK_SET ? 0 : whence == MPI_SEEK_CUR ? *p : view_eof(f);
  if (base + offset < 0)
    return MPI_ERR_ARG;
  *p = base + offset;
  return MPI_SUCCESS;
}

MPI_Offset smpi_file_position(const smpi_file *f, bool shared)
{
  return shared ? f->sh->shared_pos : f->pos;
}

MPI_Offset smpi_file_byte_offset(const smpi_file *f, MPI_Offset offset)
{
  io_segs s = {0};
  MPI_Offset es = etype_size(f);
  io_view_map(f, offset * es, es > 0 ? es : 1, &s);
  MPI_Offset r = s.n ? s.v[0].off : f->disp;
  io_segs_free(&s);
  return r;
}

void smpi_file_set_atomicity(smpi_file *f, bool flag) { f->sh->atomic = flag; }
bool smpi_file_get_atomicity(const smpi_file *f) { return f->sh->atomic; }

int smpi_file_sync(smpi_file *f, const char *fname)
{
  /* the data is already in the host file (pwrite at each call); MPI_File_sync is collective */
  coll_mpi_barrier(f->comm, fname);
  return MPI_SUCCESS;
}

/* ---- data ---- */

static void set_status(MPI_Status *st, MPI_Offset bytes)
{
  if (!st || st == MPI_STATUS_IGNORE)
    return;
  st->MPI_SOURCE = MPI_ANY_SOURCE;
  st->MPI_TAG = MPI_ANY_TAG; /* MPI_ERROR is the program's (MPI 3.1 section 3.2.5) */
  st->smpi_cancelled = 0;
  st->smpi_count = bytes;
}

/* Moves the bytes (real data); returns the data bytes moved (a read stops at the end of the
 * file) or -1 with errno. */
static MPI_Offset move_data(smpi_file *f, bool write, const io_segs *segs, void *buf, int count,
                            const smpi_dt *dt, MPI_Offset bytes)
{
  if (bytes == 0)
    return 0;
  int fd = f->sh->fd;
  bool folded = smpi_dt_all_folded(buf, (size_t)count, dt);
  if (write && folded) {
    /* SMPI_SHARED_MALLOC data is meaningless: the file only grows to cover it */
    MPI_Offset end = 0;
    for (size_t i = 0; i < segs->n; i++)
      if (segs->v[i].off + segs->v[i].len > end)
        end = segs->v[i].off + segs->v[i].len;
    if (end > smpi_file_size(f) && ftruncate(fd, end) != 0)
      return -1;
    return bytes;
  }
  bool contig = smpi_dt_is_contiguous(dt);
  char *packed = contig ? (char *)buf + smpi_dt_true_lb(dt) : xmalloc((size_t)bytes);
  if (write && !contig)
    smpi_dt_pack(buf, (size_t)count, dt, packed);
  MPI_Offset done = 0;
  for (size_t i = 0; i < segs->n; i++) {
    const io_seg *s = &segs->v[i];
    MPI_Offset k = 0;
    while (k < s->len) {
      ssize_t r = write ? pwrite(fd, packed + done + k, (size_t)(s->len - k), s->off + k)
                        : pread(fd, packed + done + k, (size_t)(s->len - k), s->off + k);
      if (r < 0) {
        int e = errno;
        if (!contig)
          free(packed);
        errno = e;
        return -1;
      }
      if (r == 0)
        break; /* end of file */
      k += r;
    }
    done += k;
    if (k < s->len)
      break;
  }
  if (!write && !contig && !folded)
    smpi_dt_unpack(packed, (size_t)done, buf, (size_t)count, dt);
  if (!contig)
    free(packed);
  return done;
}

static bool is_coll(io_where w) { return w == IO_ALL || w == IO_AT_ALL || w == IO_ORDERED; }

/* the position (etypes) an _ordered call starts at: the shared pointer plus the data of the
 * ranks before (an exclusive scan), the pointer then moved past everyone's */
static MPI_Offset ordered_start(smpi_file *f, MPI_Offset netypes, const char *fname)
{
  io_shared *sh = f->sh;
  MPI_Offset base = sh->shared_pos, before = 0, total = 0;
  coll_mpi_exscan(&netypes, &before, 1, MPI_OFFSET, MPI_SUM, f->comm, fname);
  if (f->rank == 0)
    before = 0;
  coll_mpi_allreduce(&netypes, &total, 1, MPI_OFFSET, MPI_SUM, f->comm, fname);
  /* every rank read base before the allreduce could end; the first rank out moves the
   * pointer, once per call (a faster rank may already be using it again) */
  f->ordered_seq++;
  if (sh->ordered_done < f->ordered_seq) {
    sh->ordered_done = f->ordered_seq;
    sh->shared_pos = base + total;
  }
  return base + before;
}

/* what a nonblocking independent call completes (smpi/mpi/p2p_private.h's generic request) */
static smpi_req *new_request(smpi_file *f, const char *fname, MPI_Request *request)
{
  smpi_req *r = p2p_req_new(REQ_SEND, NULL, 0, NULL, MPI_PROC_NULL, 0, f->c, 0, fname);
  r->active = true;
  r->handle = smpi_handle_new(SMPI_KIND_REQUEST, r);
  *request = r->handle;
  return r;
}

int smpi_file_rw(smpi_file *f, bool write, io_where where, MPI_Offset offset, void *buf,
                 int count, smpi_dt *dt, MPI_Status *status, MPI_Request *request,
                 const char *fname)
{
  MPI_Offset bytes = (MPI_Offset)count * (MPI_Offset)smpi_dt_size(dt);
  MPI_Offset es = etype_size(f);
  MPI_Offset netypes = es > 0 ? bytes / es : 0;
  MPI_Offset pos;
  switch (where) {
  case IO_AT:
  case IO_AT_ALL:
    pos = offset;
    break;
  case IO_SHARED:
    pos = f->sh->shared_pos;
    f->sh->shared_pos += netypes;
    break;
  case IO_ORDERED:
    pos = ordered_start(f, netypes, fname);
    break;
  default:
    pos = f->pos;
    f->pos += netypes;
    break;
  }
  io_segs segs = {0};
  io_view_map(f, pos * es, bytes, &segs);
  if (smpi_observed && segs.n) { /* the time-independent trace's line */
    MPI_Offset lo = segs.v[0].off, hi = lo;
    for (size_t i = 0; i < segs.n; i++) {
      if (segs.v[i].off < lo)
        lo = segs.v[i].off;
      if (segs.v[i].off + segs.v[i].len > hi)
        hi = segs.v[i].off + segs.v[i].len;
    }
    bool coll = where == IO_ALL || where == IO_AT_ALL;
    smpi_trace_io_args ta = {
        .verb = write ? (coll ? "file_write_all" : "file_write")
                      : (coll ? "file_read_all" : "file_read"),
        .file = f->sh->name,
        .offset = lo,
        .bytes = bytes,
        .span = hi - lo,
        .pieces = (long long)segs.n,
        .comm_size = smpi_comm_size(f->c),
    };
    SMPI_OBSERVE(io, &ta);
  }
  MPI_Offset done = 0;
  int rc = MPI_SUCCESS;
  if (write) {
    /* data first, so that a collective read after this write sees it whatever the order
     * the ranks run in */
    done = move_data(f, true, &segs, buf, count, dt, bytes);
    if (done < 0)
      rc = errno == ENOSPC ? MPI_ERR_NO_SPACE : MPI_ERR_IO;
  }
  smpi_req *done_req = NULL; /* a collective's request: complete when the call returns */
  if (is_coll(where) && where != IO_ORDERED && io_cb_enabled(f, write))
    io_coll_cost(f, write, &segs, fname);
  else if (request && !is_coll(where))
    io_cost_rw_async(f, write, &segs, new_request(f, fname, request));
  else
    io_cost_rw(f, write, &segs);
  if (request && is_coll(where))
    done_req = new_request(f, fname, request);
  if (where == IO_ORDERED) /* the ranks' accesses are in rank order: each waits for the last */
    coll_mpi_barrier(f->comm, fname);
  if (!write) {
    done = move_data(f, false, &segs, buf, count, dt, bytes);
    if (done < 0)
      rc = MPI_ERR_IO;
  }
  io_segs_free(&segs);
  if (rc != MPI_SUCCESS)
    return rc;
  if (request) {
    smpi_req *r = smpi_p2p_req_get(*request);
    set_status(&r->status, done);
    if (done_req)
      p2p_complete(done_req);
  }
  set_status(status, done);
  return MPI_SUCCESS;
}
