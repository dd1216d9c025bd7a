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
  h->size = 0;
  h->cap = 0;
  h->next_seq = 0;
}

void heap_destroy(heap *h)
{
  free(h->items);
  heap_init(h);
}

static inline bool before(const heap_node *a, const heap_node *b)
{
  return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static inline void place(heap *h, heap_node *n, size_t i)
{
  h->items[i] = n;
  n->index = i;
}

/* Moves n up from slot i until its parent precedes it; the hole is filled on the way. */
static void sift_up(heap *h, heap_node *n, size_t i)
{
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!before(n, h->items[parent]))
      break;
    place(h, h->items[parent], i);
    i = parent;
  }
  place(h, n, i);
}

static void sift_down(heap *h, heap_node *n, size_t i)
{
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= h->size)
      break;
    if (child + 1 < h->size && before(h->items[child + 1], h->items[child]))
      child++;
    if (!before(h->items[child], n))
      break;
    place(h, h->items[child], i);
    i = child;
  }
  place(h, n, i);
}

void heap_push(heap *h, heap_node *n, double key)
{
  ASSERTF(!heap_contains(n), "node pushed while already in a heap (slot %zu)", n->index);
  ASSERTF(!isnan(key), "NaN heap key"); /* NaN would break the ordering silently */
  XGROW(h->items, h->cap, h->size + 1);
  n->key = key;
  n->seq = h->next_seq++;
  h->size++;
  sift_up(h, n, h->size - 1);
}

/* Takes the node at slot i out and refills the slot with the last node. */
static void remove_at(heap *h, size_t i)
{
  heap_node *n = h->items[i];
  heap_node *last = h->items[--h->size];
  n->index = HEAP_NOT_IN;
  if (last == n)
    return;
  /* the last node may belong above or below slot i */
  if (i > 0 && before(last, h->items[(i - 1) / 2]))
    sift_up(h, last, i);
  else
    sift_down(h, last, i);
}

heap_node *heap_pop(heap *h)
{
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
  double old = n->key;
  n->key = key;
  if (key < old)
    sift_up(h, n, n->index);
  else if (key > old)
    sift_down(h, n, n->index);
}

void heap_remove(heap *h, heap_node *n)
{
  if (!heap_contains(n))
    return;
  ASSERTF(n->index < h->size && h->items[n->index] == n,
          "heap_remove on a node that belongs to another heap");
  remove_at(h, n->index);
}
