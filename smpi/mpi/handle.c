#include "smpi/mpi/handle.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/invariant.h"
#include "src/mem.h"

/* The pointer sentinels of mpi.h (MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_UNWEIGHTED,
 * MPI_WEIGHTS_EMPTY): never read nor written, only their addresses matter. They are defined
 * here, at the bottom of the MPI layer, because its objects compare arguments with them. */
SMPI_PUBLIC MPI_Status smpi_status_ignore_[1];
SMPI_PUBLIC MPI_Status smpi_statuses_ignore_[1];
SMPI_PUBLIC int smpi_unweighted_[1];
SMPI_PUBLIC int smpi_weights_empty_[1];

typedef struct table {
  void **objs;    /* objs[index]; NULL when free or never used */
  uint8_t *state; /* SLOT_* */
  size_t size;    /* indices in use: 0 .. size-1 */
  size_t cap;
  /* FIFO of freed indices waiting for reuse, a ring of a power of two slots: a slot is
   * (head + i) & (freed_cap - 1), not a division (two per request were 40 % of the cost
   * of freeing its handle) */
  uint32_t *freed;
  size_t freed_head, freed_count, freed_cap;
} table;

enum { SLOT_UNUSED = 0, SLOT_LIVE, SLOT_FREED, SLOT_PREDEFINED };

static table tables[SMPI_KIND_COUNT];

static table *table_of(int kind)
{
  ASSERTF(kind > 0 && kind < SMPI_KIND_COUNT, "bad handle kind %d", kind);
  return &tables[kind];
}

static void ensure(table *t, size_t index)
{
  if (index < t->cap) {
    if (index >= t->size)
      t->size = index + 1;
    return;
  }
  size_t ncap = t->cap ? t->cap : SMPI_PREDEFINED_LIMIT * 2;
  while (ncap <= index)
    ncap *= 2;
  ASSERTF(ncap <= (size_t)SMPI_INDEX_MASK + 1, "too many MPI handles of kind %d",
          (int)(t - tables));
  t->objs = xrealloc(t->objs, ncap * sizeof *t->objs);
  t->state = xrealloc(t->state, ncap);
  memset(t->objs + t->cap, 0, (ncap - t->cap) * sizeof *t->objs);
  memset(t->state + t->cap, 0, ncap - t->cap);
  t->cap = ncap;
  if (index >= t->size)
    t->size = index + 1;
}

int smpi_handle_new(int kind, void *obj)
{
  table *t = table_of(kind);
  size_t index;
  if (t->freed_count > SMPI_HANDLE_REUSE_DELAY) {
    index = t->freed[t->freed_head];
    t->freed_head = (t->freed_head + 1) & (t->freed_cap - 1);
    t->freed_count--;
  } else {
    index = t->size < SMPI_PREDEFINED_LIMIT ? SMPI_PREDEFINED_LIMIT : t->size;
    ensure(t, index);
  }
  t->objs[index] = obj;
  t->state[index] = SLOT_LIVE;
  return SMPI_HANDLE_MAKE(kind, (int)index);
}

void smpi_handle_set_predefined(int handle, void *obj)
{
  int kind = SMPI_HANDLE_KIND(handle);
  size_t index = (size_t)SMPI_HANDLE_INDEX(handle);
  ASSERTF(index > 0 && index < SMPI_PREDEFINED_LIMIT, "handle %#x is not a predefined one",
          handle);
  table *t = table_of(kind);
  ensure(t, index);
  t->objs[index] = obj;
  t->state[index] = SLOT_PREDEFINED;
}

void *smpi_handle_get(int handle, int kind)
{
  if (SMPI_HANDLE_KIND(handle) != kind || kind <= 0 || kind >= SMPI_KIND_COUNT)
    return NULL;
  table *t = &tables[kind];
  size_t index = (size_t)SMPI_HANDLE_INDEX(handle);
  if (index >= t->size || (t->state[index] != SLOT_LIVE && t->state[index] != SLOT_PREDEFINED))
    return NULL;
  return t->objs[index];
}

void smpi_handle_replace(int handle, void *obj)
{
  table *t = table_of(SMPI_HANDLE_KIND(handle));
  size_t index = (size_t)SMPI_HANDLE_INDEX(handle);
  ASSERT(index < t->size && t->state[index] == SLOT_LIVE);
  t->objs[index] = obj;
}

bool smpi_handle_is_predefined(int handle)
{
  int kind = SMPI_HANDLE_KIND(handle);
  if (kind <= 0 || kind >= SMPI_KIND_COUNT)
    return false;
  size_t index = (size_t)SMPI_HANDLE_INDEX(handle);
  return index < tables[kind].size && tables[kind].state[index] == SLOT_PREDEFINED;
}

