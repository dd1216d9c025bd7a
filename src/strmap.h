/* A string-keyed hash map (open addressing, linear probing, power-of-two capacity).
 *
 *   strmap *m = strmap_new();
 *   strmap_insert(m, "node-3", host);        // false, and no change, if the key is present
 *   host = strmap_get(m, "node-3");          // NULL when absent
 *   for (size_t it = 0; strmap_next(m, &it, &key, &val);) ...
 *   strmap_free(m);
 *
 * Keys are copied (the caller's string may go away); values are opaque pointers that the
 * map never frees. NULL values are allowed but then strmap_get cannot tell them from absent
 * keys: use strmap_find. Lookups cost one hash of the key plus, on average, about one key
 * comparison (the load factor stays under 0.7). Not thread-safe. */
#ifndef SMPI_SRC_STRMAP_H
#define SMPI_SRC_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct strmap strmap;

strmap *strmap_new(void);
void strmap_free(strmap *m); /* NULL is fine */

size_t strmap_size(const strmap *m);
void *strmap_get(const strmap *m, const char *key);
bool strmap_find(const strmap *m, const char *key, void **value); /* value may be NULL */
/* Adds key -> value if key is absent; returns false (and changes nothing) otherwise. */
bool strmap_insert(strmap *m, const char *key, void *value);
/* Adds or replaces; returns the previous value (NULL if none). */
void *strmap_set(strmap *m, const char *key, void *value);
bool strmap_remove(strmap *m, const char *key, void **old_value);
/* Iteration in unspecified order; *pos starts at 0. The map must not change meanwhile. */
bool strmap_next(const strmap *m, size_t *pos, const char **key, void **value);

/* The hash used by the map (FNV-1a, 64 bits), exposed for callers that hash names too. */
unsigned long long strmap_hash(const char *key);

#endif
