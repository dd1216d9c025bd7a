/* win.c: RMA windows — creation and destruction of the four flavors, attributes, names,
 * error handlers, info, groups, shared-memory queries and dynamic attachment (what the MPI
 * calls do once smpi/bindings/win.c checked their arguments).
 *
 * Creation (every flavor) on a communicator of n ranks:
 *
 *     win_comm_dup(comm)               the window's private communicator (messages)
 *     sh = shared object "win:<ctx>"   the first member creates it, all n take it
 *     sh->members[rank] = this rank's smpi_win, a handle of its own
 *     shared flavor: win_allgather_sizes (the block is laid out from them)
 *     win_barrier                      nobody targets a member before it registered
 *
 * so creating a window costs what MPICH's costs in messages: a dup plus a synchronisation. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/coll.h"
#include "smpi/mpi/attr.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/emulation/libc.h"
#include "smpi/mpi/handle.h"
#include "smpi/runtime/world.h"
#include "smpi/rma/win.h"
#include "src/invariant.h"
#include "src/mem.h"

smpi_win *smpi_win_get(MPI_Win h) { return smpi_handle_get(h, SMPI_KIND_WIN); }

/* ---- errors ---- */

static int win_error_detail(smpi_win *w, int code, const char *fname, const char *detail)
{
  if (code == MPI_SUCCESS)
    return code;
  if (!w)
    return detail ? smpi_comm_errorf(MPI_COMM_WORLD, code, fname, "%s", detail)
                  : smpi_comm_error(MPI_COMM_WORLD, code, fname);
  char wname[64];
  if (w->name && *w->name)
    snprintf(wname, sizeof wname, "window %s", w->name);
  else
    snprintf(wname, sizeof wname, "window 0x%x", (unsigned)w->handle);
  return smpi_errhandler_run(w->eh, w->handle, wname, code, fname, detail);
}

int smpi_win_error(smpi_win *w, int code, const char *fname)
{
  return win_error_detail(w, code, fname, NULL);
}

int smpi_win_errorf(smpi_win *w, int code, const char *fname, const char *fmt, ...)
{
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  return win_error_detail(w, code, fname, detail);
}

/* ---- target addresses ---- */

char *smpi_win_target_addr(const smpi_win *t, MPI_Aint disp, MPI_Aint lo, MPI_Aint hi, int *err)
{
  *err = MPI_SUCCESS;
  if (t->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
    /* disp is an address (MPI_Get_address of the target's memory) */
    char *a = (char *)disp;
    if (hi <= lo)
      return a;
    for (size_t i = 0; i < t->nregions; i++) {
      const rma_region *r = &t->regions[i];
      if (a + lo >= r->base && a + hi <= r->base + r->size)
        return a;
    }
    *err = MPI_ERR_RMA_RANGE;
    return NULL;
  }
  MPI_Aint off = disp * (MPI_Aint)t->disp_unit;
  if (hi > lo && (off + lo < 0 || off + hi > t->size)) {
    *err = MPI_ERR_RMA_RANGE;
    return NULL;
  }
  return t->base + off;
}

/* ---- attributes ---- */

static bool win_builtin(MPI_Win h, int keyval, void **value)
{
  smpi_win *w = smpi_win_get(h);
  if (!w)
    return false;
  switch (keyval) {
  case MPI_WIN_BASE:
    *value = w->base;
    return true;
  case MPI_WIN_SIZE:
    *value = &w->size;
    return true;
  case MPI_WIN_DISP_UNIT:
    *value = &w->disp_unit;
    return true;
  case MPI_WIN_CREATE_FLAVOR:
    *value = &w->flavor;
    return true;
  case MPI_WIN_MODEL:
    *value = &w->model;
    return true;
  default:
    return false;
  }
}

/* ---- the window's communicator ---- */