char *smpi_handle_describe(int handle, int kind, char *buf, size_t len)
{
  static const char *const nulls[SMPI_KIND_COUNT] = {
      [SMPI_KIND_COMM] = "MPI_COMM_NULL",
      [SMPI_KIND_GROUP] = "MPI_GROUP_NULL",
      [SMPI_KIND_DATATYPE] = "MPI_DATATYPE_NULL",
      [SMPI_KIND_OP] = "MPI_OP_NULL",
      [SMPI_KIND_REQUEST] = "MPI_REQUEST_NULL",
      [SMPI_KIND_ERRHANDLER] = "MPI_ERRHANDLER_NULL",
      [SMPI_KIND_INFO] = "MPI_INFO_NULL",
      [SMPI_KIND_WIN] = "MPI_WIN_NULL",
      [SMPI_KIND_FILE] = "MPI_FILE_NULL",
      [SMPI_KIND_MESSAGE] = "MPI_MESSAGE_NULL",
      [SMPI_KIND_KEYVAL] = "MPI_KEYVAL_INVALID",
      [SMPI_KIND_T_ENUM] = "MPI_T_ENUM_NULL",
      [SMPI_KIND_T_CVAR] = "MPI_T_CVAR_HANDLE_NULL",
      [SMPI_KIND_T_PVAR] = "MPI_T_PVAR_HANDLE_NULL",
      [SMPI_KIND_T_SESSION] = "MPI_T_PVAR_SESSION_NULL"};
  static const char *const kinds[SMPI_KIND_COUNT] = {[SMPI_KIND_COMM] = "a communicator",
                                                     [SMPI_KIND_GROUP] = "a group",
                                                     [SMPI_KIND_DATATYPE] = "a datatype",
                                                     [SMPI_KIND_OP] = "an operation",
                                                     [SMPI_KIND_REQUEST] = "a request",
                                                     [SMPI_KIND_ERRHANDLER] = "an error handler",
                                                     [SMPI_KIND_INFO] = "an info object",
                                                     [SMPI_KIND_WIN] = "a window",
                                                     [SMPI_KIND_FILE] = "a file",
                                                     [SMPI_KIND_MESSAGE] = "a message",
                                                     [SMPI_KIND_KEYVAL] = "a keyval",
                                                     [SMPI_KIND_T_ENUM] = "an MPI_T enumeration",
                                                     [SMPI_KIND_T_CVAR] = "an MPI_T cvar",
                                                     [SMPI_KIND_T_PVAR] = "an MPI_T pvar",
                                                     [SMPI_KIND_T_SESSION] = "an MPI_T session"};
  ASSERTF(kind > 0 && kind < SMPI_KIND_COUNT, "bad handle kind %d", kind);
  int hk = SMPI_HANDLE_KIND(handle);
  size_t index = (size_t)SMPI_HANDLE_INDEX(handle);
  if (handle == SMPI_HANDLE_MAKE(kind, 0))
    snprintf(buf, len, "%s", nulls[kind]);
  else if (hk != kind && hk > 0 && hk < SMPI_KIND_COUNT)
    snprintf(buf, len, "handle %#x, %s, not %s", (unsigned)handle, index ? kinds[hk] : nulls[hk],
             kinds[kind]);
  else if (hk != kind)
    snprintf(buf, len, "handle %#x, not %s (never set?)", (unsigned)handle, kinds[kind]);
  else if (index < tables[kind].size && tables[kind].state[index] == SLOT_FREED)
    snprintf(buf, len, "handle %#x, freed", (unsigned)handle);
  else if (index < tables[kind].size && tables[kind].state[index] != SLOT_UNUSED)
    snprintf(buf, len, "handle %#x", (unsigned)handle);
  else
    snprintf(buf, len, "handle %#x, never created", (unsigned)handle);
  return buf;
}

void smpi_handle_free(int handle)
{
  table *t = table_of(SMPI_HANDLE_KIND(handle));
  size_t index = (size_t)SMPI_HANDLE_INDEX(handle);
  ASSERTF(index < t->size && t->state[index] == SLOT_LIVE, "freeing handle %#x which is not live",
          handle);
  t->objs[index] = NULL;
  t->state[index] = SLOT_FREED;
  if (t->freed_count == t->freed_cap) {
    /* grow the ring, unrolling it */
    size_t ncap = t->freed_cap ? t->freed_cap * 2 : 2048; /* a power of two */
    uint32_t *n = xmalloc(ncap * sizeof *n);
    for (size_t i = 0; i < t->freed_count; i++)
      n[i] = t->freed[(t->freed_head + i) & (t->freed_cap - 1)];
    free(t->freed);
    t->freed = n;
    t->freed_head = 0;
    t->freed_cap = ncap;
  }
  t->freed[(t->freed_head + t->freed_count) & (t->freed_cap - 1)] = (uint32_t)index;
  t->freed_count++;
}

size_t smpi_handle_foreach_live(int kind, void (*fn)(int handle, void *obj, void *data),
                                void *data)
{
  table *t = table_of(kind);
  size_t n = 0;
  for (size_t i = SMPI_PREDEFINED_LIMIT; i < t->size; i++)
    if (t->state[i] == SLOT_LIVE) {
      n++;
      if (fn)
        fn(SMPI_HANDLE_MAKE(kind, (int)i), t->objs[i], data);
    }
  return n;
}

void smpi_handle_reset_all(void)
{
  for (int k = 1; k < SMPI_KIND_COUNT; k++) {
    free(tables[k].objs);
    free(tables[k].state);
    free(tables[k].freed);
  }
  memset(tables, 0, sizeof tables);
}
