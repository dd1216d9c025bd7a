/* Open MPI's tree shapes (see coll_tree.h), rebuilt from their definitions. */
#include "collectives/coll_tree.h"

#include "src/invariant.h"

static void reset(coll_tree *t)
{
  t->parent = -1;
  t->nchildren = 0;
}

static void add_child(coll_tree *t, int c)
{
  ASSERTF(t->nchildren < COLL_TREE_MAX_FANOUT, "tree fanout above %d", COLL_TREE_MAX_FANOUT);
  t->children[t->nchildren++] = c;
}

static int ipow(int b, int e)
{
  int r = 1;
  while (e-- > 0)
    r *= b;
  return r;
}

void coll_tree_kary(coll_tree *t, int fanout, int rank, int size, int root)
{
  reset(t);
  if (fanout < 1)
    fanout = 1;
  if (fanout > COLL_TREE_MAX_FANOUT)
    fanout = COLL_TREE_MAX_FANOUT;
  int s = (rank - root + size) % size;
  /* level of s: levels hold 1, f, f^2, ... nodes */
  int level = 0, first_of_next = 1;
  while (s >= first_of_next) {
    level++;
    first_of_next += ipow(fanout, level);
  }
  int delta = ipow(fanout, level);
  for (int i = 0; i < fanout; i++) {
    int c = s + delta * (i + 1);
    if (c >= size)
      break;
    add_child(t, (c + root) % size);
  }
  if (s == 0)
    return;
  int p = s;
  if (p < fanout) {
    p = 0;
  } else {
    int upto = fanout == 1 ? level : (ipow(fanout, level) - 1) / (fanout - 1);
    while (p >= upto)
      p -= delta / fanout;
  }
  t->parent = (p + root) % size;
}

void coll_tree_chain(coll_tree *t, int fanout, int rank, int size, int root)
{
  reset(t);
  if (size == 1)
    return;
  if (fanout > COLL_TREE_MAX_FANOUT) /* Open MPI's limit (MAXTREEFANOUT) */
    fanout = COLL_TREE_MAX_FANOUT;
  if (fanout > size - 1)
    fanout = size - 1;
  if (fanout < 1)
    fanout = 1;
  int s = (rank - root + size) % size;
  /* size - 1 ranks in fanout chains; the first `mark` chains are one longer */
  int maxlen = (size - 1) / fanout, mark;
  if ((size - 1) % fanout) {
    maxlen++;
    mark = (size - 1) % fanout;
  } else {
    mark = fanout + 1;
  }
  if (s == 0) {
    int head = 1;
    for (int i = 0; i < fanout; i++) {
      add_child(t, (head + root) % size);
      head += i < mark ? maxlen : maxlen - 1;
    }
    return;
  }
  int head, len;
  if (s - 1 < mark * maxlen) {
    head = 1 + (s - 1) / maxlen * maxlen;
    len = maxlen;
  } else {
    int column = mark + (s - 1 - mark * maxlen) / (maxlen - 1);
    head = mark * maxlen + 1 + (column - mark) * (maxlen - 1);
    len = maxlen - 1;
  }
  t->parent = s == head ? root : (s - 1 + root) % size;
  if (s != head + len - 1 && s + 1 < size)
    add_child(t, (s + 1 + root) % size);
}

void coll_tree_bmtree(coll_tree *t, int rank, int size, int root)
{
  reset(t);
  int index = (rank - root + size) % size;
  int mask = 1; /* smallest power of two above index */
  while (mask <= index)
    mask <<= 1;
  if (index != 0)
    t->parent = ((index ^ (mask >> 1)) + root) % size;
  for (; mask < size; mask <<= 1) {
    int remote = index ^ mask;
    if (remote >= size)
      break;
    add_child(t, (remote + root) % size);
  }
}

void coll_tree_in_order_bmtree(coll_tree *t, int rank, int size, int root)
{
  reset(t);
  int v = (rank - root + size) % size;
  for (int mask = 1; mask < size; mask <<= 1) {
    int remote = v ^ mask;
    if (remote < v) {
      t->parent = (remote + root) % size;
      break;
    }
    if (remote < size)
      add_child(t, (remote + root) % size);
  }
}

void coll_tree_in_order_bintree(coll_tree *t, int rank, int size)
{
  reset(t);
  int me = rank, delta = 0, parent = size - 1, kids[2] = {-1, -1};
  for (;;) {
    int right = size >> 1, lchild = -1, rchild = -1;
    if (size - 1 > 0) {
      lchild = parent - 1;
      if (lchild > 0)
        rchild = right - 1;
    }
    if (me == parent) {
      if (lchild >= 0)
        kids[0] = lchild + delta;
      if (rchild >= 0)
        kids[1] = rchild + delta;
      break;
    }
    if (me > rchild) { /* in the left (upper) subtree */
      if (me == lchild)
        t->parent = parent + delta;
      size = size - right - 1;
      delta += right;
      me -= right;
      parent = size - 1;
    } else { /* in the right (lower) subtree */
      if (me == rchild)
        t->parent = parent + delta;
      size = right;
      parent = rchild;
    }
  }
  for (int i = 0; i < 2; i++)
    if (kids[i] >= 0)
      add_child(t, kids[i]);
}
