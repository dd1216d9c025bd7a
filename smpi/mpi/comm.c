/* comm.c: communicators — per-rank objects, context ids, and their collective creation.
 *
 * Creation of a communicator (worked example: MPI_Comm_split on MPI_COMM_WORLD of 4 ranks,
 * colors 0 1 0 1, the parent's 3rd creation):
 *
 *   rank r: seq = world->seq++ (= 3 on every rank: creations are collective, so in the
 *           same order everywhere)
 *           x = rendezvous "c:0:3" (parent ctx 0, seq 3); deposit (color, key)
 *           sync: every deposit is visible                        <- simulated time here
 *           result (computed by whichever member gets there first, shared by all):
 *               sort members by (color, key, parent rank): color 0 -> {0, 2}, 1 -> {1, 3}
 *               one smpi_group per color, shared by its members
 *           ctx = smpi_ctx_derive("c:0:3", color, size of the color)  -> fresh even id
 *           new per-rank object {group, rank in it, ctx, parent's error handler}
 *           leave x (the last one frees the shared result)
 *
 * Nothing in this scheme scans all ranks per member: the shared result is computed once
 * (O(n log n) for a split of n ranks), so a split of MPI_COMM_WORLD costs O(n log n) in
 * total, not O(n^2).
 *
 * Synchronisation and time: the members run the message pattern a real implementation
 * would, through the point-to-point layer on the parent's collective context, so a
 * creation costs simulated time and contends in the network like any other traffic:
 *
 *     MPI_Comm_dup, Cart_create, Graph_create, ...   binomial broadcast from rank 0 (4 B)
 *     MPI_Comm_split, Comm_create, Cart_sub, ...     gather to rank 0 (8 B each), then
 *                                                    rank 0 sends each member its part (8 B)
 *     MPI_Intercomm_create                           leaders exchange on the peer
 *                                                    communicator, then broadcast locally
 *
 * (the shapes SimGrid's SMPI shows for dup and split). The messages carry dummy bytes: the
 * deposits themselves stay in shared memory, visible once the pattern has made them
 * causally earlier, so a split of 100 000 ranks moves 100 000 small messages, not 100 000
 * lists of 100 000 colors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/attr.h"
#include "smpi/mpi/check.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/handle.h"
#include "smpi/mpi/p2p.h"
#include "smpi/runtime/world.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/strmap.h"

LOG_NEW_SUBCATEGORY(smpi_comm, smpi, "MPI communicators, groups, attributes, topologies");
LOG_DEFAULT_CATEGORY(smpi_comm);

/* ---- the rendezvous ---- */

struct smpi_xchg {
  char *key;
  const char *fname;
  int n, arrived, left, width;
  int *ints;   /* n * width */
  void **ptrs; /* n */
  unsigned char *joined;
  void *result;
  void (*result_free)(void *);
};

static strmap *xchg_table;

smpi_xchg *smpi_xchg_join(const char *key, int n, int index, const int *mine, int width,
                          void *ptr, const char *fname)
{
  if (!xchg_table)
    xchg_table = strmap_new();
  smpi_xchg *x = strmap_get(xchg_table, key);
  if (!x) {
    x = xcalloc(1, sizeof *x);
    x->key = xstrdup(key);
    x->fname = fname;
    x->n = n;
    x->width = width;
    x->ints = xcalloc((size_t)n * (size_t)(width > 0 ? width : 1), sizeof *x->ints);
    x->ptrs = xcalloc((size_t)n, sizeof *x->ptrs);
    x->joined = xcalloc((size_t)n, 1);
    strmap_insert(xchg_table, key, x);
  }
  if (x->n != n || x->width != width || strcmp(x->fname, fname) != 0) {
    /* an erroneous program: members called different collectives on one communicator */
    smpi_rank *me = smpi_self();
    fflush(stdout);
    fprintf(stderr,
            "smpi: rank %d: %s does not match the call of the other members of the "
            "communicator (%s with %d members): collective calls must be made in the same "
            "order by all members (MPI_ERR_NOT_SAME)\n",
            me ? me->rank : -1, fname, x->fname, x->n);
    smpi_abort_job(MPI_ERR_NOT_SAME);
  }
  ASSERTF(index >= 0 && index < n && !x->joined[index], "member %d joins %s twice", index, key);
  x->joined[index] = 1;
  if (width > 0)
    memcpy(x->ints + (size_t)index * (size_t)width, mine, (size_t)width * sizeof *mine);
  x->ptrs[index] = ptr;
  x->arrived++;
  return x;
}

const char *smpi_xchg_key(const smpi_xchg *x) { return x->key; }
int smpi_xchg_members(const smpi_xchg *x) { return x->n; }
const int *smpi_xchg_ints(const smpi_xchg *x, int index)
{
  ASSERTF(x->joined[index], "%s: member %d's deposit read before it was made", x->fname, index);
  return x->ints + (size_t)index * (size_t)x->width;
}
void *smpi_xchg_ptr(const smpi_xchg *x, int index)
{
  ASSERTF(x->joined[index], "%s: member %d's deposit read before it was made", x->fname, index);
  return x->ptrs[index];
}

