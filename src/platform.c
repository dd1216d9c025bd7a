/* Platform model: construction helpers, queries, cluster naming, topo_parameters syntax and
 * the built-in default platform. The XML side lives in platform_load.c.
 *
 * Cluster hosts are never materialised. Host rank r of a cluster is found in the radical's
 * ranges kept in document order; a name is mapped back to a rank through a copy of the
 * ranges sorted by number:
 *
 *   radical "10-19,0-4"  ranges  = {10,19} {0,4}        rank 0 = 10, rank 10 = 0
 *                        sorted  = {0,4} {10,19}  sorted_rank = 10, 0
 *   "node-12" -> prefix "node-", number 12 -> sorted[1] -> rank 0 + (12 - 10) = 2
 */
#include "src/platform.h"
#include "src/plat_profile.h"

#include "src/invariant.h"
#include "src/mem.h"
#include "src/platform_impl.h"
#include "src/strmap.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------
 * Construction and destruction
 * ---------------------------------------------------------------------------------------- */

plat_platform *plat_new_empty(void)
{
  plat_platform *p = xcalloc(1, sizeof *p);
  p->index = xcalloc(1, sizeof *p->index);
  p->index->hosts = strmap_new();
  p->index->routers = strmap_new();
  p->index->zones = strmap_new();
  p->index->links = strmap_new();
  return p;
}

uint32_t plat_add_file(plat_platform *p, const char *name)
{
  PLAT_PUSH(p->files, p->nfiles, xstrdup(name));
  return (uint32_t)(p->nfiles - 1);
}

void plat_record_host(plat_platform *p, plat_host *h)
{
  struct plat_index *ix = p->index;
  h->index = p->nhosts;
  PLAT_PUSH(p->hosts, p->nhosts, h);
  plat_host_seg *last = ix->nsegs ? &ix->segs[ix->nsegs - 1] : NULL;
  if (last && !last->cluster && last->first + last->count == h->index) {
    last->count++;
  } else {
    plat_host_seg seg = {ix->total_hosts, 1, h->index, NULL};
    PLAT_PUSH(ix->segs, ix->nsegs, seg);
  }
  ix->total_hosts++;
}

void plat_record_cluster(plat_platform *p, plat_zone *cz)
{
  struct plat_index *ix = p->index;
  PLAT_PUSH(p->clusters, p->nclusters, cz);
  plat_host_seg seg = {ix->total_hosts, cz->cluster->count, 0, cz};
  PLAT_PUSH(ix->segs, ix->nsegs, seg);
  ix->total_hosts += cz->cluster->count;
}

void plat_props_set(plat_props *props, const char *key, const char *value)
{
  for (size_t i = 0; i < props->count; i++) {
    if (strcmp(props->items[i].key, key) == 0) {
      free(props->items[i].value);
      props->items[i].value = xstrdup(value);
      return;
    }
  }
  plat_prop prop = {xstrdup(key), xstrdup(value)};
  PLAT_PUSH(props->items, props->count, prop);
}

const char *plat_props_get(const plat_props *props, const char *key)
{
  for (size_t i = 0; i < props->count; i++)
    if (strcmp(props->items[i].key, key) == 0)
      return props->items[i].value;
  return NULL;
}

static void free_props(plat_props *props)
{
  for (size_t i = 0; i < props->count; i++) {
    free(props->items[i].key);
    free(props->items[i].value);
  }
  free(props->items);
}

static void free_cluster(plat_cluster *c)
{
  if (!c)
    return;
  free(c->prefix);
  free(c->suffix);
  free(c->radical);
  free(c->ranges);
  free(c->range_rank);
  free(c->sorted);
  free(c->sorted_rank);
  free(c->speeds);
  free(c->topology);
  free(c->topo_parameters);
  free(c->topo.start);
  free(c->topo.values);
  free(c);
}

static void free_zone(plat_zone *z)
{
  free(z->id);
  free(z->children);
  free(z->hosts);
  free(z->routers);
  free(z->links);
  for (size_t i = 0; i < z->nroutes; i++) {
    free(z->routes[i]->links);
    free(z->routes[i]);
  }
  free(z->routes);
  free(z->host_links);
  free_props(&z->props);
  free_cluster(z->cluster);
  free(z);
}

