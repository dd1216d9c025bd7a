/* String hash map: open addressing with linear probing and tombstones.
 *
 *   slots: [ empty | "a" h=..5 | TOMB | "c" h=..7 | empty ... ]   capacity = 2^k
 *
 * A key is searched from slot (hash & mask) onwards until an empty slot; tombstones left by
 * removals keep later keys of the same probe chain reachable. The table grows (and drops its
 * tombstones) when live + dead slots exceed 70 % of the capacity. The full hash is kept in
 * each slot so that most mismatches cost no string comparison, and growing rehashes nothing. */
#include "src/strmap.h"

#include "src/invariant.h"
#include "src/mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TOMBSTONE ((char *)&tombstone_marker)
static const char tombstone_marker = 0;

typedef struct slot {
  char *key; /* NULL: empty; TOMBSTONE: removed */
  void *value;
  uint64_t hash;
} slot;

struct strmap {
  slot *slots;
  size_t cap; /* power of two, or 0 before the first insertion */
  size_t live;
  size_t dead;
};

unsigned long long strmap_hash(const char *key)
{
  uint64_t h = 14695981039346656037ULL;
  for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
    h ^= *p;
    h *= 1099511628211ULL;
  }
  return h;
}

strmap *strmap_new(void) { return xcalloc(1, sizeof(strmap)); }

void strmap_free(strmap *m)
{
  if (!m)
    return;
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].key && m->slots[i].key != TOMBSTONE)
      free(m->slots[i].key);
  free(m->slots);
  free(m);
}

size_t strmap_size(const strmap *m) { return m->live; }

/* Index of key's slot, or of the slot where it would go (the first tombstone met, else the
 * empty slot ending the chain). *found tells which. */
static size_t probe(const strmap *m, const char *key, uint64_t h, bool *found)
{
  size_t mask = m->cap - 1;
  size_t i = (size_t)h & mask;
  size_t first_tomb = SIZE_MAX;
  for (;;) {
    slot *s = &m->slots[i];
    if (s->key == NULL) {
      *found = false;
      return first_tomb != SIZE_MAX ? first_tomb : i;
    }
    if (s->key == TOMBSTONE) {
      if (first_tomb == SIZE_MAX)
        first_tomb = i;
    } else if (s->hash == h && strcmp(s->key, key) == 0) {
      *found = true;
      return i;
    }
    i = (i + 1) & mask;
  }
}

static void grow(strmap *m)
{
  size_t ncap = m->cap ? m->cap : 16;
  while ((m->live + 1) * 10 >= ncap * 7)
    ncap *= 2;
  slot *old = m->slots;
  size_t ocap = m->cap;
  m->slots = xcalloc(ncap, sizeof(slot));
  m->cap = ncap;
  m->dead = 0;
  for (size_t i = 0; i < ocap; i++) {
    if (old[i].key == NULL || old[i].key == TOMBSTONE)
      continue;
    size_t j = (size_t)old[i].hash & (ncap - 1);
    while (m->slots[j].key)
      j = (j + 1) & (ncap - 1);
    m->slots[j] = old[i];
  }
  free(old);
}

bool strmap_find(const strmap *m, const char *key, void **value)
{
  if (m->cap == 0)
    return false;
  bool found;
  size_t i = probe(m, key, strmap_hash(key), &found);
  if (found && value)
    *value = m->slots[i].value;
  return found;
}

void *strmap_get(const strmap *m, const char *key)
{
  void *v = NULL;
  strmap_find(m, key, &v);
  return v;
}

/* Finds key, creating its slot if needed; returns the slot and whether it existed. */
static slot *upsert(strmap *m, const char *key, bool *existed)
{
  if ((m->live + m->dead + 1) * 10 >= m->cap * 7)
    grow(m);
  uint64_t h = strmap_hash(key);
  size_t i = probe(m, key, h, existed);
  slot *s = &m->slots[i];
  if (!*existed) {
    if (s->key == TOMBSTONE)
      m->dead--;
    s->key = xstrdup(key);
    s->hash = h;
    s->value = NULL;
    m->live++;
  }
  return s;
}

bool strmap_insert(strmap *m, const char *key, void *value)
{
  bool existed;
  slot *s = upsert(m, key, &existed);
  if (existed)
    return false;
  s->value = value;
  return true;
}

void *strmap_set(strmap *m, const char *key, void *value)
{
  bool existed;
  slot *s = upsert(m, key, &existed);
  void *old = existed ? s->value : NULL;
  s->value = value;
  return old;
}

bool strmap_remove(strmap *m, const char *key, void **old_value)
{
  if (m->cap == 0)
    return false;
  bool found;
  size_t i = probe(m, key, strmap_hash(key), &found);
  if (!found)
    return false;
  slot *s = &m->slots[i];
  if (old_value)
    *old_value = s->value;
  free(s->key);
  s->key = TOMBSTONE;
  s->value = NULL;
  m->live--;
  m->dead++;
  return true;
}

bool strmap_next(const strmap *m, size_t *pos, const char **key, void **value)
{
  for (size_t i = *pos; i < m->cap; i++) {
    const slot *s = &m->slots[i];
    if (s->key && s->key != TOMBSTONE) {
      if (key)
        *key = s->key;
      if (value)
        *value = s->value;
      *pos = i + 1;
      return true;
    }
  }
  *pos = m->cap;
  return false;
}
