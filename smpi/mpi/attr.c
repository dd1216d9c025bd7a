/* attr.c: keyvals and cached attributes for communicators, datatypes and windows.
 *
 * Attribute lists live here, outside of the objects, in one map keyed by
 * (handle, calling rank): the datatype and window modules need no field for them, and a
 * predefined handle such as MPI_COMM_WORLD or MPI_INT has one list per rank, as MPI wants
 * (attributes are local to a process).
 *
 *     (MPI_COMM_WORLD, rank 3) -> [ (keyval A, 0x1234), (keyval B, 0x5678) ]   set order
 *
 * Copies (dup) and deletions (free) walk the list newest first, and replacing a value
 * keeps its place: the order MPICH shows, and the one MPI 3.1 section 8.7.1 requires at
 * MPI_Finalize for MPI_COMM_SELF. A keyval lives while its handle or an attribute uses it,
 * so MPI_Comm_free_keyval does not break attributes still attached (section 6.7.2). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/attr.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/runtime/world.h"
#include "src/invariant.h"
#include "src/mem.h"

typedef struct kvobj {
  int handle;
  int kind; /* SMPI_KIND_COMM, SMPI_KIND_DATATYPE or SMPI_KIND_WIN */
  MPI_Comm_copy_attr_function *copy;
  MPI_Comm_delete_attr_function *del;
  void *extra;
  int refs;   /* the user's handle + one per attribute */
  bool freed; /* the user freed the handle */
  bool predefined;
} kvobj;

typedef struct attr {
  kvobj *kv;
  void *val;
} attr;

typedef struct attr_list {
  attr *a;
  size_t n, cap;
} attr_list;

static smpi_u64map lists;
static smpi_attr_builtin_fn win_builtin;

/* ---- predefined keys ---- */

static kvobj predefined_kv[SMPI_KEYVAL_PREDEFINED_COUNT];
static int tag_ub = INT_MAX; /* as SimGrid's; MPI only asks for at least 32767 */
static int host_value = MPI_PROC_NULL;
static int io_value = MPI_ANY_SOURCE; /* every rank can do I/O */
static int wtime_is_global = 1;       /* one simulated clock */
static int universe_size;             /* np */
static int appnum;                    /* one application */

void smpi_attr_setup_predefined(void)
{
  for (int i = 1; i < SMPI_KEYVAL_PREDEFINED_COUNT; i++) {
    kvobj *k = &predefined_kv[i];
    k->handle = SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, i);
    k->kind = i >= SMPI_HANDLE_INDEX(MPI_WIN_BASE) ? SMPI_KIND_WIN : SMPI_KIND_COMM;
    k->refs = 1;
    k->predefined = true;
    smpi_handle_set_predefined(k->handle, k);
  }
  universe_size = smpi_w.np;
}

void smpi_attr_set_win_builtin(smpi_attr_builtin_fn fn) { win_builtin = fn; }

static int *comm_builtin(int keyval_handle)
{
  switch (keyval_handle) {
  case MPI_TAG_UB:
    return &tag_ub;
  case MPI_HOST:
    return &host_value;
  case MPI_IO:
    return &io_value;
  case MPI_WTIME_IS_GLOBAL:
    return &wtime_is_global;
  case MPI_UNIVERSE_SIZE:
    return &universe_size;
  case MPI_APPNUM:
    return &appnum;
  case MPI_LASTUSEDCODE:
    return smpi_error_lastused_ptr();
  default:
    return NULL;
  }
}

/* ---- lists ---- */

static uint64_t list_key(int h)
{
  smpi_rank *me = smpi_self();
  return (uint64_t)(uint32_t)h << 32 | (uint32_t)(me ? me->rank : -1);
}

static attr_list *list_of(int h, bool create)
{
  uint64_t k = list_key(h);
  attr_list *l = smpi_u64map_get(&lists, k);
  if (!l && create) {
    l = xcalloc(1, sizeof *l);
    smpi_u64map_put(&lists, k, l);
  }
  return l;
}

static void list_drop(int h)
{
  attr_list *l = smpi_u64map_remove(&lists, list_key(h));
  if (l) {
    free(l->a);
    free(l);
  }
}

static attr *find(attr_list *l, const kvobj *kv)
{
  if (l)
    for (size_t i = 0; i < l->n; i++)
      if (l->a[i].kv == kv)
        return &l->a[i];
  return NULL;
}

static void kv_unref(kvobj *k)
{
  if (k->predefined)
    return;
  ASSERT(k->refs > 0);
  if (--k->refs == 0) {
    smpi_handle_free(k->handle);
    free(k);
  }
}

/* A keyval the user freed still names its attributes until the last one is deleted (MPI 3.1
 * section 6.7.2: the program deletes them with MPI_Comm_delete_attr or MPI_Comm_free), so
 * its handle stays valid until then, as in MPICH; MPI_*_free_keyval refuses it again. */
static kvobj *kv_get(int h, int kind)
{
  kvobj *k = smpi_handle_get(h, SMPI_KIND_KEYVAL);
  return k && k->kind == kind ? k : NULL;
}

int smpi_attr_delete_all(int h)
{
  attr_list *l = list_of(h, false);
  if (!l)
    return MPI_SUCCESS;
  int first_error = MPI_SUCCESS;
  /* newest first; callbacks may look at (not modify) the remaining attributes */
  while (l->n > 0) {
    attr a = l->a[l->n - 1];
    int rc = a.kv->del ? a.kv->del(h, a.kv->handle, a.val, a.kv->extra) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS && first_error == MPI_SUCCESS)
      first_error = rc;
    l = list_of(h, false); /* a callback may have touched the map */
    ASSERT(l && l->n > 0);
    l->n--;
    kv_unref(a.kv);
  }
  list_drop(h);
  return first_error;
}

