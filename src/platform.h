/* Platform description: SimGrid's XML platform format (version 4.1) loaded into memory.
 *
 * The loader reads the file with libxml2 (never touching the network, never loading the
 * DTD named by the DOCTYPE), validates it against our own DTD (platforms/smpi.dtd, embedded
 * into the library at build time), then builds the tree below and checks what a DTD cannot
 * (units, references, duplicate names, the syntax of cluster topo_parameters). Routing and
 * the resource models consume the result (the routing also checks what a cluster's
 * topology makes of its topo_parameters); nothing here computes a route.
 *
 *   plat_platform
 *    +- root zone "world" (routing Full)                <zone id="world" routing="Full">
 *    |   +- zone "siteA" (Cluster, cluster != NULL)       <cluster id="siteA" radical="0-99" .../>
 *    |   |     100 hosts, kept as prefix/radical ranges/suffix (never expanded)
 *    |   |     router "a-siteA_router" (a real plat_router)
 *    |   +- zone "siteB" (Full)                           <zone id="siteB" routing="Full">
 *    |   |     hosts, routers, links, routes                 <host/> <link/> <route/>
 *    |   +- links "wan"                                   <link id="wan" .../>
 *    |   +- routes: zoneRoute siteA -> siteB via "wan"    <zoneRoute src= dst= gw_src= gw_dst=>
 *    +- config entries applied to the cfg registry        <config><prop id= value=/></config>
 *
 * Names. Hosts, routers and zones share one namespace (SimGrid's "netpoints"); links have
 * their own. Both are unique over the whole platform, including the names that clusters
 * generate (see "Cluster naming" below). Lookups by name are O(1) through hash maps, except
 * for cluster hosts which are recognised by their prefix/number/suffix pattern (O(number of
 * clusters), no per-host storage).
 *
 * Units are converted at load time: speeds in flop/s, bandwidths in bytes/s, latencies in
 * seconds. Every element remembers where it was defined (plat_loc: file and line) so that
 * later stages can report "file:line: ..." too.
 *
 * Lifetime: everything belongs to the plat_platform and is freed by plat_free. Pointers
 * between elements (zone->parent, route links, ...) are stable for the platform's lifetime.
 */
#ifndef SMPI_SRC_PLATFORM_H
#define SMPI_SRC_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct plat_platform plat_platform;
typedef struct plat_zone plat_zone;
typedef struct plat_host plat_host;
typedef struct plat_router plat_router;
typedef struct plat_link plat_link;
typedef struct plat_route plat_route;
typedef struct plat_cluster plat_cluster;

/* ------------------------------------------------------------------------------------------
 * Loading
 * ---------------------------------------------------------------------------------------- */

/* Loads a platform file. On success returns 0 and sets *out (free it with plat_free). On
 * error returns -1, sets *out to NULL and writes one line into err, "file:line: what is
 * wrong" (or "file: ..." when no line applies, e.g. a missing file). The <config> section,
 * if any, is applied to the cfg registry (origin CFG_ORIGIN_PLATFORM) while loading.
 * Included files (<include file="x.xml"/>) are read relative to the including file. */
int plat_load_file(const char *path, plat_platform **out, char *err, size_t errlen);

/* The same from a string held in memory; name_for_messages stands for the file name in
 * messages and its directory (if it has one) anchors relative <include> paths (else the
 * current directory does). */
int plat_load_string(const char *xml, const char *name_for_messages, plat_platform **out,
                     char *err, size_t errlen);

void plat_free(plat_platform *p); /* NULL is fine */

/* The built-in platform used when smpirun is given no -platform: a flat cluster "default"
 * of max(nhosts, 1) hosts named host1 .. hostN, each a 1 Gflop/s core with a private
 * SPLITDUPLEX 10 Gb/s, 1 us link (no backbone: a non-blocking switch; a message between two
 * hosts crosses two links, 2 us) and a 50 GB/s, 0.1 us loopback for messages to self.
 * Returns a fresh string (free() it) loadable with plat_load_string. */
