/* Matching queues: MPI's matching order at O(1) for the common exact match.
 *
 * One node per (context, receiver, source) that has something pending, in one hash table;
 * source MPI_ANY_SOURCE names the receiver's "any" node:
 *
 *   node (ctx 0, rank 1, src 0):    posted: Irecv(src 0, tag 5) seq 7
 *                                   unexpected: msgA(tag 3) -> msgC(tag 3)      (slink)
 *   node (ctx 0, rank 1, src 2):    unexpected: msgB(tag 9)                      (slink)
 *   node (ctx 0, rank 1, ANY):      posted: Irecv(ANY, tag 9) seq 8
 *                                   unexpected: msgA -> msgB -> msgC (arrival)   (alink)
 *
 * - a message from s looks at the first tag-matching receive of node s and of node ANY and
 *   takes the one posted first (lower seq);
 * - a receive from s scans node s's unexpected list; a receive from ANY scans the arrival
 *   list of node ANY; either way the first tag match is the oldest one, as MPI requires;
 * - a node is freed once both its lists are empty, so memory follows what is pending, not
 *   how many pairs ever talked; except that each receiver keeps its last MQ_KEEP emptied
 *   nodes, and its emptied ANY node, in the table (mq_count.keep, keep_any) and checks them
 *   before hashing: a ring, a pair or a stencil's neighbours that talk again find their
 *   nodes without a probe, and pay no create and drop per message. So at most MQ_KEEP + 1
 *   empty nodes per receiver.
 * Scans only walk the operations pending between that pair (or at that receiver), never
 * anything elsewhere in the simulation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/p2p_private.h"
#include "src/invariant.h"
#include "src/mem.h"

typedef struct mq_node {
  uint32_t ctx;
  int32_t dst;
  int32_t src;
  list_node posted;
  list_node unexpected;
  struct mq_node *next_free;
} mq_node;

/* The hash sits next to the pointer, so a probe touches a node (a cache miss) only when the
 * hashes agree; the slot array itself is scanned sequentially. */
typedef struct mq_slot {
  uint64_t h;
  mq_node *n; /* NULL: empty */
} mq_slot;

/* Per receiver (world rank), over all contexts: ANY_SOURCE receives posted and unexpected
 * messages queued. Most receivers have neither, and then a message need not probe the
 * table for the receiver's ANY node, nor a receive for an unexpected message: with
 * thousands of ranks each probe is a cache miss or two. */
/* Kept nodes per receiver: a 2-D stencil's four neighbours, a ring's one. With a single one,
 * a receiver with four sources created and dropped a node per message (a hash insert, a
 * backward-shift deletion) and probed the table twice (tests/per_message counts the creates). */
#define MQ_KEEP 4

typedef struct mq_count {
  uint32_t any_posted;
  uint32_t posted; /* all its posted receives, ANY_SOURCE ones included (mq_posted_by) */
  uint32_t unexpected;
  /* in the table, possibly empty: the nodes of the sources this receiver emptied last (each
   * with its source beside it, so a look for another source reads no node), and its ANY
   * node (a slot of its own, so that emptying one kind never drops the other) */
  mq_node *keep_any;
  int32_t keep_src[MQ_KEEP];
  mq_node *keep[MQ_KEEP];
  uint8_t keep_next; /* the slot a newly emptied node takes when none is free */
} mq_count;

static struct match_state {
  mq_slot *slots; /* open addressing, linear probing */
  size_t cap;     /* power of two, or 0 */
  size_t count;
  mq_node *free_nodes;
  size_t free_count;
  mq_count *per_rank;
  size_t nper_rank;
  size_t creates; /* nodes created so far (mq_nodes_created) */
} matching;

static mq_count *count_of(int dst)
{
  ASSERT(dst >= 0);
  if ((size_t)dst >= matching.nper_rank) {
    size_t n = matching.nper_rank ? matching.nper_rank : 64;
    while (n <= (size_t)dst)
      n *= 2;
    matching.per_rank = xrealloc(matching.per_rank, n * sizeof *matching.per_rank);
    memset(matching.per_rank + matching.nper_rank, 0,
           (n - matching.nper_rank) * sizeof *matching.per_rank);
    matching.nper_rank = n;
  }
  return &matching.per_rank[dst];
}