void plat_free(plat_platform *p)
{
  if (!p)
    return;
  for (size_t i = 0; i < p->nzones; i++)
    free_zone(p->zones[i]);
  free(p->zones);
  for (size_t i = 0; i < p->nhosts; i++) {
    plat_host *h = p->hosts[i];
    free(h->id);
    free(h->speeds);
    free_props(&h->props);
    for (size_t d = 0; d < h->ndisks; d++) {
      free(h->disks[d].id);
      free_props(&h->disks[d].props);
    }
    free(h->disks);
    free(h->speed_file);
    plat_profile_free(h->speed_profile);
    free(h->speed_profile);
    free(h->state_file);
    plat_profile_free(h->state_profile);
    free(h->state_profile);
    free(h->coordinates);
    free(h);
  }
  free(p->hosts);
  for (size_t i = 0; i < p->nrouters; i++) {
    free(p->routers[i]->id);
    free(p->routers[i]);
  }
  free(p->routers);
  for (size_t i = 0; i < p->nlinks; i++) {
    plat_link *l = p->links[i];
    free(l->id);
    free_props(&l->props);
    free(l->bandwidth_file);
    plat_profile_free(l->bandwidth_profile);
    free(l->bandwidth_profile);
    plat_profile_free(l->latency_profile);
    free(l->latency_profile);
    free(l->latency_file);
    free(l->state_file);
    plat_profile_free(l->state_profile);
    free(l->state_profile);
    free(l);
  }
  free(p->links);
  free(p->clusters);
  for (size_t i = 0; i < p->nconfig; i++) {
    free(p->config[i].key);
    free(p->config[i].value);
  }
  free(p->config);
  for (size_t i = 0; i < p->ntraces; i++) {
    free(p->traces[i].id);
    free(p->traces[i].file);
    free(p->traces[i].text);
  }
  free(p->traces);
  for (size_t i = 0; i < p->ntrace_connects; i++) {
    free(p->trace_connects[i].kind);
    free(p->trace_connects[i].trace);
    free(p->trace_connects[i].element);
  }
  free(p->trace_connects);
  for (size_t i = 0; i < p->nfiles; i++)
    free(p->files[i]);
  free(p->files);
  if (p->index) {
    strmap_free(p->index->hosts);
    strmap_free(p->index->routers);
    strmap_free(p->index->zones);
    strmap_free(p->index->links);
    free(p->index->segs);
    free(p->index);
  }
  free(p);
}

/* ------------------------------------------------------------------------------------------
 * Names
 * ---------------------------------------------------------------------------------------- */

const char *plat_routing_name(plat_routing r)
{
  static const char *const names[] = {"Full",    "Floyd", "Dijkstra", "DijkstraCache",
                                      "Cluster", "Star",  "None",     "Vivaldi"};
  ASSERT((size_t)r < sizeof names / sizeof names[0]);
  return names[r];
}

const char *plat_sharing_name(plat_sharing s)
{
  static const char *const names[] = {"SHARED", "SPLITDUPLEX", "FATPIPE"};
  ASSERT((size_t)s < sizeof names / sizeof names[0]);
  return names[s];
}

const char *plat_loc_file(const plat_platform *p, plat_loc loc)
{
  ASSERT(loc.file < p->nfiles);
  return p->files[loc.file];
}

/* ------------------------------------------------------------------------------------------
 * Clusters
 * ---------------------------------------------------------------------------------------- */

int64_t plat_cluster_number(const plat_cluster *c, size_t rank)
{
  ASSERTF(rank < c->count, "rank %zu of a cluster of %zu hosts", rank, c->count);
  size_t lo = 0, hi = c->nranges; /* last range whose first rank is <= rank */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->range_rank[mid] <= rank)
      lo = mid;
    else
      hi = mid;
  }
  return c->ranges[lo].lo + (int64_t)(rank - c->range_rank[lo]);
}

int plat_cluster_host_name(const plat_cluster *c, size_t rank, char *buf, size_t len)
{
  return snprintf(buf, len, "%s%" PRId64 "%s", c->prefix, plat_cluster_number(c, rank),
                  c->suffix);
}