char *plat_default_xml(int nhosts);
/* The same with the hosts' links set (smpirun -bandwidth / -latency, as SimGrid's smpirun sets
 * its generated platform's): values with their unit ("1GBps", "5us"; NULL: the defaults
 * above), inserted as written, so the caller keeps quotes and '<', '&' out. */
char *plat_default_xml_net(int nhosts, const char *bandwidth, const char *latency);

/* The DTD embedded in the library (platforms/smpi.dtd at build time), NUL-terminated. */
const char *plat_dtd_text(void);

/* ------------------------------------------------------------------------------------------
 * The model
 * ---------------------------------------------------------------------------------------- */

typedef struct plat_loc {
  uint32_t file; /* index into plat_platform.files */
  uint32_t line; /* 1-based; 0 for elements made by the loader itself */
} plat_loc;

typedef enum {
  PLAT_ROUTING_FULL,
  PLAT_ROUTING_FLOYD,
  PLAT_ROUTING_DIJKSTRA,
  PLAT_ROUTING_DIJKSTRA_CACHE,
  PLAT_ROUTING_CLUSTER, /* <zone routing="Cluster"> (host_link/backbone) or any <cluster> */
  PLAT_ROUTING_STAR,
  PLAT_ROUTING_NONE,
  PLAT_ROUTING_VIVALDI, /* hosts placed by coordinates; <peer>s (kernel/routing_vivaldi.c) */
} plat_routing;

typedef enum {
  PLAT_SHARING_SHARED,      /* one capacity shared by all flows, both directions together */
  PLAT_SHARING_SPLITDUPLEX, /* two independent links L_UP and L_DOWN (alias FULLDUPLEX) */
  PLAT_SHARING_FATPIPE,     /* each flow gets the full bandwidth */
} plat_sharing;

typedef enum {
  PLAT_DIR_NONE, /* the link itself (not SPLITDUPLEX) */
  PLAT_DIR_UP,   /* L_UP of a SPLITDUPLEX link L */
  PLAT_DIR_DOWN, /* L_DOWN of a SPLITDUPLEX link L */
} plat_direction;

/* A cluster's topo_parameters read without knowing its topology: ';'-separated parts, each
 * a ','-separated list of positive integers ("2;4,4;1,2;1,2": 4 parts of 1, 2, 2 and 2
 * values; "" : no part). What they mean, and how many a topology wants, is the routing's
 * business (kernel/topo.h). */
typedef struct plat_topo_params {
  size_t nparts;
  size_t *start; /* [nparts + 1]: part i is values[start[i] .. start[i + 1]) */
  unsigned *values;
} plat_topo_params;

typedef struct plat_prop {
  char *key;
  char *value;
} plat_prop;

typedef struct plat_props {
  plat_prop *items; /* document order; a repeated key keeps its last value */
  size_t count;
} plat_props;

/* Value of key, or NULL. Linear: property lists are short. */
const char *plat_props_get(const plat_props *props, const char *key);

typedef struct plat_disk {
  char *id;
  double read_bw, write_bw; /* B/s */
  plat_props props;
  plat_loc loc;
} plat_disk;

struct plat_host {
  char *id;
  plat_zone *zone;
  size_t index;    /* position in plat_platform.hosts */
  double *speeds;  /* flop/s per core, one per pstate (<host speed="1Gf,500Mf">) */
  size_t npstates; /* >= 1 */
  size_t pstate;   /* initial pstate (default 0) */
  int cores;       /* default 1 */
  plat_props props;
  plat_disk *disks;
  size_t ndisks;
  char *speed_file; /* availability profile (speed_file or availability_file), or NULL */
  struct plat_profile *speed_profile; /* its events (src/plat_profile.h: speed scales) */
  char *state_file;                   /* on/off profile, or NULL */
  struct plat_profile *state_profile; /* its events (0: down, else up), or NULL */
  char *coordinates;                  /* Vivaldi coordinates as written, or NULL */
  bool has_coords;                    /* coordinates parsed: x y height (ms) */
  double coords[3];
  plat_loc loc;
};