static uint64_t key_hash(uint32_t ctx, int32_t dst, int32_t src)
{
  uint64_t x = ((uint64_t)ctx << 32) ^ (uint32_t)dst;
  x ^= (uint64_t)(uint32_t)src * 0x9e3779b97f4a7c15ull;
  /* splitmix64 finalizer */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

static mq_node *lookup(uint32_t ctx, int dst, int src)
{
  if (!matching.cap)
    return NULL;
  size_t mask = matching.cap - 1;
  uint64_t h = key_hash(ctx, dst, src);
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    mq_node *n = matching.slots[i].n;
    if (!n)
      return NULL;
    if (matching.slots[i].h == h && n->ctx == ctx && n->dst == dst && n->src == src)
      return n;
  }
}

static void place(mq_slot e)
{
  size_t mask = matching.cap - 1;
  size_t i = (size_t)e.h & mask;
  while (matching.slots[i].n)
    i = (i + 1) & mask;
  matching.slots[i] = e;
}

static void grow(void)
{
  mq_slot *old = matching.slots;
  size_t oldcap = matching.cap;
  matching.cap = oldcap ? oldcap * 2 : 64;
  matching.slots = xcalloc(matching.cap, sizeof *matching.slots);
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].n)
      place(old[i]);
  free(old);
}

/* A new node for a key that lookup just did not find. */
static mq_node *create(uint32_t ctx, int dst, int src)
{
  mq_node *n;
  if ((matching.count + 1) * 4 > matching.cap * 3)
    grow();
  if (matching.free_nodes) {
    n = matching.free_nodes;
    matching.free_nodes = n->next_free;
    matching.free_count--;
  } else {
    n = xmalloc(sizeof *n);
  }
  n->ctx = ctx;
  n->dst = dst;
  n->src = src;
  list_init(&n->posted);
  list_init(&n->unexpected);
  n->next_free = NULL;
  place((mq_slot){key_hash(ctx, dst, src), n});
  matching.count++;
  matching.creates++;
  return n;
}

/* lookup, trying the receiver's kept node first */
static mq_node *find(const mq_count *cnt, uint32_t ctx, int dst, int src)
{
  if (src == MPI_ANY_SOURCE) {
    mq_node *k = cnt->keep_any;
    if (k && k->ctx == ctx)
      return k;
  } else {
    for (int i = 0; i < MQ_KEEP; i++) {
      mq_node *k = cnt->keep[i];
      if (cnt->keep_src[i] == src && k && k->ctx == ctx)
        return k;
    }
  }
  return lookup(ctx, dst, src);
}

static mq_node *get_or_create(const mq_count *cnt, uint32_t ctx, int dst, int src)
{
  mq_node *n = find(cnt, ctx, dst, src);
  return n ? n : create(ctx, dst, src);
}

/* Removes n from the table (backward-shift deletion keeps probe chains intact). */
static void drop(mq_node *n)
{
  size_t mask = matching.cap - 1;
  size_t i = (size_t)key_hash(n->ctx, n->dst, n->src) & mask;
  while (matching.slots[i].n != n)
    i = (i + 1) & mask;
  matching.slots[i] = (mq_slot){0, NULL};
  for (size_t j = (i + 1) & mask; matching.slots[j].n; j = (j + 1) & mask) {
    size_t h = (size_t)matching.slots[j].h & mask;
    /* move slots[j] into the hole at i unless its home lies in (i, j] (cyclically) */
    bool in_range = i <= j ? (h > i && h <= j) : (h > i || h <= j);
    if (!in_range) {
      matching.slots[i] = matching.slots[j];
      matching.slots[j] = (mq_slot){0, NULL};
      i = j;
    }
  }
  matching.count--;
  if (matching.free_count < P2P_FREE_LIST_MAX) {
    n->next_free = matching.free_nodes;
    matching.free_nodes = n;
    matching.free_count++;
  } else {
    free(n);
  }
}

static bool node_empty(const mq_node *n)
{
  return list_empty(&n->posted) && list_empty(&n->unexpected);
}

/* n (of receiver cnt) may have become empty: it becomes one of the receiver's kept nodes of
 * its kind (ANY or not), and the one kept in that slot before goes if it is empty. A node
 * is in at most one slot. */
static void release_if_empty(mq_count *cnt, mq_node *n)
{
  if (!n || !node_empty(n))
    return;
  mq_node **slot;
  if (n->src == MPI_ANY_SOURCE) {
    slot = &cnt->keep_any;
    if (*slot == n)
      return;
  } else {
    int free_i = -1;
    for (int i = 0; i < MQ_KEEP; i++) {
      if (cnt->keep[i] == n)
        return;
      if (!cnt->keep[i] && free_i < 0)
        free_i = i;
    }
    if (free_i < 0) {
      free_i = cnt->keep_next;
      cnt->keep_next = (uint8_t)((cnt->keep_next + 1) % MQ_KEEP);
    }
    slot = &cnt->keep[free_i];
    cnt->keep_src[free_i] = n->src;
  }
  mq_node *old = *slot;
  *slot = n;
  if (old && node_empty(old))
    drop(old);
}