void *smpi_xchg_result(smpi_xchg *x, void *(*compute)(smpi_xchg *x, void *arg), void *arg,
                       void (*free_fn)(void *result))
{
  if (!x->result) {
    x->result = compute(x, arg);
    x->result_free = free_fn;
  }
  return x->result;
}

void smpi_xchg_leave(smpi_xchg *x)
{
  if (++x->left < x->n)
    return;
  strmap_remove(xchg_table, x->key, NULL);
  if (x->result && x->result_free)
    x->result_free(x->result);
  free(x->key);
  free(x->ints);
  free(x->ptrs);
  free(x->joined);
  free(x);
}

/* Side 0 of an intercommunicator comes first in member indexes. */
static void members_of(const smpi_comm *c, int *n, int *index)
{
  if (!c->remote) {
    *n = c->group->size;
    *index = c->rank;
    return;
  }
  *n = c->group->size + c->remote->size;
  *index = c->side == 0 ? c->rank : c->remote->size + c->rank;
}

static void parent_key(smpi_comm *c, char *key, size_t len)
{
  snprintf(key, len, "c:%u:%u", c->ctx, c->seq++);
}

/* ---- message patterns ---- */

/* Tags of the creation messages on a collective context (collective calls are made in the
 * same order by all members, so non-overtaking keeps them apart from other collectives'). */
enum { TAG_GATHER = 0x7ff00001, TAG_SCATTER, TAG_BCAST, TAG_LEADERS };

static const smpi_dt *byte_type(void) { return smpi_dt_get(MPI_BYTE); }