struct plat_router {
  char *id;
  plat_zone *zone;
  size_t index;    /* position in plat_platform.routers */
  bool generated;  /* made by the loader for a <cluster> (its zone->cluster->router) */
  bool has_coords; /* coordinates="x y height" given (a Vivaldi zone's gateway) */
  double coords[3];
  plat_loc loc;
};

struct plat_link {
  char *id; /* for SPLITDUPLEX, the two directions are named id_UP and id_DOWN */
  plat_zone *zone;
  size_t index;     /* position in plat_platform.links */
  double bandwidth; /* B/s, > 0 */
  double latency;   /* s, >= 0 (default 0) */
  plat_sharing sharing;
  bool backbone; /* declared with <backbone> (then also zone->backbone) */
  plat_props props;
  char *bandwidth_file, *latency_file, *state_file; /* profiles, or NULL */
  struct plat_profile *bandwidth_profile;           /* bandwidth_file's events (B/s), or NULL */
  struct plat_profile *latency_profile;             /* latency_file's events (s), or NULL */
  struct plat_profile *state_profile;               /* state_file's events (0: down), or NULL */
  plat_loc loc;
};

/* Where a route starts or ends: a host (explicit or one of a cluster's), a router or a zone
 * (zoneRoute ends). */
typedef enum {
  PLAT_POINT_NONE,
  PLAT_POINT_HOST,         /* u.host */
  PLAT_POINT_CLUSTER_HOST, /* u.zone (a cluster zone) and rank (0 .. count-1) */
  PLAT_POINT_ROUTER,       /* u.router */
  PLAT_POINT_ZONE,         /* u.zone */
} plat_point_kind;

typedef struct plat_point {
  plat_point_kind kind;
  uint32_t rank; /* PLAT_POINT_CLUSTER_HOST only */
  union {
    plat_host *host;
    plat_router *router;
    plat_zone *zone;
  } u;
} plat_point;

/* Links generated by a <cluster> (see "Cluster naming"). */
typedef enum {
  PLAT_CLINK_PRIVATE,  /* <id>_link_<n>: the host's link to the cluster (bw, lat, policy) */
  PLAT_CLINK_LIMITER,  /* <id>_link_<n>_limiter: SHARED, limiter_link B/s, latency 0 */
  PLAT_CLINK_LOOPBACK, /* <id>_link_<n>_loopback: FATPIPE, loopback_bw / loopback_lat */
  PLAT_CLINK_BACKBONE, /* <id>_backbone: bb_bw / bb_lat / bb_sharing_policy */
} plat_cluster_link;

/* One link of a route: an explicit link, or one that a cluster generates. */
typedef struct plat_link_ref {
  plat_link *link;         /* explicit link, or NULL for a cluster-generated one */
  plat_zone *cluster;      /* cluster zone of a generated link */
  plat_cluster_link which; /* generated links only */
  uint32_t rank;           /* host rank for PRIVATE/LIMITER/LOOPBACK */
  plat_direction dir;      /* UP/DOWN for SPLITDUPLEX links, NONE otherwise */
} plat_link_ref;

typedef enum {
  PLAT_ROUTE,             /* <route>: host/router to host/router inside one zone */
  PLAT_ZONE_ROUTE,        /* <zoneRoute> (alias ASroute): between two sub-zones */
  PLAT_BYPASS_ROUTE,      /* <bypassRoute> */
  PLAT_BYPASS_ZONE_ROUTE, /* <bypassZoneRoute> (alias bypassASroute) */
} plat_route_kind;

struct plat_route {
  plat_route_kind kind;
  plat_zone *zone;           /* where the route was declared */
  plat_point src, dst;       /* hosts/routers, or zones for zone routes */
  plat_point gw_src, gw_dst; /* zone routes only: hosts/routers inside src and dst */
  bool symmetrical;          /* default YES; always false for bypass routes */
  plat_link_ref *links;      /* in order, never empty */
  size_t nlinks;
  plat_loc loc;
};