static bool tag_ok(int want, int have) { return want == MPI_ANY_TAG || want == have; }

static smpi_req *first_posted(mq_node *n, int tag)
{
  if (!n)
    return NULL;
  list_foreach (it, &n->posted) {
    smpi_req *r = list_entry(it, smpi_req, qlink);
    if (tag_ok(r->tag, tag))
      return r;
  }
  return NULL;
}

smpi_req *mq_arrive(p2p_msg *m)
{
  ASSERT(!m->queued);
  mq_count *cnt = count_of(m->dst_world);
  mq_node *ns = find(cnt, m->ctx, m->dst_world, m->src);
  /* the ANY node exists when the receiver has an ANY_SOURCE receive posted or unexpected
   * messages (their arrival list): otherwise skip the probe */
  bool any_node = cnt->any_posted || cnt->unexpected;
  mq_node *na = any_node ? find(cnt, m->ctx, m->dst_world, MPI_ANY_SOURCE) : NULL;
  smpi_req *a = first_posted(ns, m->tag);
  smpi_req *b = cnt->any_posted ? first_posted(na, m->tag) : NULL;
  smpi_req *r = a && b ? (a->seq < b->seq ? a : b) : a ? a : b;
  if (r) {
    list_remove(&r->qlink);
    r->queued = false;
    cnt->posted--;
    if (r == b)
      cnt->any_posted--;
    release_if_empty(cnt, r == a ? ns : na);
    return r;
  }
  if (!ns)
    ns = create(m->ctx, m->dst_world, m->src);
  if (!na)
    na = any_node ? create(m->ctx, m->dst_world, MPI_ANY_SOURCE)
                  : get_or_create(cnt, m->ctx, m->dst_world, MPI_ANY_SOURCE);
  list_push_back(&ns->unexpected, &m->slink);
  list_push_back(&na->unexpected, &m->alink);
  m->queued = true;
  cnt->unexpected++;
  return NULL;
}

static p2p_msg *first_unexpected(const mq_count *cnt, uint32_t ctx, int dst, int src, int tag,
                                 mq_node **node_out)
{
  mq_node *n = find(cnt, ctx, dst, src);
  *node_out = n;
  if (!n)
    return NULL;
  if (src == MPI_ANY_SOURCE) {
    list_foreach (it, &n->unexpected) {
      p2p_msg *m = list_entry(it, p2p_msg, alink);
      if (tag_ok(tag, m->tag))
        return m;
    }
  } else {
    list_foreach (it, &n->unexpected) {
      p2p_msg *m = list_entry(it, p2p_msg, slink);
      if (tag_ok(tag, m->tag))
        return m;
    }
  }
  return NULL;
}

p2p_msg *mq_peek(uint32_t ctx, int dst_world, int src, int tag)
{
  mq_node *n;
  return first_unexpected(count_of(dst_world), ctx, dst_world, src, tag, &n);
}

void mq_remove_msg(p2p_msg *m)
{
  ASSERT(m->queued);
  mq_count *cnt = count_of(m->dst_world);
  mq_node *ns = find(cnt, m->ctx, m->dst_world, m->src);
  mq_node *na = find(cnt, m->ctx, m->dst_world, MPI_ANY_SOURCE);
  ASSERT(ns && na);
  list_remove(&m->slink);
  list_remove(&m->alink);
  m->queued = false;
  cnt->unexpected--;
  release_if_empty(cnt, ns);
  release_if_empty(cnt, na);
}

p2p_msg *mq_post_recv(smpi_req *r)
{
  ASSERT(!r->queued);
  mq_count *cnt = count_of(r->owner);
  mq_node *n = NULL;
  bool looked = false;
  if (cnt->unexpected) { /* else nothing can match: no probe */
    p2p_msg *m = first_unexpected(cnt, r->ctx, r->owner, r->peer, r->tag, &n);
    if (m) {
      mq_remove_msg(m);
      return m;
    }
    looked = true;
  }
  if (!n)
    n = looked ? create(r->ctx, r->owner, r->peer)
               : get_or_create(cnt, r->ctx, r->owner, r->peer);
  list_push_back(&n->posted, &r->qlink);
  r->queued = true;
  cnt->posted++;
  if (r->peer == MPI_ANY_SOURCE)
    cnt->any_posted++;
  return NULL;
}