int smpi_attr_copy_all(int oldh, int newh)
{
  attr_list *l = list_of(oldh, false);
  if (!l || l->n == 0)
    return MPI_SUCCESS;
  /* snapshot: copy callbacks may set attributes */
  size_t n = l->n;
  attr *snap = xmalloc(n * sizeof *snap);
  memcpy(snap, l->a, n * sizeof *snap);
  attr *out = xmalloc(n * sizeof *out);
  size_t m = 0;
  int rc = MPI_SUCCESS;
  for (size_t i = n; i-- > 0;) {
    kvobj *k = snap[i].kv;
    if (!k->copy)
      continue;
    void *val = NULL;
    int flag = 0;
    rc = k->copy(oldh, k->handle, k->extra, snap[i].val, &val, &flag);
    if (rc != MPI_SUCCESS)
      break;
    if (flag)
      out[m++] = (attr){k, val};
  }
  if (rc == MPI_SUCCESS && m > 0) {
    /* keep the original relative order on the new object (out is newest first) */
    attr_list *nl = list_of(newh, true);
    XGROW(nl->a, nl->cap, nl->n + m);
    for (size_t i = m; i-- > 0;) {
      out[i].kv->refs++;
      nl->a[nl->n++] = out[i];
    }
  }
  free(snap);
  free(out);
  if (rc != MPI_SUCCESS)
    list_drop(newh);
  return rc;
}

static int set_attr(int h, kvobj *k, void *val)
{
  attr_list *l = list_of(h, true);
  attr *a = find(l, k);
  if (a) {
    if (k->del) {
      int rc = k->del(h, k->handle, a->val, k->extra);
      if (rc != MPI_SUCCESS)
        return rc;
      l = list_of(h, true);
      a = find(l, k);
      if (!a) /* the callback deleted it itself: set it anew */
        return set_attr(h, k, val);
    }
    a->val = val;
    return MPI_SUCCESS;
  }
  XGROW(l->a, l->cap, l->n + 1);
  l->a[l->n++] = (attr){k, val};
  k->refs++;
  return MPI_SUCCESS;
}

static int delete_attr(int h, kvobj *k)
{
  attr_list *l = list_of(h, false);
  attr *a = find(l, k);
  if (!a)
    return MPI_SUCCESS; /* nothing to delete: not an error, as with MPICH */
  if (k->del) {
    int rc = k->del(h, k->handle, a->val, k->extra);
    if (rc != MPI_SUCCESS)
      return rc;
    l = list_of(h, false);
    a = find(l, k);
    if (!a)
      return MPI_SUCCESS;
  }
  memmove(a, a + 1, (size_t)(l->a + l->n - (a + 1)) * sizeof *a);
  l->n--;
  kv_unref(k);
  if (l->n == 0)
    list_drop(h);
  return MPI_SUCCESS;
}

static int get_attr(int h, kvobj *k, void *out, int *flag)
{
  attr *a = find(list_of(h, false), k);
  *flag = a != NULL;
  if (a)
    *(void **)out = a->val;
  return MPI_SUCCESS;
}

/* ---- keyvals ---- */

int smpi_attr_keyval_create(int kind, MPI_Comm_copy_attr_function *copy,
                            MPI_Comm_delete_attr_function *del, int *keyval, void *extra)
{
  kvobj *k = xcalloc(1, sizeof *k);
  k->kind = kind;
  k->copy = copy;
  k->del = del;
  k->extra = extra;
  k->refs = 1;
  k->handle = smpi_handle_new(SMPI_KIND_KEYVAL, k);
  *keyval = k->handle;
  return MPI_SUCCESS;
}

int smpi_attr_keyval_free(int kind, int *keyval)
{
  kvobj *k = smpi_handle_get(*keyval, SMPI_KIND_KEYVAL);
  if (!k || k->freed || k->kind != kind || k->predefined)
    return MPI_ERR_KEYVAL;
  k->freed = true;
  *keyval = MPI_KEYVAL_INVALID;
  kv_unref(k);
  return MPI_SUCCESS;
}

/* ---- attributes of one object ---- */

int smpi_attr_set(int h, int kind, int keyval, void *val)
{
  kvobj *k = kv_get(keyval, kind);
  if (!k || k->predefined)
    return MPI_ERR_KEYVAL;
  return set_attr(h, k, val);
}

int smpi_attr_get(int h, int kind, int keyval, void *out, int *flag)
{
  kvobj *k = kv_get(keyval, kind);
  if (!k)
    return MPI_ERR_KEYVAL;
  if (!out || !flag)
    return MPI_ERR_ARG;
  if (k->predefined && kind == SMPI_KIND_COMM) {
    /* the environment's attributes answer on every communicator, as with MPICH */
    *(int **)out = comm_builtin(keyval);
    *flag = 1;
    return MPI_SUCCESS;
  }
  if (k->predefined) {
    void *v = NULL;
    *flag = win_builtin && win_builtin(h, keyval, &v);
    if (*flag)
      *(void **)out = v;
    return MPI_SUCCESS;
  }
  return get_attr(h, k, out, flag);
}

int smpi_attr_delete(int h, int kind, int keyval)
{
  kvobj *k = kv_get(keyval, kind);
  if (!k || k->predefined)
    return MPI_ERR_KEYVAL;
  return delete_attr(h, k);
}