/* A window's messages travel on a private duplicate of its communicator. These run inside
 * the user's MPI_Win_* call, through the internal entry points (no second MPI call of the
 * rank); errors go to the handlers MPI_Comm_dup/_free/_Barrier/_Allgather would use. */
static void win_comm_dup(MPI_Comm comm, MPI_Comm *dup)
{
  smpi_comm *n = NULL;
  int rc = smpi_comm_dup(smpi_comm_get(comm), &n, "MPI_Comm_dup");
  *dup = n ? smpi_comm_handle(n) : MPI_COMM_NULL;
  if (rc != MPI_SUCCESS)
    smpi_comm_error(comm, rc, "MPI_Comm_dup");
}

static void win_comm_free(MPI_Comm *comm)
{
  int rc = smpi_comm_free(smpi_comm_get(*comm));
  *comm = MPI_COMM_NULL;
  if (rc != MPI_SUCCESS)
    smpi_comm_error(MPI_COMM_WORLD, rc, "MPI_Comm_free");
}

static void win_barrier(const smpi_win *w) { coll_mpi_barrier(w->comm, "MPI_Barrier"); }

static void win_allgather_sizes(const smpi_win *w, MPI_Aint size, MPI_Aint *sizes)
{
  coll_mpi_allgather(&size, 1, MPI_AINT, sizes, 1, MPI_AINT, w->comm, "MPI_Allgather");
}

/* ---- creation ---- */

static void *shared_new(void *arg)
{
  int n = *(int *)arg;
  smpi_win_shared *sh = xcalloc(1, sizeof *sh);
  sh->n = n;
  sh->refs = n;
  sh->members = xcalloc((size_t)n, sizeof *sh->members);
  smpi_u64map_init(&sh->pairs);
  list_init(&sh->lock_all_queue);
  list_init(&sh->lock_pending);
  return sh;
}

/* The collective part common to every flavor: registers this rank's object. */
static smpi_win *create_common(MPI_Comm comm, void *base, MPI_Aint size, int disp_unit,
                               MPI_Info info, int flavor)
{
  smpi_attr_set_win_builtin(win_builtin);
  smpi_clock_ahead_hold(+1); /* memory others may change between this rank's calls */
  smpi_win *w = xcalloc(1, sizeof *w);
  win_comm_dup(comm, &w->comm);
  w->c = smpi_comm_get(w->comm);
  ASSERT(w->c);
  /* the dup's context id is the same on every member and unique: a key for the window */
  char key[48];
  snprintf(key, sizeof key, "win:%u", (unsigned)smpi_comm_p2p_context(w->c));
  int n = smpi_comm_size(w->c);
  w->sh = smpi_shared_take(key, n, shared_new, &n);
  w->rank = smpi_comm_rank(w->c);
  w->world = smpi_self()->rank;
  w->base = base;
  w->size = size;
  w->disp_unit = disp_unit;
  w->flavor = flavor;
  w->model = MPI_WIN_UNIFIED;
  w->eh = smpi_errhandler_ref(smpi_errhandler_default());
  w->info = info == MPI_INFO_NULL ? MPI_INFO_NULL : smpi_info_dup_handle(info);
  w->excl = -1;
  list_init(&w->lock_queue);
  list_init(&w->pending_link);
  w->sh->flavor = flavor;
  w->sh->members[w->rank] = w;
  w->handle = smpi_handle_new(SMPI_KIND_WIN, w);
  return w;
}

void smpi_win_create(MPI_Comm comm, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                     MPI_Win *win)
{
  smpi_win *w = create_common(comm, base, size, disp_unit, info, MPI_WIN_FLAVOR_CREATE);
  win_barrier(w);
  *win = w->handle;
}

void smpi_win_allocate(MPI_Comm comm, MPI_Aint size, int disp_unit, MPI_Info info, void *baseptr,
                       MPI_Win *win)
{
  void *base = xcalloc(1, size > 0 ? (size_t)size : 1);
  smpi_win *w = create_common(comm, base, size, disp_unit, info, MPI_WIN_FLAVOR_ALLOCATE);
  w->allocated = true;
  win_barrier(w);
  *(void **)baseptr = base;
  *win = w->handle;
}