/* Number written in canonical decimal (as the generated names are: no sign, no leading
 * zero) in s[0..len); -1 otherwise. */
static int64_t parse_canonical(const char *s, size_t len)
{
  if (len == 0 || len > 18 || (len > 1 && s[0] == '0'))
    return -1;
  int64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)s[i]))
      return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/* rank of number n in the cluster, via the sorted ranges */
static bool rank_of_number(const plat_cluster *c, int64_t n, size_t *rank)
{
  size_t lo = 0, hi = c->nranges;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->sorted[mid].hi < n)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == c->nranges || c->sorted[lo].lo > n)
    return false;
  *rank = c->sorted_rank[lo] + (size_t)(n - c->sorted[lo].lo);
  return true;
}

bool plat_cluster_rank_of(const plat_cluster *c, const char *name, size_t *rank)
{
  size_t plen = strlen(c->prefix), slen = strlen(c->suffix), len = strlen(name);
  if (len <= plen + slen || strncmp(name, c->prefix, plen) != 0 ||
      strcmp(name + len - slen, c->suffix) != 0)
    return false;
  int64_t n = parse_canonical(name + plen, len - plen - slen);
  return n >= 0 && rank_of_number(c, n, rank);
}

static void trim(const char **s, size_t *len)
{
  while (*len > 0 && isspace((unsigned char)**s)) {
    (*s)++;
    (*len)--;
  }
  while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
    (*len)--;
}

/* Non-negative integer in s[0..len) (blanks around allowed); false if not one. */
static bool parse_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
  trim(&s, &len);
  if (len == 0)
    return false;
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)s[i]))
      return false;
    v = v * 10 + (uint64_t)(s[i] - '0');
    if (v > max)
      return false;
  }
  *out = v;
  return true;
}