/* Binomial tree from root over the intracommunicator c (MPICH's and SimGrid's shape). */
static void pattern_bcast(smpi_comm *c, int root, size_t bytes, const char *fname)
{
  int n = c->group->size;
  if (n == 1)
    return;
  char *buf = xcalloc(bytes ? bytes : 1, 1);
  int rel = (c->rank - root + n) % n;
  smpi_p2p_set_activity(fname);
  int mask = 1;
  while (mask < n) {
    if (rel & mask) {
      smpi_p2p_recv(buf, bytes, byte_type(), (rel - mask + root) % n, TAG_BCAST, c, SMPI_P2P_COLL,
                    NULL);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n)
      smpi_p2p_send(buf, bytes, byte_type(), (rel + mask + root) % n, TAG_BCAST, c,
                    SMPI_P2P_COLL | SMPI_P2P_BLOCKING);
  smpi_p2p_set_activity(NULL);
  free(buf);
}

/* Members 0..n-1 of a subset of c (rank_of(i, arg): member i's rank in c; member 0 is the
 * root): all send `bytes` to the root, which then sends `bytes` to each, last member first. */
static void pattern_gather_scatter(smpi_comm *c, int n, int me, int (*rank_of)(int i, void *arg),
                                   void *arg, size_t bytes, int tag_up, int tag_down,
                                   const char *fname)
{
  if (n == 1)
    return;
  smpi_p2p_set_activity(fname);
  size_t b = bytes ? bytes : 1;
  if (me == 0) {
    char *bufs = xcalloc((size_t)n, b);
    smpi_req **reqs = xmalloc((size_t)n * sizeof *reqs);
    for (int i = 1; i < n; i++)
      reqs[i - 1] = smpi_p2p_irecv(bufs + (size_t)i * b, bytes, byte_type(), rank_of(i, arg),
                                   tag_up, c, SMPI_P2P_COLL);
    smpi_p2p_waitall((size_t)n - 1, reqs, NULL);
    for (int i = n - 1; i >= 1; i--)
      smpi_p2p_send(bufs + (size_t)i * b, bytes, byte_type(), rank_of(i, arg), tag_down, c,
                    SMPI_P2P_COLL | SMPI_P2P_BLOCKING);
    free(reqs);
    free(bufs);
  } else {
    char *buf = xcalloc(1, b);
    int root = rank_of(0, arg);
    smpi_p2p_send(buf, bytes, byte_type(), root, tag_up, c, SMPI_P2P_COLL | SMPI_P2P_BLOCKING);
    smpi_p2p_recv(buf, bytes, byte_type(), root, tag_down, c, SMPI_P2P_COLL, NULL);
    free(buf);
  }
  smpi_p2p_set_activity(NULL);
}

static int identity_rank(int i, void *arg)
{
  (void)arg;
  return i;
}

/* Leaders (local rank 0) exchange on the intercommunicator, then broadcast locally. */
static void pattern_inter(smpi_comm *c, size_t bytes, const char *fname)
{
  if (c->rank == 0) {
    char *b = xcalloc(2, bytes ? bytes : 1);
    smpi_p2p_set_activity(fname);
    smpi_p2p_sendrecv(b, bytes, byte_type(), 0, TAG_LEADERS, b + (bytes ? bytes : 1), bytes,
                      byte_type(), 0, TAG_LEADERS, c, SMPI_P2P_COLL, NULL);
    smpi_p2p_set_activity(NULL);
    free(b);
  }
  pattern_bcast(smpi_comm_local(c), 0, bytes, fname);
}

smpi_xchg *smpi_comm_xchg(smpi_comm *parent, const int *mine, int width, void *ptr,
                          smpi_sync pattern, size_t bytes, const char *fname)
{
  char key[64];
  int n, index;
  parent_key(parent, key, sizeof key);
  members_of(parent, &n, &index);
  smpi_xchg *x = smpi_xchg_join(key, n, index, mine, width, ptr, fname);
  if (parent->remote && pattern == SMPI_SYNC_ALL) {
    /* every deposit visible everywhere: each group gathers to its leader first (MPICH's
     * intercommunicator split: local gather, leaders exchange, local broadcast) */
    smpi_comm *l = smpi_comm_local(parent);
    pattern_gather_scatter(l, l->group->size, l->rank, identity_rank, NULL, bytes, TAG_GATHER,
                           TAG_SCATTER, fname);
    pattern_inter(parent, bytes, fname);
  } else if (parent->remote)
    pattern_inter(parent, bytes, fname);
  else if (pattern == SMPI_SYNC_BCAST)
    pattern_bcast(parent, 0, bytes, fname);
  else
    pattern_gather_scatter(parent, n, index, identity_rank, NULL, bytes, TAG_GATHER, TAG_SCATTER,
                           fname);
  return x;
}

/* ---- per-rank objects ---- */

typedef struct rank_comms {
  smpi_comm *world, *self;
} rank_comms;

static rank_comms *per_rank;
static int per_rank_n;
static smpi_group *world_group;
static char predefined_placeholder; /* the handle table needs a non-NULL object */
static bool warned_foreign;

static smpi_comm *comm_alloc(int owner, smpi_group *g, smpi_group *remote, int side, uint32_t ctx)
{
  smpi_comm *c = xcalloc(1, sizeof *c);
  c->owner = owner;
  c->refs = 1;
  c->group = g;
  c->remote = remote;
  c->side = side;
  c->rank = smpi_group_rank_of(g, owner);
  ASSERTF(c->rank != MPI_UNDEFINED, "rank %d is not in its new communicator", owner);
  c->ctx = ctx;
  c->info = MPI_INFO_NULL;
  return c;
}

static void comm_register(smpi_comm *c)
{
  c->handle = smpi_handle_new(SMPI_KIND_COMM, c);
  snprintf(c->dname, sizeof c->dname, "communicator %#x", (unsigned)c->handle);
}

smpi_comm *smpi_comm_new_intra(smpi_comm *parent, smpi_group *g, uint32_t ctx)
{
  smpi_comm *c = comm_alloc(smpi_self()->rank, g, NULL, 0, ctx);
  c->eh = smpi_errhandler_ref(parent->eh);
  comm_register(c);
  return c;
}

static smpi_comm *new_inter(smpi_comm *parent, smpi_group *local, smpi_group *remote, int side,
                            uint32_t ctx)
{
  smpi_comm *c = comm_alloc(smpi_self()->rank, local, remote, side, ctx);
  c->eh = smpi_errhandler_ref(parent->eh);
  comm_register(c);
  return c;
}

/* The hidden intracommunicator of an intercommunicator's local group (for the local
 * phase of its creation patterns), made on first use with an id all local members derive. */
smpi_comm *smpi_comm_local(smpi_comm *c)
{
  if (!c->local) {
    char key[64];
    snprintf(key, sizeof key, "L:%u:%d", c->ctx, c->side);
    smpi_comm *l = comm_alloc(c->owner, smpi_group_ref(c->group), NULL, 0,
                              smpi_ctx_derive(key, 0, c->group->size));
    l->handle = MPI_COMM_NULL;
    l->eh = smpi_errhandler_ref(c->eh);
    snprintf(l->dname, sizeof l->dname, "local group of %#x", (unsigned)c->handle);
    c->local = l;
  }
  return c->local;
}

void smpi_comm_world_setup(int np)
{
  smpi_handle_set_predefined(MPI_COMM_WORLD, &predefined_placeholder);
  smpi_handle_set_predefined(MPI_COMM_SELF, &predefined_placeholder);
  smpi_group_setup_predefined();
  smpi_errhandler_setup_predefined();
  smpi_info_setup_predefined();
  smpi_attr_setup_predefined();
  smpi_ctx_setup(np);
  per_rank = xrealloc(per_rank, (size_t)(np > 0 ? np : 1) * sizeof *per_rank);
  for (int i = per_rank_n; i < np; i++)
    per_rank[i] = (rank_comms){NULL, NULL};
  per_rank_n = np;
  if (!world_group || world_group->size != np) {
    smpi_group_unref(world_group);
    world_group = smpi_group_identity(np);
  }
}

void smpi_comm_rank_init(int w)
{
  ASSERT(w >= 0 && w < per_rank_n);
  if (per_rank[w].world)
    return;
  smpi_comm *c = comm_alloc(w, smpi_group_ref(world_group), NULL, 0, 0);
  c->handle = MPI_COMM_WORLD;
  c->eh = smpi_errhandler_ref(smpi_errhandler_default());
  snprintf(c->dname, sizeof c->dname, "MPI_COMM_WORLD");
  per_rank[w].world = c;
}

static smpi_comm *self_of(int w)
{
  if (!per_rank[w].self) {
    /* created on first use: most programs never touch MPI_COMM_SELF, and a group per rank
     * adds up at 100 000 ranks */
    int *member = xmalloc(sizeof *member);
    *member = w;
    smpi_comm *c = comm_alloc(w, smpi_group_new(member, 1), NULL, 0, 2u * ((uint32_t)w + 1u));
    c->handle = MPI_COMM_SELF;
    /* its own default, not whatever MPI_COMM_WORLD has been given meanwhile */
    c->eh = smpi_errhandler_ref(smpi_errhandler_default());
    snprintf(c->dname, sizeof c->dname, "MPI_COMM_SELF");
    per_rank[w].self = c;
  }
  return per_rank[w].self;
}

smpi_comm *smpi_comm_world_of(int w)
{
  return w >= 0 && w < per_rank_n ? per_rank[w].world : NULL;
}

smpi_comm *smpi_comm_get(MPI_Comm h)
{
  smpi_rank *me = smpi_self();
  if (h == MPI_COMM_WORLD || h == MPI_COMM_SELF) {
    if (!me || me->rank >= per_rank_n || !per_rank[me->rank].world)
      return NULL;
    return h == MPI_COMM_WORLD ? per_rank[me->rank].world : self_of(me->rank);
  }
  if (smpi_handle_is_predefined(h))
    return NULL;
  smpi_comm *c = smpi_handle_get(h, SMPI_KIND_COMM);
  if (c && me && c->owner != me->rank) {
    if (!warned_foreign) {
      warned_foreign = true;
      LOG_WARN("rank %d uses communicator handle %#x, which belongs to rank %d: a handle kept "
               "in a global variable shared by all ranks? (run with "
               "--cfg=smpi/privatization:yes)",
               me->rank, (unsigned)h, c->owner);
    }
    return NULL;
  }
  return c;
}

void smpi_comm_ref(smpi_comm *c) { c->refs++; }

void smpi_comm_unref(smpi_comm *c)
{
  ASSERT(c->refs > 0);
  if (--c->refs > 0)
    return;
  smpi_group_unref(c->group);
  smpi_group_unref(c->remote);
  smpi_errhandler_unref(c->eh);
  smpi_info_free_handle(c->info);
  smpi_topo_unref(c->topo);
  strmap_free(c->counters);
  if (c->local)
    smpi_comm_unref(c->local);
  free(c->name);
  free(c);
}

void smpi_comm_rank_finalize(int w)
{
  if (w < 0 || w >= per_rank_n || !per_rank[w].self)
    return;
  smpi_attr_delete_all(MPI_COMM_SELF);
}

/* ---- accessors (comm.h) ---- */

int smpi_comm_size(const smpi_comm *c) { return c->group->size; }
int smpi_comm_rank(const smpi_comm *c) { return c->rank; }
int smpi_comm_remote_size(const smpi_comm *c) { return c->remote ? c->remote->size : 0; }
bool smpi_comm_is_inter(const smpi_comm *c) { return c->remote != NULL; }
int smpi_comm_world_rank(const smpi_comm *c, int rank)
{
  return smpi_group_world_of(c->remote ? c->remote : c->group, rank);
}
int smpi_comm_local_world_rank(const smpi_comm *c, int r)
{
  return smpi_group_world_of(c->group, r);
}
int smpi_comm_rank_of_world(const smpi_comm *c, int w) { return smpi_group_rank_of(c->group, w); }
uint32_t smpi_comm_p2p_context(const smpi_comm *c) { return c->ctx; }
uint32_t smpi_comm_coll_context(const smpi_comm *c) { return c->ctx + 1; }
MPI_Comm smpi_comm_handle(const smpi_comm *c) { return c->handle; }
const char *smpi_comm_display_name(const smpi_comm *c) { return c->name ? c->name : c->dname; }

/* ---- what the MPI functions do once their arguments are checked (smpi/bindings/comm.c) ---- */

int smpi_comm_compare(const smpi_comm *a, const smpi_comm *b)
{
  if (a == b)
    return MPI_IDENT;
  if ((a->remote == NULL) != (b->remote == NULL))
    return MPI_UNEQUAL;
  int r = smpi_group_compare(a->group, b->group);
  if (a->remote) {
    int rr = smpi_group_compare(a->remote, b->remote);
    r = rr > r ? rr : r; /* IDENT < SIMILAR < UNEQUAL */
  }
  return r == MPI_IDENT ? MPI_CONGRUENT : r;
}

void smpi_comm_set_name(smpi_comm *c, const char *name)
{
  free(c->name);
  c->name = xstrndup(name, MPI_MAX_OBJECT_NAME - 1);
}

void smpi_comm_get_name(const smpi_comm *c, char *name, int *len)
{
  /* the predefined communicators are named; others are "" until named, as in MPICH */
  const char *s = c->name                       ? c->name
                  : c->handle == MPI_COMM_WORLD ? "MPI_COMM_WORLD"
                  : c->handle == MPI_COMM_SELF  ? "MPI_COMM_SELF"
                                                : "";
  size_t n = strlen(s);
  memcpy(name, s, n + 1);
  *len = (int)n;
}

void smpi_comm_set_info(smpi_comm *c, MPI_Info info)
{
  smpi_info_free_handle(c->info);
  c->info = smpi_info_dup_handle(info);
}

MPI_Info smpi_comm_get_info(const smpi_comm *c)
{
  /* the hints given are all "used": smpi ignores them alike */
  return c->info != MPI_INFO_NULL ? smpi_info_dup_handle(c->info) : smpi_info_new_handle();
}

/* ---- free ---- */

int smpi_comm_free(smpi_comm *c)
{
  MPI_Comm h = c->handle;
  ASSERTF(h != MPI_COMM_WORLD && h != MPI_COMM_SELF && h != MPI_COMM_NULL,
          "communicator %s cannot be freed", smpi_comm_display_name(c));
  int rc = smpi_attr_delete_all(h);
  smpi_check_comm_freed(c);
  smpi_handle_free(h);
  c->freed = true;
  smpi_comm_unref(c);
  return rc;
}

/* ---- duplication ---- */

/* The new object for a duplicate of c with context ctx (attributes copied by the caller). */
static smpi_comm *dup_object(smpi_comm *c, uint32_t ctx, MPI_Info info)
{
  smpi_comm *n = c->remote ? new_inter(c, smpi_group_ref(c->group), smpi_group_ref(c->remote),
                                       c->side, ctx)
                           : smpi_comm_new_intra(c, smpi_group_ref(c->group), ctx);
  n->info = smpi_info_dup_handle(info);
  n->topo = c->topo ? smpi_topo_ref(c->topo) : NULL;
  return n;
}

static int finish_dup(smpi_comm *c, smpi_comm *n, smpi_comm **out)
{
  int rc = smpi_attr_copy_all(c->handle, n->handle);
  if (rc != MPI_SUCCESS) {
    smpi_handle_free(n->handle);
    smpi_comm_unref(n);
    *out = NULL;
    return rc;
  }
  *out = n;
  return MPI_SUCCESS;
}

static int dup_with_info(smpi_comm *c, MPI_Info info, smpi_comm **out, const char *fname)
{
  smpi_xchg *x = smpi_comm_xchg(c, NULL, 0, NULL, SMPI_SYNC_BCAST, 4, fname);
  uint32_t ctx = smpi_ctx_derive(smpi_xchg_key(x), 0, smpi_xchg_members(x));
  smpi_xchg_leave(x);
  return finish_dup(c, dup_object(c, ctx, info), out);
}

int smpi_comm_dup(smpi_comm *c, smpi_comm **out, const char *fname)
{
  return dup_with_info(c, c->info, out, fname);
}

int smpi_comm_dup_with_info(smpi_comm *c, MPI_Info info, smpi_comm **out, const char *fname)
{
  return dup_with_info(c, info, out, fname);
}

int smpi_comm_idup(smpi_comm *c, smpi_comm **out)
{
  /* The context id needs no agreement (it is derived), so the duplicate is complete at
   * once: no simulated time is spent. */
  char key[64];
  int n, index;
  parent_key(c, key, sizeof key);
  members_of(c, &n, &index);
  return finish_dup(c, dup_object(c, smpi_ctx_derive(key, 0, n), c->info), out);
}

/* ---- split ---- */

typedef struct split_entry {
  int color, key, index;
} split_entry;

typedef struct split_result {
  int n;
  smpi_group **group_of; /* per member: its color's group, NULL for MPI_UNDEFINED */
} split_result;

static int split_cmp(const void *pa, const void *pb)
{
  const split_entry *a = pa, *b = pb;
  if (a->color != b->color)
    return a->color < b->color ? -1 : 1;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

static void *split_compute(smpi_xchg *x, void *arg)
{
  smpi_group *parent = arg;
  int n = smpi_xchg_members(x);
  split_result *r = xmalloc(sizeof *r);
  r->n = n;
  r->group_of = xcalloc((size_t)n, sizeof *r->group_of);
  split_entry *e = xmalloc((size_t)(n ? n : 1) * sizeof *e);
  int m = 0;
  for (int i = 0; i < n; i++) {
    const int *v = smpi_xchg_ints(x, i);
    if (v[0] != MPI_UNDEFINED)
      e[m++] = (split_entry){v[0], v[1], i};
  }
  qsort(e, (size_t)m, sizeof *e, split_cmp);
  for (int s = 0; s < m;) {
    int t = s;
    while (t < m && e[t].color == e[s].color)
      t++;
    bool same = t - s == n; /* everybody, in the parent's order: share the parent's group */
    for (int i = s; i < t && same; i++)
      same = e[i].index == i;
    smpi_group *g;
    if (same) {
      g = parent;
      g->refs += n; /* one reference per member, below */
    } else {
      int *w = xmalloc((size_t)(t - s) * sizeof *w);
      for (int i = s; i < t; i++)
        w[i - s] = smpi_group_world_of(parent, e[i].index);
      g = smpi_group_new(w, t - s);
      g->refs = t - s;
    }
    for (int i = s; i < t; i++)
      r->group_of[e[i].index] = g;
    s = t;
  }
  free(e);
  return r;
}

static void split_free(void *p)
{
  split_result *r = p;
  free(r->group_of);
  free(r);
}

/* The members of side `side` of intercommunicator c (member indexes: side 0 first) that
 * passed `color`, ordered by key then by rank: a new group, or NULL when there are none. */
static smpi_group *inter_split_side(smpi_comm *c, smpi_xchg *x, int side, int color)
{
  const smpi_group *s0 = c->side == 0 ? c->group : c->remote;
  const smpi_group *g = side == c->side ? c->group : c->remote;
  int first = side == 0 ? 0 : s0->size;
  split_entry *e = xmalloc((size_t)g->size * sizeof *e);
  int m = 0;
  for (int i = 0; i < g->size; i++) {
    const int *v = smpi_xchg_ints(x, first + i);
    if (v[0] == color)
      e[m++] = (split_entry){v[0], v[1], i};
  }
  smpi_group *r = NULL;
  if (m > 0) {
    qsort(e, (size_t)m, sizeof *e, split_cmp);
    int *w = xmalloc((size_t)m * sizeof *w);
    for (int i = 0; i < m; i++)
      w[i] = smpi_group_world_of(g, e[i].index);
    r = smpi_group_new(w, m);
  }
  free(e);
  return r;
}

/* MPI 3.1 section 6.4.2: on an intercommunicator, the processes of each color form an
 * intercommunicator of those of either group; a color found in one group only gives
 * MPI_COMM_NULL. Every member builds its own two groups from the deposits. */
static int inter_split(smpi_comm *c, int color, int key, smpi_comm **out, const char *fname)
{
  int mine[2] = {color, key};
  smpi_xchg *x = smpi_comm_xchg(c, mine, 2, NULL, SMPI_SYNC_ALL, 8, fname);
  if (color != MPI_UNDEFINED) {
    smpi_group *local = inter_split_side(c, x, c->side, color);
    smpi_group *remote = inter_split_side(c, x, 1 - c->side, color);
    if (local && remote) {
      uint32_t ctx = smpi_ctx_derive(smpi_xchg_key(x), color, local->size + remote->size);
      *out = new_inter(c, local, remote, c->side, ctx);
    } else {
      if (local)
        smpi_group_unref(local);
      if (remote)
        smpi_group_unref(remote);
    }
  }
  smpi_xchg_leave(x);
  return MPI_SUCCESS;
}

int smpi_comm_split(smpi_comm *c, int color, int key, smpi_comm **out, const char *fname)
{
  *out = NULL;
  if (c->remote)
    return inter_split(c, color, key, out, fname);
  int mine[2] = {color, key};
  smpi_xchg *x = smpi_comm_xchg(c, mine, 2, NULL, SMPI_SYNC_ALL, 8, fname);
  split_result *r = smpi_xchg_result(x, split_compute, c->group, split_free);
  smpi_group *g = r->group_of[c->rank]; /* carries this member's reference */
  if (g)
    *out = smpi_comm_new_intra(c, g, smpi_ctx_derive(smpi_xchg_key(x), color, g->size));
  smpi_xchg_leave(x);
  /* then each new communicator settles its context from its rank 0, as SimGrid does */
  if (*out)
    pattern_bcast(*out, 0, 4, fname);
  return MPI_SUCCESS;
}

static void *prefix_compute(smpi_xchg *x, void *arg)
{
  smpi_comm *c = arg;
  int size = smpi_xchg_ints(x, 0)[0]; /* rank 0's: the broadcast made it visible */
  if (size == 0)
    return NULL;
  if (size == c->group->size) {
    c->group->refs += size; /* one reference per member */
    return c->group;
  }
  int *w = xmalloc((size_t)(size > 0 ? size : 1) * sizeof *w);
  for (int i = 0; i < size; i++)
    w[i] = smpi_group_world_of(c->group, i);
  smpi_group *g = smpi_group_new(w, size);
  g->refs = size;
  return g;
}

void smpi_comm_prefix_internal(smpi_comm *c, int size, smpi_comm **out, const char *fname)
{
  *out = NULL;
  smpi_xchg *x = smpi_comm_xchg(c, &size, 1, NULL, SMPI_SYNC_BCAST, 4, fname);
  smpi_group *g = smpi_xchg_result(x, prefix_compute, c, NULL);
  if (c->rank < size)
    *out = smpi_comm_new_intra(c, g, smpi_ctx_derive(smpi_xchg_key(x), 0, size));
  smpi_xchg_leave(x);
}

/* ---- creation from groups ---- */

static void *first_group(smpi_xchg *x, void *arg)
{
  (void)x;
  return smpi_group_ref(arg);
}

static void group_unref_void(void *g) { smpi_group_unref(g); }

/* The communicator of group g (a subset of c, me = my rank in it) whose members all call
 * this with the same key and color: no message but the broadcast from rank 0 in the new
 * communicator (4 B), which is SimGrid's cost for MPI_Comm_create. */
static smpi_comm *create_among(smpi_comm *c, smpi_group *g, int me, const char *key, int color,
                               const char *fname)
{
  char k[128];
  snprintf(k, sizeof k, "%s:%d", key, color);
  smpi_xchg *x = smpi_xchg_join(k, g->size, me, NULL, 0, g, fname);
  /* the first member's group is shared by all, unless the program passed different groups,
   * which is erroneous: then each keeps its own */
  smpi_group *canon = smpi_xchg_result(x, first_group, g, group_unref_void);
  smpi_group *use = smpi_group_equal(canon, g) ? canon : g;
  smpi_comm *n = smpi_comm_new_intra(c, smpi_group_ref(use),
                                     smpi_ctx_derive(key, color, g->size));
  smpi_xchg_leave(x);
  pattern_bcast(n, 0, 4, fname);
  return n;
}

/* What MPI_Comm_create on an intercommunicator settles: each side's group (copies). */
typedef struct inter_create_result {
  smpi_group *g[2]; /* by side; NULL when empty */
} inter_create_result;

static void *inter_create_compute(smpi_xchg *x, void *arg)
{
  const smpi_comm *c = arg;
  int size0 = c->side == 0 ? c->group->size : c->remote->size;
  inter_create_result *r = xcalloc(1, sizeof *r);
  for (int side = 0; side < 2; side++) {
    /* the leader's group stands for its side's (the standard wants them all equal); the
     * result is computed before either leader returns, so its group is still alive */
    const smpi_group *g = smpi_xchg_ptr(x, side == 0 ? 0 : size0);
    if (g->size == 0)
      continue;
    int *w = xmalloc((size_t)g->size * sizeof *w);
    for (int i = 0; i < g->size; i++)
      w[i] = smpi_group_world_of(g, i);
    r->g[side] = smpi_group_new(w, g->size);
  }
  return r;
}

static void inter_create_free(void *p)
{
  inter_create_result *r = p;
  for (int i = 0; i < 2; i++)
    if (r->g[i])
      smpi_group_unref(r->g[i]);
  free(r);
}

/* MPI 3.1 section 6.4.2: each group passes a subgroup of itself; the members of both form
 * an intercommunicator, the others (and everyone, if a subgroup is empty) get
 * MPI_COMM_NULL. The leaders' groups are exchanged as in MPICH (leaders, then a broadcast
 * in each group). */
static int inter_create(smpi_comm *c, smpi_group *g, smpi_comm **out, const char *fname)
{
  smpi_xchg *x = smpi_comm_xchg(c, NULL, 0, g, SMPI_SYNC_BCAST, 8, fname);
  inter_create_result *r = smpi_xchg_result(x, inter_create_compute, c, inter_create_free);
  smpi_group *local = r->g[c->side], *remote = r->g[1 - c->side];
  if (local && remote && smpi_group_rank_of(local, c->owner) != MPI_UNDEFINED) {
    uint32_t ctx = smpi_ctx_derive(smpi_xchg_key(x), 0, local->size + remote->size);
    *out = new_inter(c, smpi_group_ref(local), smpi_group_ref(remote), c->side, ctx);
  }
  smpi_xchg_leave(x);
  return MPI_SUCCESS;
}

int smpi_comm_create(smpi_comm *c, smpi_group *g, smpi_comm **out, const char *fname)
{
  *out = NULL;
  if (c->remote)
    return inter_create(c, g, out, fname);
  /* MPI 2.2 semantics: each process passes the group it will belong to (disjoint groups),
   * or any group not containing it. Each group is settled among its members only, by a
   * broadcast from its rank 0 in the new communicator (SimGrid's cost); processes outside
   * get MPI_COMM_NULL at once. */
  char key[64];
  parent_key(c, key, sizeof key);
  int r = smpi_group_rank_of(g, c->owner);
  if (r != MPI_UNDEFINED)
    *out = create_among(c, g, r, key, smpi_group_world_of(g, 0), fname);
  return MPI_SUCCESS;
}

uint32_t smpi_comm_next_count(smpi_comm *c, const char *key)
{
  if (!c->counters)
    c->counters = strmap_new();
  /* stored as count + 1, so that an absent key (NULL) reads as 0 calls */
  uintptr_t v = (uintptr_t)strmap_get(c->counters, key);
  uintptr_t before = v ? v - 1 : 0;
  strmap_set(c->counters, key, (void *)(before + 2));
  return (uint32_t)before;
}

int smpi_comm_create_group(smpi_comm *c, smpi_group *g, int tag, smpi_comm **out,
                           const char *fname)
{
  *out = NULL;
  int me = smpi_group_rank_of(g, c->owner);
  if (c->remote || me == MPI_UNDEFINED)
    return c->remote ? MPI_ERR_COMM : MPI_ERR_GROUP;
  /* only the group's members call: they number their calls per (tag, group) themselves */
  char base[96], key[128];
  snprintf(base, sizeof base, "g:%u:%d:%llx:%d", c->ctx, tag, (unsigned long long)g->fp, g->size);
  snprintf(key, sizeof key, "%s:%u", base, smpi_comm_next_count(c, base));
  *out = create_among(c, g, me, key, 0, fname);
  return MPI_SUCCESS;
}

/* ---- intercommunicators ---- */

/* What a leader hands to the members of its local group. */
typedef struct inter_info {
  smpi_group *remote; /* one reference, released with the record */
  uint32_t ctx;
  int side;
} inter_info;

static void inter_info_free(void *p)
{
  inter_info *i = p;
  smpi_group_unref(i->remote);
  free(i);
}

static void *inter_info_take(smpi_xchg *x, void *arg)
{
  (void)x;
  return arg;
}

/* The local leader's part: meet the remote leader on the peer communicator p. */
static inter_info *leaders_meet(smpi_comm *c, smpi_comm *p, int remote_leader, int tag,
                                const char *fname)
{
  int mine = c->owner, other = smpi_comm_world_rank(p, remote_leader);
  int lo = mine < other ? mine : other, hi = mine < other ? other : mine;
  /* the two leaders meet on the peer communicator, numbering their meetings per pair */
  char base[96], key[128];
  snprintf(base, sizeof base, "i:%u:%d:%d:%d", p->ctx, tag, lo, hi);
  snprintf(key, sizeof key, "%s:%u", base, smpi_comm_next_count(p, base));
  int side = mine == lo ? 0 : 1;
  smpi_xchg *x = smpi_xchg_join(key, 2, side, NULL, 0, smpi_group_ref(c->group), fname);
  /* MPICH's exchange on peer_comm with the user's tag: group sizes, then members */
  const smpi_dt *int_type = smpi_dt_get(MPI_INT);
  int sizes[2] = {c->group->size, 0};
  smpi_p2p_set_activity(fname);
  smpi_p2p_sendrecv(&sizes[0], 1, int_type, remote_leader, tag, &sizes[1], 1, int_type,
                    remote_leader, tag, p, 0, NULL);
  int rsize = ((smpi_group *)smpi_xchg_ptr(x, 1 - side))->size;
  int *b = xcalloc((size_t)c->group->size + (size_t)rsize + 1, sizeof *b);
  smpi_p2p_sendrecv(b, (size_t)c->group->size, int_type, remote_leader, tag, b + c->group->size,
                    (size_t)rsize, int_type, remote_leader, tag, p, 0, NULL);
  smpi_p2p_set_activity(NULL);
  free(b);
  inter_info *info = xmalloc(sizeof *info);
  info->remote = smpi_xchg_ptr(x, 1 - side); /* the other leader's reference, now ours */
  info->ctx = smpi_ctx_derive(key, 0, 2);
  info->side = side;
  smpi_xchg_leave(x);
  return info;
}

int smpi_comm_intercomm_create(smpi_comm *c, int local_leader, smpi_comm *peer, int remote_leader,
                               int tag, smpi_comm **out, const char *fname)
{
  *out = NULL;
  if (c->remote)
    return MPI_ERR_COMM;
  inter_info *info = NULL;
  if (c->rank == local_leader)
    info = leaders_meet(c, peer, remote_leader, tag, fname);
  /* then each leader tells its local group */
  char key[64];
  parent_key(c, key, sizeof key);
  smpi_xchg *x = smpi_xchg_join(key, c->group->size, c->rank, NULL, 0, info, fname);
  if (info)
    smpi_xchg_result(x, inter_info_take, info, inter_info_free);
  /* the leader broadcasts the remote group's size and context, then its members */
  pattern_bcast(c, local_leader, 8, fname);
  const inter_info *i = smpi_xchg_ptr(x, local_leader);
  pattern_bcast(c, local_leader, 4 * (size_t)i->remote->size, fname);
  *out = new_inter(c, smpi_group_ref(c->group), smpi_group_ref(i->remote), i->side, i->ctx);
  smpi_xchg_leave(x);
  return MPI_SUCCESS;
}

typedef struct merge_result {
  smpi_group *merged; /* one reference per member */
  int first_side;
} merge_result;

static void *merge_compute(smpi_xchg *x, void *arg)
{
  const smpi_comm *c = arg;
  const smpi_group *side0 = c->side == 0 ? c->group : c->remote;
  const smpi_group *side1 = c->side == 0 ? c->remote : c->group;
  int high0 = smpi_xchg_ints(x, 0)[0], high1 = smpi_xchg_ints(x, side0->size)[0];
  merge_result *r = xmalloc(sizeof *r);
  /* the group that passed high = false comes first; on a tie, side 0 */
  r->first_side = (high0 && !high1) ? 1 : 0;
  const smpi_group *a = r->first_side == 0 ? side0 : side1;
  const smpi_group *b = r->first_side == 0 ? side1 : side0;
  int *w = xmalloc((size_t)(a->size + b->size) * sizeof *w);
  for (int i = 0; i < a->size; i++)
    w[i] = smpi_group_world_of(a, i);
  for (int i = 0; i < b->size; i++)
    w[a->size + i] = smpi_group_world_of(b, i);
  r->merged = smpi_group_new(w, a->size + b->size);
  r->merged->refs = a->size + b->size;
  return r;
}

int smpi_comm_intercomm_merge(smpi_comm *c, int high, smpi_comm **out, const char *fname)
{
  *out = NULL;
  if (!c->remote)
    return MPI_ERR_COMM;
  int mine = high ? 1 : 0;
  smpi_xchg *x = smpi_comm_xchg(c, &mine, 1, NULL, SMPI_SYNC_BCAST, 4, fname);
  merge_result *r = smpi_xchg_result(x, merge_compute, c, free);
  *out = smpi_comm_new_intra(c, r->merged,
                             smpi_ctx_derive(smpi_xchg_key(x), 0, smpi_xchg_members(x)));
  smpi_xchg_leave(x);
  return MPI_SUCCESS;
}