int smpi_win_allocate_shared(MPI_Comm comm, MPI_Aint size, int disp_unit, MPI_Info info,
                             void *baseptr, MPI_Win *win, const char *fname)
{
  /* load/store access needs one node: the members must share a simulated host, as the
   * ranks of MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) do */
  smpi_comm *c = smpi_comm_get(comm);
  size_t host0 = smpi_w.ranks[smpi_comm_local_world_rank(c, 0)].host;
  for (int i = 1; i < smpi_comm_size(c); i++)
    if (smpi_w.ranks[smpi_comm_local_world_rank(c, i)].host != host0)
      return smpi_comm_errorf(comm, MPI_ERR_RMA_SHARED, fname,
                              "ranks 0 and %d of the communicator are on different hosts", i);
  smpi_win *w = create_common(comm, NULL, size, disp_unit, info, MPI_WIN_FLAVOR_SHARED);
  int n = w->sh->n;
  MPI_Aint *sizes = xmalloc((size_t)n * sizeof *sizes);
  win_allgather_sizes(w, size, sizes);
  /* contiguous layout, each part rounded up to 16 bytes */
  size_t total = 0, mine = 0;
  for (int i = 0; i < n; i++) {
    if (i == w->rank)
      mine = total;
    total += ((size_t)sizes[i] + 15) & ~(size_t)15;
  }
  free(sizes);
  if (!w->sh->shm)
    w->sh->shm = xcalloc(1, total ? total : 1);
  w->base = w->sh->shm + mine;
  win_barrier(w);
  *(void **)baseptr = w->base;
  *win = w->handle;
  return MPI_SUCCESS;
}

void smpi_win_create_dynamic(MPI_Comm comm, MPI_Info info, MPI_Win *win)
{
  smpi_win *w = create_common(comm, MPI_BOTTOM, 0, 1, info, MPI_WIN_FLAVOR_DYNAMIC);
  win_barrier(w);
  *win = w->handle;
}

int smpi_win_free(smpi_win *w, MPI_Win *win, const char *fname)
{
  int rc = smpi_rma_can_free(w);
  if (rc != MPI_SUCCESS)
    return smpi_win_errorf(w, rc, fname, "an access or exposure epoch is open");
  /* every member's epochs are closed once all are here: nobody targets this memory later */
  win_barrier(w);
  rc = smpi_attr_delete_all(w->handle);
  smpi_handle_free(w->handle);
  smpi_win_shared *sh = w->sh;
  sh->members[w->rank] = NULL;
  if (--sh->refs == 0) {
    smpi_rma_shared_destroy(sh);
    free(sh->shm);
    free(sh->members);
    free(sh);
  }
  win_comm_free(&w->comm);
  if (w->allocated)
    free(w->base);
  if (w->info != MPI_INFO_NULL)
    smpi_info_free_handle(w->info);
  smpi_errhandler_unref(w->eh);
  free(w->regions);
  free(w->dirty);
  free(w->name);
  free(w);
  smpi_clock_ahead_hold(-1);
  *win = MPI_WIN_NULL;
  return rc == MPI_SUCCESS ? rc : smpi_comm_error(MPI_COMM_WORLD, rc, fname);
}

/* ---- dynamic windows ---- */

int smpi_win_attach(smpi_win *w, void *base, MPI_Aint size, const char *fname)
{
  char *b = base;
  for (size_t i = 0; i < w->nregions; i++) {
    const rma_region *r = &w->regions[i];
    if (b < r->base + r->size && r->base < b + size)
      return smpi_win_errorf(w, MPI_ERR_RMA_ATTACH, fname, "overlaps memory attached before");
  }
  XGROW(w->regions, w->cap_regions, w->nregions + 1);
  w->regions[w->nregions++] = (rma_region){.base = b, .size = (size_t)size};
  return MPI_SUCCESS;
}