static int cmp_range(const void *a, const void *b)
{
  const plat_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

#define MAX_CLUSTER_HOSTS (1u << 31)
#define MAX_RADICAL_NUMBER 999999999999999LL /* 15 digits: names stay short, sums exact */

int plat_parse_radical(plat_cluster *c, const char *radical, char *err, size_t errlen)
{
  plat_range *ranges = NULL;
  size_t n = 0;
  uint64_t count = 0;
  const char *s = radical;
  for (;;) {
    size_t len = strcspn(s, ",;");
    const char *piece = s;
    size_t plen = len;
    trim(&piece, &plen);
    const char *dash = memchr(piece, '-', plen);
    uint64_t lo, hi;
    bool ok;
    if (dash) {
      ok = parse_uint(piece, (size_t)(dash - piece), MAX_RADICAL_NUMBER, &lo) &&
           parse_uint(dash + 1, plen - (size_t)(dash - piece) - 1, MAX_RADICAL_NUMBER, &hi);
    } else {
      ok = parse_uint(piece, plen, MAX_RADICAL_NUMBER, &lo);
      hi = lo;
    }
    if (!ok) {
      snprintf(err, errlen,
               "bad radical '%s': '%.*s' is neither a number nor a range like 0-99 "
               "(expected e.g. \"0-99,120,200-255\")",
               radical, (int)plen, piece);
      free(ranges);
      return -1;
    }
    if (lo > hi) {
      snprintf(err, errlen, "bad radical '%s': range '%.*s' is reversed (start > end)", radical,
               (int)plen, piece);
      free(ranges);
      return -1;
    }
    count += hi - lo + 1;
    if (count > MAX_CLUSTER_HOSTS) {
      snprintf(err, errlen, "bad radical '%s': more than %u hosts", radical, MAX_CLUSTER_HOSTS);
      free(ranges);
      return -1;
    }
    plat_range r = {(int64_t)lo, (int64_t)hi};
    PLAT_PUSH(ranges, n, r);
    if (s[len] == '\0')
      break;
    s += len + 1;
  }

  /* sorted copy with the rank of each range's first number; overlaps are repeated names */
  plat_range *sorted = xmalloc(n * sizeof *sorted);
  size_t *sorted_rank = xmalloc(n * sizeof *sorted_rank);
  memcpy(sorted, ranges, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, cmp_range);
  for (size_t i = 1; i < n; i++) {
    if (sorted[i].lo <= sorted[i - 1].hi) {
      snprintf(err, errlen, "bad radical '%s': number %" PRId64 " appears twice", radical,
               sorted[i].lo);
      free(ranges);
      free(sorted);
      free(sorted_rank);
      return -1;
    }
  }
  /* ranks: the original order decides; find each sorted range's original position */
  size_t *range_rank = xmalloc(n * sizeof *range_rank);
  size_t rank = 0;
  for (size_t i = 0; i < n; i++) {
    plat_range key = ranges[i];
    plat_range *hit = bsearch(&key, sorted, n, sizeof *sorted, cmp_range);
    ASSERT(hit != NULL);
    sorted_rank[hit - sorted] = rank;
    range_rank[i] = rank;
    rank += (size_t)(ranges[i].hi - ranges[i].lo + 1);
  }
  c->ranges = ranges;
  c->range_rank = range_rank;
  c->nranges = n;
  c->count = (size_t)count;
  c->sorted = sorted;
  c->sorted_rank = sorted_rank;
  return 0;
}

#define MAX_TOPO_VALUE 1000000u

int plat_parse_topo_params(const char *params, plat_topo_params *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  const char *s = params;
  size_t len = strlen(s);
  trim(&s, &len);
  if (len == 0)
    return 0; /* no part */
  size_t nparts = 1, nvalues = 1;
  for (size_t i = 0; i < len; i++) {
    nparts += s[i] == ';';
    nvalues += s[i] == ';' || s[i] == ',';
  }
  size_t *start = xmalloc((nparts + 1) * sizeof *start);
  unsigned *values = xmalloc(nvalues * sizeof *values);
  size_t part = 0, n = 0;
  start[0] = 0;
  for (const char *p = s, *end = s + len;;) {
    size_t plen = strcspn(p, ",;");
    if (p + plen > end)
      plen = (size_t)(end - p);
    uint64_t v;
    if (!parse_uint(p, plen, MAX_TOPO_VALUE, &v) || v == 0) {
      const char *piece = p;
      trim(&piece, &plen);
      snprintf(err, errlen, "topo_parameters '%s': '%.*s' is not a positive integer (at most %u)",
               params, (int)plen, piece, MAX_TOPO_VALUE);
      free(start);
      free(values);
      return -1;
    }
    values[n++] = (unsigned)v;
    p += plen;
    if (p >= end)
      break;
    if (*p == ';')
      start[++part] = n;
    p++;
  }
  ASSERT(part + 1 == nparts && n == nvalues);
  start[nparts] = n;
  out->nparts = nparts;
  out->start = start;
  out->values = values;
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Lookups
 * ---------------------------------------------------------------------------------------- */

plat_zone *plat_find_zone(const plat_platform *p, const char *id)
{
  return strmap_get(p->index->zones, id);
}

plat_host *plat_find_host(const plat_platform *p, const char *id)
{
  return strmap_get(p->index->hosts, id);
}

plat_router *plat_find_router(const plat_platform *p, const char *id)
{
  return strmap_get(p->index->routers, id);
}

bool plat_find_point(const plat_platform *p, const char *name, plat_point *out)
{
  void *v;
  memset(out, 0, sizeof *out);
  if ((v = strmap_get(p->index->hosts, name))) {
    out->kind = PLAT_POINT_HOST;
    out->u.host = v;
    return true;
  }
  if ((v = strmap_get(p->index->routers, name))) {
    out->kind = PLAT_POINT_ROUTER;
    out->u.router = v;
    return true;
  }
  if ((v = strmap_get(p->index->zones, name))) {
    out->kind = PLAT_POINT_ZONE;
    out->u.zone = v;
    return true;
  }
  for (size_t i = 0; i < p->nclusters; i++) {
    size_t rank;
    if (plat_cluster_rank_of(p->clusters[i]->cluster, name, &rank)) {
      out->kind = PLAT_POINT_CLUSTER_HOST;
      out->u.zone = p->clusters[i];
      out->rank = (uint32_t)rank;
      return true;
    }
  }
  return false;
}

static size_t strip_direction(const char *name, plat_direction *dir)
{
  size_t len = strlen(name);
  if (len > 3 && strcmp(name + len - 3, "_UP") == 0) {
    *dir = PLAT_DIR_UP;
    return len - 3;
  }
  if (len > 5 && strcmp(name + len - 5, "_DOWN") == 0) {
    *dir = PLAT_DIR_DOWN;
    return len - 5;
  }
  *dir = PLAT_DIR_NONE;
  return len;
}

/* The direction rules shared by explicit and generated links: a SPLITDUPLEX link is named
 * "L" plus a direction, or "L_UP"/"L_DOWN" without one; any other link without one. */
static plat_link_lookup check_direction(bool split, plat_direction named_dir, plat_direction dir,
                                        plat_direction *result)
{
  if (named_dir != PLAT_DIR_NONE) { /* reached through the _UP/_DOWN suffix */
    if (!split)
      return PLAT_LINK_UNKNOWN;
    if (dir != PLAT_DIR_NONE && dir != named_dir)
      return PLAT_LINK_UNKNOWN;
    *result = named_dir;
    return PLAT_LINK_FOUND;
  }
  if (split && dir == PLAT_DIR_NONE)
    return PLAT_LINK_NEEDS_DIR;
  if (!split && dir != PLAT_DIR_NONE)
    return PLAT_LINK_NOT_SPLIT;
  *result = dir;
  return PLAT_LINK_FOUND;
}

plat_link_lookup plat_cluster_link_lookup(plat_zone *cz, const char *name, plat_direction dir,
                                          plat_link_ref *out)
{
  const plat_cluster *c = cz->cluster;
  size_t idlen = strlen(cz->id);
  if (strncmp(name, cz->id, idlen) != 0)
    return PLAT_LINK_UNKNOWN;
  const char *rest = name + idlen;
  memset(out, 0, sizeof *out);
  out->cluster = cz;
  if (strcmp(rest, "_backbone") == 0) {
    if (!c->flat || !c->has_backbone)
      return PLAT_LINK_UNKNOWN;
    out->which = PLAT_CLINK_BACKBONE;
    return check_direction(false, PLAT_DIR_NONE, dir, &out->dir);
  }
  if (strncmp(rest, "_link_", 6) != 0)
    return PLAT_LINK_UNKNOWN;
  rest += 6;
  size_t digits = strspn(rest, "0123456789");
  int64_t n = parse_canonical(rest, digits);
  size_t rank;
  if (n < 0 || !rank_of_number(c, n, &rank))
    return PLAT_LINK_UNKNOWN;
  out->rank = (uint32_t)rank;
  const char *suffix = rest + digits;
  if (strcmp(suffix, "_limiter") == 0) {
    if (!c->has_limiter)
      return PLAT_LINK_UNKNOWN;
    out->which = PLAT_CLINK_LIMITER;
    return check_direction(false, PLAT_DIR_NONE, dir, &out->dir);
  }
  if (strcmp(suffix, "_loopback") == 0) {
    if (!c->has_loopback)
      return PLAT_LINK_UNKNOWN;
    out->which = PLAT_CLINK_LOOPBACK;
    return check_direction(false, PLAT_DIR_NONE, dir, &out->dir);
  }
  if (!c->flat)
    return PLAT_LINK_UNKNOWN;
  plat_direction named = PLAT_DIR_NONE;
  if (strcmp(suffix, "_UP") == 0)
    named = PLAT_DIR_UP;
  else if (strcmp(suffix, "_DOWN") == 0)
    named = PLAT_DIR_DOWN;
  else if (*suffix != '\0')
    return PLAT_LINK_UNKNOWN;
  out->which = PLAT_CLINK_PRIVATE;
  return check_direction(c->sharing == PLAT_SHARING_SPLITDUPLEX, named, dir, &out->dir);
}

plat_link_lookup plat_lookup_link(const plat_platform *p, const char *name, plat_direction dir,
                                  plat_link_ref *out)
{
  memset(out, 0, sizeof *out);
  plat_link *l = strmap_get(p->index->links, name);
  if (l) {
    out->link = l;
    return check_direction(l->sharing == PLAT_SHARING_SPLITDUPLEX, PLAT_DIR_NONE, dir, &out->dir);
  }
  plat_direction named;
  size_t base = strip_direction(name, &named);
  if (named != PLAT_DIR_NONE) {
    char *buf = xmalloc(base + 1);
    memcpy(buf, name, base);
    buf[base] = '\0';
    l = strmap_get(p->index->links, buf);
    free(buf);
    if (l) {
      out->link = l;
      return check_direction(l->sharing == PLAT_SHARING_SPLITDUPLEX, named, dir, &out->dir);
    }
  }
  plat_link_lookup best = PLAT_LINK_UNKNOWN;
  for (size_t i = 0; i < p->nclusters; i++) {
    plat_link_ref ref;
    plat_link_lookup r = plat_cluster_link_lookup(p->clusters[i], name, dir, &ref);
    if (r == PLAT_LINK_FOUND) {
      *out = ref;
      return r;
    }
    if (r != PLAT_LINK_UNKNOWN)
      best = r;
  }
  return best;
}

bool plat_find_link(const plat_platform *p, const char *name, plat_direction dir,
                    plat_link_ref *out)
{
  return plat_lookup_link(p, name, dir, out) == PLAT_LINK_FOUND;
}

/* ------------------------------------------------------------------------------------------
 * Hosts and points
 * ---------------------------------------------------------------------------------------- */

size_t plat_host_count(const plat_platform *p) { return p->index->total_hosts; }

plat_point plat_host_at(const plat_platform *p, size_t i)
{
  const struct plat_index *ix = p->index;
  ASSERTF(i < ix->total_hosts, "host %zu of %zu", i, ix->total_hosts);
  size_t lo = 0, hi = ix->nsegs;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (ix->segs[mid].start <= i)
      lo = mid;
    else
      hi = mid;
  }
  const plat_host_seg *s = &ix->segs[lo];
  plat_point pt = {0};
  if (s->cluster) {
    pt.kind = PLAT_POINT_CLUSTER_HOST;
    pt.u.zone = s->cluster;
    pt.rank = (uint32_t)(i - s->start);
  } else {
    pt.kind = PLAT_POINT_HOST;
    pt.u.host = p->hosts[s->first + (i - s->start)];
  }
  return pt;
}

int plat_point_name(const plat_point *pt, char *buf, size_t len)
{
  switch (pt->kind) {
  case PLAT_POINT_HOST:
    return snprintf(buf, len, "%s", pt->u.host->id);
  case PLAT_POINT_CLUSTER_HOST:
    return plat_cluster_host_name(pt->u.zone->cluster, pt->rank, buf, len);
  case PLAT_POINT_ROUTER:
    return snprintf(buf, len, "%s", pt->u.router->id);
  case PLAT_POINT_ZONE:
    return snprintf(buf, len, "%s", pt->u.zone->id);
  case PLAT_POINT_NONE:
    return snprintf(buf, len, "(none)");
  }
  UNREACHABLE();
}

plat_zone *plat_point_zone(const plat_point *pt)
{
  switch (pt->kind) {
  case PLAT_POINT_HOST:
    return pt->u.host->zone;
  case PLAT_POINT_CLUSTER_HOST:
  case PLAT_POINT_ZONE:
    return pt->u.zone;
  case PLAT_POINT_ROUTER:
    return pt->u.router->zone;
  case PLAT_POINT_NONE:
    return NULL;
  }
  UNREACHABLE();
}

bool plat_point_equal(const plat_point *a, const plat_point *b)
{
  if (a->kind != b->kind)
    return false;
  switch (a->kind) {
  case PLAT_POINT_HOST:
    return a->u.host == b->u.host;
  case PLAT_POINT_CLUSTER_HOST:
    return a->u.zone == b->u.zone && a->rank == b->rank;
  case PLAT_POINT_ROUTER:
    return a->u.router == b->u.router;
  case PLAT_POINT_ZONE:
    return a->u.zone == b->u.zone;
  case PLAT_POINT_NONE:
    return true;
  }
  UNREACHABLE();
}

void plat_point_host_desc(const plat_point *pt, plat_host_desc *out)
{
  if (pt->kind == PLAT_POINT_HOST) {
    const plat_host *h = pt->u.host;
    *out = (plat_host_desc){h->speeds, h->npstates, h->pstate, h->cores, &h->props, h->zone};
    return;
  }
  ASSERTF(pt->kind == PLAT_POINT_CLUSTER_HOST, "point kind %d is not a host", (int)pt->kind);
  const plat_cluster *c = pt->u.zone->cluster;
  *out = (plat_host_desc){c->speeds, c->npstates, 0, c->cores, &pt->u.zone->props, pt->u.zone};
}

int plat_link_ref_name(const plat_link_ref *ref, char *buf, size_t len)
{
  static const char *const dirs[] = {"", "_UP", "_DOWN"};
  const char *d = dirs[ref->dir];
  if (ref->link)
    return snprintf(buf, len, "%s%s", ref->link->id, d);
  const plat_zone *cz = ref->cluster;
  ASSERT(cz != NULL && cz->cluster != NULL);
  if (ref->which == PLAT_CLINK_BACKBONE)
    return snprintf(buf, len, "%s_backbone", cz->id);
  int64_t n = plat_cluster_number(cz->cluster, ref->rank);
  switch (ref->which) {
  case PLAT_CLINK_PRIVATE:
    return snprintf(buf, len, "%s_link_%" PRId64 "%s", cz->id, n, d);
  case PLAT_CLINK_LIMITER:
    return snprintf(buf, len, "%s_link_%" PRId64 "_limiter", cz->id, n);
  case PLAT_CLINK_LOOPBACK:
    return snprintf(buf, len, "%s_link_%" PRId64 "_loopback", cz->id, n);
  default:
    UNREACHABLE();
  }
}

void plat_link_ref_props(const plat_link_ref *ref, double *bandwidth, double *latency,
                         plat_sharing *sharing)
{
  if (ref->link) {
    *bandwidth = ref->link->bandwidth;
    *latency = ref->link->latency;
    *sharing = ref->link->sharing;
    return;
  }
  const plat_cluster *c = ref->cluster->cluster;
  switch (ref->which) {
  case PLAT_CLINK_PRIVATE:
    *bandwidth = c->bw, *latency = c->lat, *sharing = c->sharing;
    return;
  case PLAT_CLINK_LIMITER:
    *bandwidth = c->limiter_bw, *latency = 0, *sharing = PLAT_SHARING_SHARED;
    return;
  case PLAT_CLINK_LOOPBACK:
    *bandwidth = c->loopback_bw, *latency = c->loopback_lat, *sharing = PLAT_SHARING_FATPIPE;
    return;
  case PLAT_CLINK_BACKBONE:
    *bandwidth = c->bb_bw, *latency = c->bb_lat, *sharing = c->bb_sharing;
    return;
  }
  UNREACHABLE();
}

/* ------------------------------------------------------------------------------------------
 * Default platform
 * ---------------------------------------------------------------------------------------- */

char *plat_default_xml(int nhosts) { return plat_default_xml_net(nhosts, NULL, NULL); }

char *plat_default_xml_net(int nhosts, const char *bandwidth, const char *latency)
{
  if (nhosts < 1)
    nhosts = 1;
  if (!bandwidth)
    bandwidth = "10Gbps";
  if (!latency)
    latency = "1us";
  /* A small commodity cluster, sized for a laptop's first run: one host per rank, each a
   * 1 Gflop/s core with a private full-duplex 10 Gb/s, 1 us link to a non-blocking switch
   * (no shared backbone), and a fast loopback for messages a host sends to itself.
   * SimGrid's smpirun refuses to run without a platform, so no compatibility is at stake;
   * its generated platform's values (100 flop/s hosts, 26 MiB/s links) would make any
   * computation look absurdly slow. */
  return xasprintf(
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n"
      "  <cluster id=\"default\" prefix=\"host\" suffix=\"\" radical=\"1-%d\"\n"
      "           speed=\"1Gf\" bw=\"%s\" lat=\"%s\" sharing_policy=\"SPLITDUPLEX\"\n"
      "           loopback_bw=\"50GBps\" loopback_lat=\"0.1us\"/>\n"
      "</platform>\n",
      nhosts, bandwidth, latency);
}