void mq_remove_recv(smpi_req *r)
{
  ASSERT(r->queued);
  mq_count *cnt = count_of(r->owner);
  mq_node *n = find(cnt, r->ctx, r->owner, r->peer);
  ASSERT(n);
  list_remove(&r->qlink);
  r->queued = false;
  cnt->posted--;
  if (r->peer == MPI_ANY_SOURCE)
    cnt->any_posted--;
  release_if_empty(cnt, n);
}

/* ---- whole-rank walks, for reports (MPI_Finalize, deadlocks) ----
 * A message or request carries no list of its own per rank (16 bytes each, on millions of
 * objects): what a rank has pending is found here by walking the table, which only happens
 * when the rank's counter says there is something, and sorting by posting order. */

static int by_msg_seq(const void *a, const void *b)
{
  uint64_t x = (*(p2p_msg *const *)a)->seq, y = (*(p2p_msg *const *)b)->seq;
  return (x > y) - (x < y);
}

static int by_req_seq(const void *a, const void *b)
{
  uint64_t x = (*(smpi_req *const *)a)->seq, y = (*(smpi_req *const *)b)->seq;
  return (x > y) - (x < y);
}

static const mq_count *count_if_any(int dst)
{
  return dst >= 0 && (size_t)dst < matching.nper_rank ? &matching.per_rank[dst] : NULL;
}

size_t mq_unexpected_to(int dst, p2p_msg ***out)
{
  const mq_count *cnt = count_if_any(dst);
  *out = NULL;
  if (!cnt || !cnt->unexpected)
    return 0;
  size_t n = 0;
  p2p_msg **v = xmalloc(cnt->unexpected * sizeof *v);
  for (size_t i = 0; i < matching.cap; i++) {
    mq_node *q = matching.slots[i].n;
    if (!q || q->dst != dst || q->src != MPI_ANY_SOURCE)
      continue;
    list_foreach (it, &q->unexpected) {
      ASSERT(n < cnt->unexpected);
      v[n++] = list_entry(it, p2p_msg, alink);
    }
  }
  ASSERT(n == cnt->unexpected);
  qsort(v, n, sizeof *v, by_msg_seq);
  *out = v;
  return n;
}

size_t mq_posted_by(int dst, smpi_req ***out)
{
  const mq_count *cnt = count_if_any(dst);
  *out = NULL;
  if (!cnt || !cnt->posted)
    return 0;
  size_t n = 0;
  smpi_req **v = xmalloc(cnt->posted * sizeof *v);
  for (size_t i = 0; i < matching.cap; i++) {
    mq_node *q = matching.slots[i].n;
    if (!q || q->dst != dst)
      continue;
    list_foreach (it, &q->posted) {
      ASSERT(n < cnt->posted);
      v[n++] = list_entry(it, smpi_req, qlink);
    }
  }
  ASSERT(n == cnt->posted);
  qsort(v, n, sizeof *v, by_req_seq);
  *out = v;
  return n;
}

size_t mq_rendezvous_from(int src_world, size_t expect, p2p_msg ***out)
{
  *out = NULL;
  if (!expect)
    return 0;
  size_t n = 0;
  p2p_msg **v = xmalloc(expect * sizeof *v);
  for (size_t i = 0; i < matching.cap; i++) {
    mq_node *q = matching.slots[i].n;
    if (!q || q->src == MPI_ANY_SOURCE)
      continue;
    list_foreach (it, &q->unexpected) {
      p2p_msg *m = list_entry(it, p2p_msg, slink);
      if (m->src_world == src_world && m->rdv_listed) {
        ASSERT(n < expect);
        v[n++] = m;
      }
    }
  }
  ASSERT(n == expect);
  qsort(v, n, sizeof *v, by_msg_seq);
  *out = v;
  return n;
}

/* nodes with something pending: the kept empty ones do not count */
size_t mq_node_count(void)
{
  size_t n = matching.count;
  for (size_t i = 0; i < matching.nper_rank; i++) {
    const mq_count *c = &matching.per_rank[i];
    n -= c->keep_any && node_empty(c->keep_any);
    for (int k = 0; k < MQ_KEEP; k++)
      n -= c->keep[k] && node_empty(c->keep[k]);
  }
  return n;
}

size_t mq_nodes_created(void) { return matching.creates; }

void mq_reset(void)
{
  for (size_t i = 0; i < matching.cap; i++)
    free(matching.slots[i].n);
  free(matching.slots);
  while (matching.free_nodes) {
    mq_node *n = matching.free_nodes;
    matching.free_nodes = n->next_free;
    free(n);
  }
  free(matching.per_rank);
  memset(&matching, 0, sizeof matching);
}
