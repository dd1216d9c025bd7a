/* Intrusive circular doubly linked lists (the node lives inside the element, no allocation).
 *
 *     head <-> a.node <-> b.node <-> head          list_entry(&a.node, struct T, node) == &a
 *
 * An empty list is a head pointing at itself. A node that is not on any list is kept
 * self-linked by list_remove(), so list_linked() tells whether it is on a list. */
#ifndef SMPI_SRC_LIST_H
#define SMPI_SRC_LIST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct list_node {
  struct list_node *prev;
  struct list_node *next;
} list_node;

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#define list_entry(node, type, member) container_of(node, type, member)

static inline void list_init(list_node *n) { n->prev = n->next = n; }
static inline bool list_empty(const list_node *head) { return head->next == head; }
static inline bool list_linked(const list_node *n) { return n->next != n; }

static inline void list_insert_before(list_node *pos, list_node *n)
{
  n->prev = pos->prev;
  n->next = pos;
  pos->prev->next = n;
  pos->prev = n;
}
static inline void list_push_back(list_node *head, list_node *n) { list_insert_before(head, n); }
static inline void list_push_front(list_node *head, list_node *n)
{
  list_insert_before(head->next, n);
}

static inline void list_remove(list_node *n)
{
  n->prev->next = n->next;
  n->next->prev = n->prev;
  list_init(n);
}

static inline list_node *list_first(const list_node *head)
{
  return list_empty(head) ? NULL : head->next;
}
static inline list_node *list_last(const list_node *head)
{
  return list_empty(head) ? NULL : head->prev;
}

static inline list_node *list_pop_front(list_node *head)
{
  list_node *n = list_first(head);
  if (n)
    list_remove(n);
  return n;
}

/* Move every node of src to the end of dst; src becomes empty. */
static inline void list_splice_back(list_node *dst, list_node *src)
{
  if (list_empty(src))
    return;
  src->next->prev = dst->prev;
  dst->prev->next = src->next;
  src->prev->next = dst;
  dst->prev = src->prev;
  list_init(src);
}

/* Iterate; `it` may be removed from the list inside the loop body (the next node is saved). */
#define list_foreach(it, head)                                             \
  for (list_node *it = (head)->next, *it##_next_ = it->next; it != (head); \
       it = it##_next_, it##_next_ = it->next)

#endif
