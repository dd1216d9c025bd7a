/* Binary min-heap with decrease-key / increase-key / remove, intrusive: the element embeds a
 * heap_node that remembers its slot, so updates are O(log n) with no search.
 *
 * Ties are broken by insertion sequence number (first pushed, first popped), so two events
 * at the same date always come out in the same order: a requirement for deterministic
 * simulations. Re-keying keeps the original sequence number.
 *
 *   heap h; heap_init(&h);
 *   heap_push(&h, &act->hnode, 3.5);
 *   heap_update(&h, &act->hnode, 1.0);     // moves up or down as needed
 *   heap_node *n = heap_pop(&h);           // smallest key
 */
#ifndef SMPI_SRC_HEAP_H
#define SMPI_SRC_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEAP_NOT_IN ((size_t)-1)

typedef struct heap_node {
  double key;
  uint64_t seq;
  size_t index; /* slot in the heap array, HEAP_NOT_IN when not in a heap */
} heap_node;

/* A copy of each node's (key, seq) beside the node pointers: comparisons read this array
 * only, so a sift does not load every node it passes (each a cache miss when the nodes are
 * thousands of activities spread over the heap). The key is kept as `ord`, its bits mapped
 * so that unsigned order is the order of the doubles (heap_ord): (ord, seq) compares as one
 * 128-bit integer, with no branch. Many keys tie (a thousand flows whose latency ends at the
 * same date), and a double comparison with a tie-break on seq mispredicts at every level. */
typedef struct heap_key {
  uint64_t ord; /* heap_ord(key) */
  uint64_t seq;
} heap_key;

/* Non-NaN doubles to unsigned integers of the same order: a positive double's bits with the
 * sign bit set, a negative one's bits inverted; -0.0 is taken as +0.0 (they compare equal).
 *   -1.0 -> 0x400fffffffffffff   0.0 -> 0x8000000000000000   1.0 -> 0xbff0000000000000 */
static inline uint64_t heap_ord(double key)
{
  uint64_t b;
  key += 0.0; /* -0.0 + 0.0 == +0.0 */
  __builtin_memcpy(&b, &key, sizeof b);
  return b ^ ((uint64_t)((int64_t)b >> 63) | (UINT64_C(1) << 63));
}
static inline double heap_unord(uint64_t ord)
{
  uint64_t b = ord >> 63 ? ord ^ (UINT64_C(1) << 63) : ~ord;
  double key;
  __builtin_memcpy(&key, &b, sizeof key);
  return key;
}

/* (a.ord, a.seq) < (b.ord, b.seq), as one 128-bit comparison (no branch on a tie). Also the
 * order of the max-min filling's own heap (kernel/lmm_fill.c), keyed the same way. */
static inline bool heap_key_before(heap_key a, heap_key b)
{
  unsigned __int128 x = (unsigned __int128)a.ord << 64 | a.seq;
  unsigned __int128 y = (unsigned __int128)b.ord << 64 | b.seq;
  return x < y;
}

typedef struct heap {
  heap_node **items;
  heap_key *keys; /* keys[i] == (heap_ord(items[i]->key), items[i]->seq) */
  size_t size;
  size_t cap;
  uint64_t next_seq;
  bool bulk; /* between heap_bulk_begin and heap_bulk_end: unordered */
} heap;

void heap_init(heap *h);
void heap_destroy(heap *h); /* frees the array; nodes are not touched */
static inline void heap_node_init(heap_node *n)
{
  n->index = HEAP_NOT_IN;
  n->key = 0;
  n->seq = 0;
}
static inline bool heap_contains(const heap_node *n) { return n->index != HEAP_NOT_IN; }
static inline size_t heap_size(const heap *h) { return h->size; }
static inline heap_node *heap_top(const heap *h) { return h->size ? h->items[0] : NULL; }
static inline double heap_top_key(const heap *h)
{
  return h->size ? heap_unord(h->keys[0].ord) : -1.0;
}

void heap_push(heap *h, heap_node *n, double key);
/* Pushes n back with the sequence number it had when first pushed (kernel/activity.c's exact
 * class keeps only one of its members in the heap at a time: a member that becomes the head
 * comes back with the (key, seq) it would have had, had it stayed). */
void heap_push_seq(heap *h, heap_node *n, double key, uint64_t seq);
heap_node *heap_pop(heap *h);
void heap_update(heap *h, heap_node *n, double key); /* n must be in h */
void heap_remove(heap *h, heap_node *n);             /* no-op when n is not in a heap */
/* BULK RE-KEYING. After a full solve a third of a model's thousands of activities change
 * date at once; a sift each costs O(log n) scattered moves. Between heap_bulk_begin and
 * heap_bulk_end, heap_set only writes the key in place (or appends), and heap_bulk_end
 * restores the order in one O(n) pass (Floyd). The pop order is the same either way: it is
 * the (key, seq) order, a total one, and seqs are assigned as heap_set would assign them.
 * Nothing may read the top or pop in between; heap_remove is not allowed either. */
void heap_bulk_begin(heap *h);
void heap_bulk_end(heap *h);

/* push when absent, update when present */
static inline void heap_set(heap *h, heap_node *n, double key)
{
  if (heap_contains(n))
    heap_update(h, n, key);
  else
    heap_push(h, n, key);
}

#endif
