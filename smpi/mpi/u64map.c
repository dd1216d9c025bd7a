/* u64map.c: a small u64 -> pointer hash map for the communicator module (attribute lists
 * keyed by object and rank, group reverse maps too large for a direct table, ...).
 * Open addressing with linear probing; deletion shifts the following entries back, so
 * there are no tombstones and lookups stay short however many removals happen. */
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/comm_impl.h"
#include "src/mem.h"

uint64_t smpi_hash_u64(uint64_t x)
{
  /* splitmix64 finalizer: consecutive keys (ranks, handles) spread over the table */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

void smpi_u64map_init(smpi_u64map *m) { memset(m, 0, sizeof *m); }

void smpi_u64map_destroy(smpi_u64map *m)
{
  free(m->keys);
  free(m->vals);
  free(m->used);
  memset(m, 0, sizeof *m);
}

static size_t find_slot(const smpi_u64map *m, uint64_t key)
{
  size_t mask = m->cap - 1;
  size_t i = (size_t)smpi_hash_u64(key) & mask;
  while (m->used[i] && m->keys[i] != key)
    i = (i + 1) & mask;
  return i;
}

void *smpi_u64map_get(const smpi_u64map *m, uint64_t key)
{
  if (m->count == 0)
    return NULL;
  size_t i = find_slot(m, key);
  return m->used[i] ? m->vals[i] : NULL;
}

static void grow(smpi_u64map *m)
{
  smpi_u64map old = *m;
  m->cap = old.cap ? old.cap * 2 : 16;
  m->keys = xmalloc(m->cap * sizeof *m->keys);
  m->vals = xmalloc(m->cap * sizeof *m->vals);
  m->used = xcalloc(m->cap, 1);
  m->count = 0;
  for (size_t i = 0; i < old.cap; i++)
    if (old.used[i])
      smpi_u64map_put(m, old.keys[i], old.vals[i]);
  free(old.keys);
  free(old.vals);
  free(old.used);
}

void smpi_u64map_put(smpi_u64map *m, uint64_t key, void *val)
{
  if ((m->count + 1) * 10 > m->cap * 7)
    grow(m);
  size_t i = find_slot(m, key);
  if (!m->used[i]) {
    m->used[i] = 1;
    m->keys[i] = key;
    m->count++;
  }
  m->vals[i] = val;
}

void *smpi_u64map_remove(smpi_u64map *m, uint64_t key)
{
  if (m->count == 0)
    return NULL;
  size_t mask = m->cap - 1;
  size_t i = find_slot(m, key);
  if (!m->used[i])
    return NULL;
  void *old = m->vals[i];
  m->used[i] = 0;
  m->count--;
  /* backward shift: move each following entry into the hole if its home slot does not lie
   * (cyclically) between the hole and its current position */
  size_t hole = i;
  for (size_t j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
    size_t home = (size_t)smpi_hash_u64(m->keys[j]) & mask;
    bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (stays)
      continue;
    m->keys[hole] = m->keys[j];
    m->vals[hole] = m->vals[j];
    m->used[hole] = 1;
    m->used[j] = 0;
    hole = j;
  }
  return old;
}