int smpi_win_detach(smpi_win *w, const void *base, const char *fname)
{
  for (size_t i = 0; i < w->nregions; i++) {
    if (w->regions[i].base == base) {
      w->regions[i] = w->regions[--w->nregions];
      return MPI_SUCCESS;
    }
  }
  return smpi_win_errorf(w, MPI_ERR_RMA_ATTACH, fname, "memory not attached");
}

/* ---- shared memory ---- */

void smpi_win_shared_query(const smpi_win *w, int rank, MPI_Aint *size, int *disp_unit,
                           void *baseptr)
{
  const smpi_win_shared *sh = w->sh;
  const smpi_win *t = NULL;
  if (rank == MPI_PROC_NULL) {
    /* the lowest rank with a non-empty segment */
    for (int i = 0; i < sh->n && !t; i++)
      if (sh->members[i] && sh->members[i]->size > 0)
        t = sh->members[i];
  } else {
    t = sh->members[rank];
  }
  if (!t) {
    *size = 0;
    *disp_unit = 1;
    *(void **)baseptr = NULL;
  } else {
    *size = t->size;
    *disp_unit = t->disp_unit;
    *(void **)baseptr = t->base;
  }
}

/* ---- names, groups, info ---- */

void smpi_win_set_name(smpi_win *w, const char *name)
{
  free(w->name);
  w->name = xstrndup(name, MPI_MAX_OBJECT_NAME - 1);
}

void smpi_win_get_name(const smpi_win *w, char *name, int *resultlen)
{
  const char *s = w->name ? w->name : "";
  size_t n = strlen(s);
  memcpy(name, s, n + 1);
  *resultlen = (int)n;
}

void smpi_win_get_group(const smpi_win *w, MPI_Group *group)
{
  *group = smpi_group_handle_new(smpi_group_ref(w->c->group));
}

void smpi_win_set_info(smpi_win *w, MPI_Info info)
{
  if (w->info != MPI_INFO_NULL)
    smpi_info_free_handle(w->info);
  w->info = info == MPI_INFO_NULL ? MPI_INFO_NULL : smpi_info_dup_handle(info);
}

void smpi_win_get_info(const smpi_win *w, MPI_Info *info_used)
{
  /* the hints given (every hint is "used": none changes the simulation), and the keys MPI
   * 3.1 section 11.2.7 defines for windows with their default values where none was given
   * (MPICH's set; a program reads them back to learn what the window guarantees) */
  static const char *const defaults[][2] = {
      {"no_locks", "false"},
      {"accumulate_ordering", "rar,raw,war,waw"},
      {"accumulate_ops", "same_op_no_op"},
      {"same_size", "false"},
      {"same_disp_unit", "false"},
      {"alloc_shared_noncontig", "false"},
  };
  *info_used = w->info != MPI_INFO_NULL ? smpi_info_dup_handle(w->info) : smpi_info_new_handle();
  smpi_info *i = smpi_info_get(*info_used);
  for (size_t k = 0; k < sizeof defaults / sizeof *defaults; k++) {
    int len, flag;
    smpi_info_valuelen(i, defaults[k][0], &len, &flag);
    if (!flag)
      smpi_info_set(i, defaults[k][0], defaults[k][1]);
  }
}

/* ---- error handlers ---- */

void smpi_win_set_errhandler(smpi_win *w, smpi_errhandler *e)
{
  smpi_errhandler_ref(e);
  smpi_errhandler_unref(w->eh);
  w->eh = e;
}

void smpi_win_get_errhandler(const smpi_win *w, MPI_Errhandler *errhandler)
{
  /* a reference of the caller's own, released by MPI_Errhandler_free */
  *errhandler = smpi_errhandler_ref(w->eh)->handle;
}