/* <host_link id=host up=link down=link/> in a routing="Cluster" zone: a host's private
 * links towards the zone's backbone/router. */
typedef struct plat_host_link {
  plat_host *host;
  plat_link_ref up, down;
  plat_loc loc;
} plat_host_link;

/* Consecutive host numbers lo..hi of a radical ("0-4095,5000" = {0,4095}, {5000,5000}). */
typedef struct plat_range {
  int64_t lo, hi;
} plat_range;

struct plat_cluster {
  char *prefix, *suffix;
  char *radical;      /* as written */
  plat_range *ranges; /* in radical order: rank 0 is the first number of ranges[0] */
  size_t nranges;
  size_t count;   /* number of hosts */
  double *speeds; /* flop/s per pstate */
  size_t npstates;
  int cores;
  double bw, lat;       /* private links */
  plat_sharing sharing; /* private links, default SPLITDUPLEX */
  bool has_backbone;    /* bb_bw given */
  double bb_bw, bb_lat;
  plat_sharing bb_sharing; /* SHARED (default) or FATPIPE */
  bool has_limiter;
  double limiter_bw;
  bool has_loopback;
  double loopback_bw, loopback_lat;
  plat_router *router; /* router_id, default <prefix><id>_router<suffix> */
  /* topology as written, "FLAT" by default; the routing knows the others (kernel/topo.h)
   * and rejects unknown names. FLAT is the plain cluster: a private link per host, an
   * optional backbone, a router; other topologies generate and name their own links and
   * have no router (SimGrid does not create it). */
  char *topology;
  bool flat;             /* topology is FLAT */
  char *topo_parameters; /* as written ("" if none) */
  plat_topo_params topo; /* topo_parameters parsed (not for FLAT, which ignores them) */
  /* private: rank of ranges[i].lo (rank -> number), and the ranges sorted by number with
   * the rank of each one's first number (name -> rank) */
  size_t *range_rank;
  plat_range *sorted;
  size_t *sorted_rank;
};

struct plat_zone {
  char *id;
  plat_routing routing;
  plat_zone *parent; /* NULL for the root */
  size_t index;      /* position in plat_platform.zones */
  plat_zone **children;
  size_t nchildren;
  plat_host **hosts; /* explicit hosts (cluster hosts are not listed: see cluster) */
  size_t nhosts;
  plat_router **routers;
  size_t nrouters;
  plat_link **links;
  size_t nlinks;
  plat_route **routes; /* every kind, in document order */
  size_t nroutes;
  plat_host_link *host_links; /* routing="Cluster" zones */
  size_t nhost_links;
  plat_link *backbone;   /* <backbone> of a routing="Cluster" zone, or NULL */
  plat_cluster *cluster; /* non-NULL iff the zone comes from a <cluster> element */
  plat_props props;      /* a cluster's props also apply to each of its hosts */
  plat_loc loc;
};

typedef struct plat_config_entry {
  char *key, *value;
  plat_loc loc;
} plat_config_entry;

typedef struct plat_trace {
  char *id;
  char *file; /* or NULL when the events are inline */
  char *text; /* inline events, or NULL */
  double periodicity;
  plat_loc loc;
} plat_trace;

typedef struct plat_trace_connect {
  char *kind;    /* HOST_AVAIL, SPEED, LINK_AVAIL, BANDWIDTH or LATENCY */
  char *trace;   /* trace id */
  char *element; /* host or link id */
  plat_loc loc;
} plat_trace_connect;

struct plat_index; /* private: the name maps */

