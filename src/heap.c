/* Binary min-heap ordered by (key, seq). Each node records its slot so that update and
 * remove start from the node's position instead of searching for it.
 *
 *   slot:      0        1        2        3
 *   items: [ (1.0,#4) (2.0,#0) (1.0,#7) (3.0,#1) ]   children of i: 2i+1, 2i+2
 *
 * (1.0,#4) precedes (1.0,#7): equal keys come out in push order. */
#include "src/heap.h"

#include "src/invariant.h"
#include "src/mem.h"

#include <math.h>
#include <stdlib.h>

void heap_init(heap *h)
{
  h->items = NULL;
  h->keys = NULL;
  h->size = 0;
  h->cap = 0;
  h->next_seq = 0;
  h->bulk = false;
}

void heap_destroy(heap *h)
{
  free(h->items);
  free(h->keys);
  heap_init(h);
}

static inline void place(heap *h, heap_node *n, heap_key k, size_t i)
{
  h->items[i] = n;
  h->keys[i] = k;
  n->index = i;
}

/* Moves n (key k) up from slot i until its parent precedes it; the hole is filled on the
 * way. */
static void sift_up(heap *h, heap_node *n, heap_key k, size_t i)
{
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!heap_key_before(k, h->keys[parent]))
      break;
    place(h, h->items[parent], h->keys[parent], i);
    i = parent;
  }
  place(h, n, k, i);
}

static void sift_down(heap *h, heap_node *n, heap_key k, size_t i)
{
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= h->size)
      break;
    /* the earlier child, chosen without a branch (ties are the common case) */
    if (child + 1 < h->size)
      child += heap_key_before(h->keys[child + 1], h->keys[child]);
    if (!heap_key_before(h->keys[child], k))
      break;
    place(h, h->items[child], h->keys[child], i);
    i = child;
  }
  place(h, n, k, i);
}

void heap_push(heap *h, heap_node *n, double key) { heap_push_seq(h, n, key, h->next_seq++); }

void heap_push_seq(heap *h, heap_node *n, double key, uint64_t seq)
{
  ASSERTF(!heap_contains(n), "node pushed while already in a heap (slot %zu)", n->index);
  ASSERTF(!isnan(key), "NaN heap key"); /* NaN would break the ordering silently */
  if (h->size == h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 16;
    h->items = xrealloc(h->items, cap * sizeof *h->items);
    h->keys = xrealloc(h->keys, cap * sizeof *h->keys);
    h->cap = cap;
  }
  n->key = key;
  n->seq = seq;
  h->size++;
  if (h->bulk)
    place(h, n, (heap_key){heap_ord(key), n->seq}, h->size - 1);
  else
    sift_up(h, n, (heap_key){heap_ord(key), n->seq}, h->size - 1);
}

/* Takes the node at slot i out and refills the slot with the last node. */
static void remove_at(heap *h, size_t i)
{
  ASSERT(!h->bulk);
  heap_node *n = h->items[i];
  size_t l = --h->size;
  heap_node *last = h->items[l];
  heap_key lk = h->keys[l];
  n->index = HEAP_NOT_IN;
  if (last == n)
    return;
  /* the last node may belong above or below slot i */
  if (i > 0 && heap_key_before(lk, h->keys[(i - 1) / 2]))
    sift_up(h, last, lk, i);
  else
    sift_down(h, last, lk, i);
}

void heap_bulk_begin(heap *h) { h->bulk = true; }

void heap_bulk_end(heap *h)
{
  h->bulk = false;
  for (size_t i = h->size / 2; i-- > 0;)
    sift_down(h, h->items[i], h->keys[i], i);
}

heap_node *heap_pop(heap *h)
{
  ASSERT(!h->bulk);
  if (!h->size)
    return NULL;
  heap_node *n = h->items[0];
  remove_at(h, 0);
  return n;
}

void heap_update(heap *h, heap_node *n, double key)
{
  ASSERTF(heap_contains(n) && n->index < h->size && h->items[n->index] == n,
          "heap_update on a node that is not in this heap");
  ASSERTF(!isnan(key), "NaN heap key");
  size_t i = n->index;
  uint64_t old = h->keys[i].ord;
  heap_key k = {heap_ord(key), h->keys[i].seq};
  n->key = key;
  if (h->bulk)
    h->keys[i] = k;
  else if (k.ord < old)
    sift_up(h, n, k, i);
  else if (k.ord > old)
    sift_down(h, n, k, i);
}

void heap_remove(heap *h, heap_node *n)
{
  if (!heap_contains(n))
    return;
  ASSERTF(n->index < h->size && h->items[n->index] == n,
          "heap_remove on a node that belongs to another heap");
  remove_at(h, n->index);
}
