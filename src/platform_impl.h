/* Private part of the platform module, shared by platform.c (model, queries) and
 * platform_load.c (XML reading and checks). Nothing outside these two files includes it. */
#ifndef SMPI_SRC_PLATFORM_IMPL_H
#define SMPI_SRC_PLATFORM_IMPL_H

#include "src/mem.h"
#include "src/platform.h"
#include "src/strmap.h"

/* A run of consecutive hosts in document order: explicit hosts p->hosts[first ..] or all
 * the hosts of one cluster. plat_host_at() binary-searches these by start. */
typedef struct plat_host_seg {
  size_t start; /* global index of the first host of the run */
  size_t count;
  size_t first;       /* explicit run: index into p->hosts */
  plat_zone *cluster; /* cluster run, or NULL */
} plat_host_seg;

struct plat_index {
  strmap *hosts;   /* id -> plat_host* (explicit hosts) */
  strmap *routers; /* id -> plat_router* */
  strmap *zones;   /* id -> plat_zone* (clusters included) */
  strmap *links;   /* id -> plat_link* (as declared: "L", not "L_UP") */
  plat_host_seg *segs;
  size_t nsegs;
  size_t total_hosts;
};

/* Appends val to arr (count n), growing the storage at powers of two: no capacity field is
 * needed because the capacity is always the next power of two of the count. */
#define PLAT_PUSH(arr, n, val)                                      \
  do {                                                              \
    if (((n) & ((n)-1)) == 0)                                       \
      (arr) = xrealloc((arr), ((n) ? 2 * (n) : 1) * sizeof *(arr)); \
    (arr)[(n)++] = (val);                                           \
  } while (0)

plat_platform *plat_new_empty(void);
uint32_t plat_add_file(plat_platform *p, const char *name);
void plat_record_host(plat_platform *p, plat_host *h);     /* into p->hosts + segments */
void plat_record_cluster(plat_platform *p, plat_zone *cz); /* into p->clusters + segments */
void plat_props_set(plat_props *props, const char *key, const char *value);

typedef enum {
  PLAT_LINK_FOUND,
  PLAT_LINK_UNKNOWN,
  PLAT_LINK_NEEDS_DIR, /* SPLITDUPLEX link named without direction */
  PLAT_LINK_NOT_SPLIT, /* direction given for a link that is not SPLITDUPLEX */
} plat_link_lookup;

plat_link_lookup plat_lookup_link(const plat_platform *p, const char *name, plat_direction dir,
                                  plat_link_ref *out);
/* Whether name is one of the links cluster cz generates (same result codes). */
plat_link_lookup plat_cluster_link_lookup(plat_zone *cz, const char *name, plat_direction dir,
                                          plat_link_ref *out);

/* Parses a radical ("0-99,200,300-310", ';' accepted as separator too) into c->ranges,
 * c->count and the sorted copy; -1 with a message if malformed or if a number repeats. */
int plat_parse_radical(plat_cluster *c, const char *radical, char *err, size_t errlen);
/* Reads topo_parameters into *out (see plat_topo_params); -1 with a message if a value is
 * not a positive integer. */
int plat_parse_topo_params(const char *params, plat_topo_params *out, char *err, size_t errlen);

#endif