struct plat_platform {
  double version;    /* 4.0 or 4.1 */
  plat_zone *root;   /* NULL for a platform without any zone */
  plat_zone **zones; /* all zones (clusters included), document order, root first */
  size_t nzones;
  plat_host **hosts; /* explicit hosts, document order */
  size_t nhosts;
  plat_router **routers; /* routers, cluster routers included */
  size_t nrouters;
  plat_link **links; /* explicit links (and <backbone>s) */
  size_t nlinks;
  plat_zone **clusters; /* zones made by <cluster>, document order */
  size_t nclusters;
  plat_config_entry *config;
  size_t nconfig;
  plat_trace *traces;
  size_t ntraces;
  plat_trace_connect *trace_connects;
  size_t ntrace_connects;
  char **files; /* files[loc.file]: the top file first, then included files */
  size_t nfiles;
  struct plat_index *index;
};

/* ------------------------------------------------------------------------------------------
 * Queries
 * ---------------------------------------------------------------------------------------- */

const char *plat_loc_file(const plat_platform *p, plat_loc loc);

plat_zone *plat_find_zone(const plat_platform *p, const char *id);
plat_host *plat_find_host(const plat_platform *p, const char *id); /* explicit hosts only */
plat_router *plat_find_router(const plat_platform *p, const char *id);
/* Any host (explicit or cluster), router or zone. */
bool plat_find_point(const plat_platform *p, const char *name, plat_point *out);
/* A link as a route names it: "L" (not SPLITDUPLEX, dir must be NONE), "L" with dir UP or
 * DOWN (SPLITDUPLEX), "L_UP"/"L_DOWN" (dir NONE), or a cluster-generated link name (for any
 * cluster: loopback and limiter links; for FLAT clusters also private links and backbone).
 * Returns false if no such link exists or the direction does not fit. */
bool plat_find_link(const plat_platform *p, const char *name, plat_direction dir,
                    plat_link_ref *out);

/* All hosts, explicit and cluster ones, in document order (a cluster's hosts in radical
 * order at the cluster's place). O(1) count, O(log(explicit hosts + clusters)) access. */
size_t plat_host_count(const plat_platform *p);
plat_point plat_host_at(const plat_platform *p, size_t i);

/* Name of a point, snprintf-style (returns the length it needs). */
int plat_point_name(const plat_point *pt, char *buf, size_t len);
/* The zone that directly contains a host or router (a cluster host: its cluster zone); for a
 * zone point, the zone itself. */
plat_zone *plat_point_zone(const plat_point *pt);
bool plat_point_equal(const plat_point *a, const plat_point *b);

/* What the CPU model needs about a host, explicit or cluster. */
typedef struct plat_host_desc {
  const double *speeds; /* flop/s per core per pstate */
  size_t npstates;
  size_t pstate;
  int cores;
  const plat_props *props;
  plat_zone *zone;
} plat_host_desc;
void plat_point_host_desc(const plat_point *pt, plat_host_desc *out); /* host points only */

/* Cluster naming (as SimGrid does, n = the host's radical number, not its rank):
 *   host n            <prefix><n><suffix>
 *   router            router_id, default <prefix><cluster id>_router<suffix>
 *   private link      <cluster id>_link_<n>   (SPLITDUPLEX: ..._UP / ..._DOWN)
 *   limiter link      <cluster id>_link_<n>_limiter
 *   loopback link     <cluster id>_link_<n>_loopback
 *   backbone          <cluster id>_backbone
 * Links inside other topologies (FAT_TREE, TORUS, ...) are named by the routing code. */
int64_t plat_cluster_number(const plat_cluster *c, size_t rank); /* radical number of rank */
int plat_cluster_host_name(const plat_cluster *c, size_t rank, char *buf, size_t len);
/* rank of the host with this name, if it belongs to c */
bool plat_cluster_rank_of(const plat_cluster *c, const char *name, size_t *rank);
/* Name of a generated link (plus _UP/_DOWN for dir), snprintf-style. */
int plat_link_ref_name(const plat_link_ref *ref, char *buf, size_t len);
/* Characteristics of the link a reference designates (explicit or generated). */
void plat_link_ref_props(const plat_link_ref *ref, double *bandwidth, double *latency,
                         plat_sharing *sharing);

const char *plat_routing_name(plat_routing r);
const char *plat_sharing_name(plat_sharing s);

#endif
