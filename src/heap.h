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
 * thousands of activities spread over the heap). */
typedef struct heap_key {
  double key;
  uint64_t seq;
} heap_key;

typedef struct heap {
  heap_node **items;
  heap_key *keys; /* keys[i] == (items[i]->key, items[i]->seq) */
  size_t size;
  size_t cap;
  uint64_t next_seq;
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
static inline double heap_top_key(const heap *h) { return h->size ? h->keys[0].key : -1.0; }

void heap_push(heap *h, heap_node *n, double key);
heap_node *heap_pop(heap *h);
void heap_update(heap *h, heap_node *n, double key); /* n must be in h */
void heap_remove(heap *h, heap_node *n);             /* no-op when n is not in a heap */
/* push when absent, update when present */
static inline void heap_set(heap *h, heap_node *n, double key)
{
  if (heap_contains(n))
    heap_update(h, n, key);
  else
    heap_push(h, n, key);
}

#endif
