/* ctx.c: context ids, and the table through which the members of a communicator creation
 * share objects without talking to each other (see comm_impl.h for the id scheme).
 *
 *     rank 0: smpi_ctx_derive("c:0:3", 1, 2)  -> no entry: id 42 (fresh), entry count 1
 *     rank 2: smpi_ctx_derive("c:0:3", 1, 2)  -> entry found: 42, count 2 = 2, dropped
 *
 * No simulation state: the unit tests call it directly. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "smpi/mpi/comm_impl.h"
#include "src/invariant.h"
#include "src/mem.h"
#include "src/strmap.h"

typedef struct shared_entry {
  void *obj;
  int remaining;
} shared_entry;

static strmap *shared_table;
static uint32_t next_ctx = 2; /* set by smpi_ctx_setup: after the SELF ids */

void *smpi_shared_take(const char *key, int nmembers, void *(*create)(void *arg), void *arg)
{
  if (!shared_table)
    shared_table = strmap_new();
  shared_entry *e = strmap_get(shared_table, key);
  if (!e) {
    e = xmalloc(sizeof *e);
    e->obj = create(arg);
    e->remaining = nmembers;
    strmap_insert(shared_table, key, e);
  }
  void *obj = e->obj;
  if (--e->remaining <= 0) {
    strmap_remove(shared_table, key, NULL);
    free(e);
  }
  return obj;
}

void smpi_ctx_setup(int np)
{
  /* 0: MPI_COMM_WORLD; 2 (r + 1): MPI_COMM_SELF of rank r */
  next_ctx = 2u * ((uint32_t)np + 1u);
}

static void *fresh_ctx(void *arg)
{
  (void)arg;
  if (next_ctx >= UINT32_MAX - 1u)
    DIE("out of communicator context ids (2^31 communicators created in this job)");
  uint32_t id = next_ctx;
  next_ctx += 2;
  return (void *)(uintptr_t)id;
}

uint32_t smpi_ctx_derive(const char *key, long color, int nmembers)
{
  char k[256];
  snprintf(k, sizeof k, "%s|%ld", key, color);
  return (uint32_t)(uintptr_t)smpi_shared_take(k, nmembers, fresh_ctx, NULL);
}

size_t smpi_ctx_pending(void) { return shared_table ? strmap_size(shared_table) : 0; }
