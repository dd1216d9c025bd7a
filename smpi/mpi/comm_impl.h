/* comm_impl.h: what the files of the communicator module share (group.c, comm.c, attr.c,
 * errhandler.c, errors.c, info.c, topo.c, u64map.c) with their MPI functions
 * (smpi/bindings/comm.c, group.c, attr.c, errhandler.c, errors.c, info.c, topo.c), which
 * check the arguments and call the smpi_* functions declared here. The rest of the MPI layer
 * uses smpi/mpi/comm.h and smpi/mpi/attr.h only; tests/check_comm.c uses this header for the
 * pure logic (group set operations, Dims_create, Cartesian arithmetic, context-id derivation).
 *
 * Object ownership at a glance:
 *
 *     rank 0                      rank 1                  shared by both ranks
 *     smpi_comm (handle A) --+    smpi_comm (handle B) --+---> smpi_group {0,1} (refcounted)
 *       name, attrs,         |      name, attrs,         |     smpi_topo (graph, refcounted)
 *       errhandler, info     |      errhandler, info     |
 *       rank 0, ctx 42 ------+      rank 1, ctx 42 ------+     (ctx: same on every member)
 *
 * Groups and topologies are immutable once built, so members share them; everything MPI
 * says belongs to a process (attributes, name, error handler, info) is in the per-rank
 * communicator object. */
#ifndef SMPI_SMPI_COMM_IMPL_H
#define SMPI_SMPI_COMM_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smpi/mpi/comm.h"
#include "smpi/mpi.h"

/* ---- u64 -> pointer hash map (u64map.c): open addressing, backward-shift deletion ---- */
typedef struct smpi_u64map {
  uint64_t *keys;
  void **vals;
  unsigned char *used;
  size_t cap, count; /* cap is 0 or a power of two */
} smpi_u64map;

void smpi_u64map_init(smpi_u64map *m);
void smpi_u64map_destroy(smpi_u64map *m);
void *smpi_u64map_get(const smpi_u64map *m, uint64_t key);     /* NULL if absent */
void smpi_u64map_put(smpi_u64map *m, uint64_t key, void *val); /* adds or replaces */
void *smpi_u64map_remove(smpi_u64map *m, uint64_t key);        /* old value or NULL */
uint64_t smpi_hash_u64(uint64_t x);

/* ---- groups (group.c) ---- */
struct smpi_group {
  int refs; /* handles + communicators + in-flight creations holding it */
  int size;
  int *world; /* world rank of each member; NULL when member i is world rank i */
  /* world rank -> group rank: a direct table over [lo, lo + span) when the members are
   * dense enough, an open-addressing table otherwise (hkeys[i] == -1: empty) */
  int *dense;
  int lo, span;
  int *hkeys, *hvals;
  unsigned hmask;
  uint64_t fp; /* hash of the member list: different fp => different groups */
};

/* Builds a group from world ranks (the array is taken over, or copied by _copy). */
smpi_group *smpi_group_new(int *world, int n);
smpi_group *smpi_group_new_copy(const int *world, int n);
smpi_group *smpi_group_identity(int n); /* world ranks 0..n-1 */
smpi_group *smpi_group_empty(void);     /* the static MPI_GROUP_EMPTY object */
smpi_group *smpi_group_ref(smpi_group *g);
void smpi_group_unref(smpi_group *g);
static inline int smpi_group_world_of(const smpi_group *g, int r)
{
  return g->world ? g->world[r] : r;
}
int smpi_group_rank_of(const smpi_group *g, int world);           /* MPI_UNDEFINED if absent */
bool smpi_group_equal(const smpi_group *a, const smpi_group *b);  /* same members, same order */
int smpi_group_compare(const smpi_group *a, const smpi_group *b); /* MPI_IDENT/SIMILAR/UNEQUAL */
/* Set operations of MPI 3.1 section 6.3.2. Return MPI_SUCCESS and a new reference in *out,
 * or an error class (MPI_ERR_RANK, MPI_ERR_ARG) and no group. */
int smpi_group_union(const smpi_group *a, const smpi_group *b, smpi_group **out);
int smpi_group_intersection(const smpi_group *a, const smpi_group *b, smpi_group **out);
int smpi_group_difference(const smpi_group *a, const smpi_group *b, smpi_group **out);
int smpi_group_incl(const smpi_group *g, int n, const int ranks[], smpi_group **out);
int smpi_group_excl(const smpi_group *g, int n, const int ranks[], smpi_group **out);
int smpi_group_range_incl(const smpi_group *g, int n, int ranges[][3], smpi_group **out);
int smpi_group_range_excl(const smpi_group *g, int n, int ranges[][3], smpi_group **out);
/* ranks2[i] = rank in b of rank ranks1[i] of a (MPI_UNDEFINED, MPI_PROC_NULL kept) */
int smpi_group_translate(const smpi_group *a, int n, const int ranks1[], const smpi_group *b,
                         int ranks2[]);
void smpi_group_setup_predefined(void);         /* registers MPI_GROUP_EMPTY */
smpi_group *smpi_group_get(MPI_Group h);        /* NULL if not a live group handle */
MPI_Group smpi_group_handle_new(smpi_group *g); /* takes over one reference */

/* ---- topologies (topo.c) ---- */
typedef struct smpi_topo {
  int kind; /* MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH */
  int refs;
  /* MPI_CART */
  int ndims;
  int *dims, *periods;
  /* MPI_GRAPH: the whole graph, shared by the members */
  int nnodes, nedges;
  int *index, *edges;
  /* MPI_DIST_GRAPH: this rank's neighbours only */
  int indegree, outdegree;
  int *sources, *sourceweights, *destinations, *destweights;
  bool weighted;
} smpi_topo;

smpi_topo *smpi_topo_new(int kind); /* empty, one reference */
smpi_topo *smpi_topo_cart_new(int ndims, const int dims[], const int periods[]);
int *smpi_copy_ints(const int *a, int n); /* xmalloc'ed copy (never NULL, even for n == 0) */
smpi_topo *smpi_topo_ref(smpi_topo *t);
void smpi_topo_unref(smpi_topo *t);
/* Cartesian arithmetic (row-major: the last dimension varies fastest) */
void smpi_cart_coords(const smpi_topo *t, int rank, int coords[]);
/* MPI_SUCCESS and *rank, or MPI_ERR_ARG for a coordinate out of a non-periodic range */
int smpi_cart_rank(const smpi_topo *t, const int coords[], int *rank);
void smpi_cart_shift(const smpi_topo *t, int rank, int direction, int disp, int *source,
                     int *dest);
/* MPI_Dims_create; MPI_SUCCESS or an error class */
int smpi_dims_create(int nnodes, int ndims, int dims[]);
/* The constructions of the MPI topology functions (topo.c), once smpi/bindings/topo.c has
 * checked the arguments: collective over the intracommunicator c (MPI_ERR_COMM for an
 * intercommunicator); *out is the new communicator with its topology, NULL on the
 * processes that get MPI_COMM_NULL. Ranks are never reordered. */
int smpi_topo_cart_create(smpi_comm *c, int ndims, const int dims[], const int periods[],
                          smpi_comm **out, const char *fname);
/* c has a Cartesian topology; returns smpi_comm_split's error, if any */
int smpi_topo_cart_sub(smpi_comm *c, const int remain_dims[], smpi_comm **out, const char *fname);
int smpi_topo_graph_create(smpi_comm *c, int nnodes, const int index[], const int edges[],
                           smpi_comm **out, const char *fname);
int smpi_topo_dist_graph_create_adjacent(smpi_comm *c, int indegree, const int sources[],
                                         const int sourceweights[], int outdegree,
                                         const int destinations[], const int destweights[],
                                         smpi_comm **out, const char *fname);
int smpi_topo_dist_graph_create(smpi_comm *c, int n, const int sources[], const int degrees[],
                                const int destinations[], const int weights[], smpi_comm **out,
                                const char *fname);

/* ---- context ids (comm.c) ----
 * Every communicator has an even base id: point-to-point traffic uses base, collective
 * traffic base + 1. MPI_COMM_WORLD is 0, the MPI_COMM_SELF of world rank r is 2 (r + 1),
 * and every other communicator gets a fresh id from a global counter, through
 *
 *     smpi_ctx_derive("c:<parent base>:<parent creation seq>", color, nmembers)
 *
 * All members build the same key without talking to each other (creations are collective,
 * so the per-parent sequence number is the same on every member; the color tells apart the
 * communicators one call creates). The first member to ask maps the key to the next fresh
 * id; the others find it in the table; the entry is dropped after nmembers lookups, so the
 * table only holds creations in progress. Ids are never reused (2^31 creations per job). */
void smpi_ctx_setup(int np);
uint32_t smpi_ctx_derive(const char *key, long color, int nmembers);
size_t smpi_ctx_pending(void); /* entries in the table (tests) */

/* ---- communicators (comm.c) ---- */
struct smpi_comm {
  MPI_Comm handle; /* MPI_COMM_WORLD / MPI_COMM_SELF for the predefined ones */
  int owner;       /* world rank of the process that owns this object */
  int refs;        /* the handle + pending operations (smpi_comm_ref) */
  bool freed;      /* MPI_Comm_free was called: the handle is gone */
  smpi_group *group;
  smpi_group *remote; /* intercommunicators: the remote group; NULL otherwise */
  int side;           /* intercommunicators: 0 or 1, the same on all members of a group */
  int rank;
  uint32_t ctx;
  uint32_t seq; /* collective creations started on this communicator so far */
  char *name;   /* NULL: no name set */
  struct smpi_errhandler *eh;
  MPI_Info info; /* hints set by Comm_set_info / dup_with_info, or MPI_INFO_NULL */
  smpi_topo *topo;
  struct strmap *counters; /* per-key sequence numbers: smpi_comm_next_count */
  struct smpi_comm *local; /* intercommunicators: hidden intracommunicator of the local group */
  char dname[40];          /* display name when no name is set: "communicator 0x4000103" */
};

smpi_comm *smpi_comm_world_of(int world_rank); /* NULL before that rank's MPI_Init */
/* intercommunicators: the hidden intracommunicator of the local group, made on first use
 * (its context id is derived from the intercommunicator's, so every member agrees) */
smpi_comm *smpi_comm_local(smpi_comm *c);

/* How many times this process already used key on c (0 the first time), counted with the
 * communicator: Comm_create_group and Intercomm_create tell their calls apart with it,
 * nonblocking collectives (collectives/coll_nb.c) their instances. */
uint32_t smpi_comm_next_count(smpi_comm *c, const char *key);

/* ---- collective creation (comm.c) ----
 * A rendezvous of the members of one creation call, named by a key all of them can build
 * ("c:<parent ctx>:<parent seq>"). Each member deposits a few ints and/or one pointer, then
 * runs the call's message pattern through the point-to-point layer (that is where the
 * simulated time goes); the pattern makes the deposits the call needs visible (causally
 * before). One member computes the shared result (groups, topologies) for all; the last
 * member to leave frees it. */
typedef struct smpi_xchg smpi_xchg;
typedef enum {
  SMPI_SYNC_BCAST, /* binomial broadcast from rank 0: rank 0's deposit is visible */
  SMPI_SYNC_ALL,   /* gather to rank 0 then scatter from it: every deposit is visible */
} smpi_sync;
smpi_xchg *smpi_xchg_join(const char *key, int n, int index, const int *mine, int width,
                          void *ptr, const char *fname);
/* join + message pattern over every member of parent, consuming one creation sequence
 * number of parent. On an intercommunicator (both groups are members, side 0 first) the
 * pattern is always: local leaders exchange, then each broadcasts to its group, which makes
 * both leaders' deposits (members 0 and local size of side 0) visible. bytes: the size of
 * each message of the pattern. */
smpi_xchg *smpi_comm_xchg(smpi_comm *parent, const int *mine, int width, void *ptr,
                          smpi_sync pattern, size_t bytes, const char *fname);
const char *smpi_xchg_key(const smpi_xchg *x);
int smpi_xchg_members(const smpi_xchg *x);
/* a member's deposit; asserts that it is visible (joined) */
const int *smpi_xchg_ints(const smpi_xchg *x, int index);
void *smpi_xchg_ptr(const smpi_xchg *x, int index);
void *smpi_xchg_result(smpi_xchg *x, void *(*compute)(smpi_xchg *x, void *arg), void *arg,
                       void (*free_fn)(void *result));
void smpi_xchg_leave(smpi_xchg *x);
/* Object shared by the nmembers callers that ask for key: the first creates it, the entry
 * is forgotten after the last take. A counted object is created with one reference per
 * member, each take handing one over: a member may free its copy before a slower one has
 * taken it (graph topologies, window shared blocks). */
void *smpi_shared_take(const char *key, int nmembers, void *(*create)(void *arg), void *arg);
/* New intracommunicator object of the calling rank, inheriting parent's error handler;
 * takes over the reference to g. */
smpi_comm *smpi_comm_new_intra(smpi_comm *parent, smpi_group *g, uint32_t ctx);
/* A communicator of the first `size` ranks of the intracommunicator c, in c's order (the
 * others get NULL), at the cost of MPI_Comm_dup: Cart_create, Graph_create, ... */
void smpi_comm_prefix_internal(smpi_comm *c, int size, smpi_comm **out, const char *fname);

/* ---- the rest of the MPI functions on communicators (comm.c), for smpi/bindings/comm.c,
 * which has checked the arguments. The creations are collective over c and return
 * MPI_SUCCESS, or MPI_ERR_COMM for the kind of communicator (intra or inter) they do not
 * take; *out is NULL for the processes that get MPI_COMM_NULL. smpi_comm_dup, _free and
 * _split are in comm.h. ---- */
int smpi_comm_compare(const smpi_comm *a, const smpi_comm *b); /* MPI_IDENT ... MPI_UNEQUAL */
void smpi_comm_set_name(smpi_comm *c, const char *name); /* truncated to MPI_MAX_OBJECT_NAME */
void smpi_comm_get_name(const smpi_comm *c, char *name, int *len);
void smpi_comm_set_info(smpi_comm *c, MPI_Info info); /* keeps a copy of the valid info */
MPI_Info smpi_comm_get_info(const smpi_comm *c);      /* a new info object for the caller */
int smpi_comm_dup_with_info(smpi_comm *c, MPI_Info info, smpi_comm **out, const char *fname);
/* MPI_Comm_idup: complete at once, without simulated time (the context id is derived) */
int smpi_comm_idup(smpi_comm *c, smpi_comm **out);
/* MPI_Comm_create: g is a subset of c; processes outside of g get NULL */
int smpi_comm_create(smpi_comm *c, smpi_group *g, smpi_comm **out, const char *fname);
/* MPI_Comm_create_group: called by the members of g (a subset of c) only; MPI_ERR_GROUP
 * for a caller outside of g */
int smpi_comm_create_group(smpi_comm *c, smpi_group *g, int tag, smpi_comm **out,
                           const char *fname);
/* MPI_Intercomm_create: peer (and remote_leader in it) matters on the local leader only */
int smpi_comm_intercomm_create(smpi_comm *c, int local_leader, smpi_comm *peer, int remote_leader,
                               int tag, smpi_comm **out, const char *fname);
int smpi_comm_intercomm_merge(smpi_comm *c, int high, smpi_comm **out, const char *fname);

/* ---- error handlers (errhandler.c) ---- */
enum { SMPI_EH_COMM = 1, SMPI_EH_WIN = 2, SMPI_EH_FILE = 4 };
typedef struct smpi_errhandler {
  int refs;  /* predefined ones are never freed */
  int kinds; /* SMPI_EH_*: what it may be attached to */
  MPI_Errhandler handle;
  bool fatal, ret; /* MPI_ERRORS_ARE_FATAL / MPI_ERRORS_RETURN */
  /* user function; handles are ints, so the comm, win and file signatures are one type */
  MPI_Comm_errhandler_function *fn;
} smpi_errhandler;

void smpi_errhandler_setup_predefined(void);
smpi_errhandler *smpi_errhandler_get(MPI_Errhandler h);
smpi_errhandler *smpi_errhandler_default(void); /* per smpi/errors-are-fatal */
void smpi_errhandler_declare_config(void);      /* smpi/errors-are-fatal (idempotent) */
/* Runs eh for error code raised by fname on the object whose handle is handle (a comm,
 * window or file: handles are ints) and whose display name is on (NULL: the message names
 * no object, the argument is in detail): returns code
 * (MPI_ERRORS_RETURN, user functions) or ends the job (MPI_ERRORS_ARE_FATAL). */
int smpi_errhandler_run(smpi_errhandler *eh, int handle, const char *on, int code,
                        const char *fname, const char *detail);
smpi_errhandler *smpi_errhandler_ref(smpi_errhandler *e);
void smpi_errhandler_unref(smpi_errhandler *e);
/* What the MPI functions on error handlers do once their arguments are checked
 * (smpi/bindings/errhandler.c; smpi_comm_set_errhandler is in comm.h). */
int smpi_errhandler_create(MPI_Comm_errhandler_function *fn, int kinds, MPI_Errhandler *out);
MPI_Errhandler smpi_comm_get_errhandler(smpi_comm *c); /* a new reference for the caller */
/* runs c's handler for code as if fname had raised it; returns what the handler returns */
int smpi_comm_call_errhandler(smpi_comm *c, int code, const char *fname);
/* the calling rank's handler for files opened later (MPI-IO is not simulated: only
 * MPI_FILE_NULL has a handler); MPI_ERRORS_RETURN until set. _get adds a reference. */
void smpi_errhandler_set_file_default(smpi_errhandler *e);
MPI_Errhandler smpi_errhandler_get_file_default(void);

/* ---- error classes and strings (errors.c) ---- */
/* "MPI_ERR_RANK: invalid rank"; a user string for codes from MPI_Add_error_code; NULL for
 * codes that do not exist */
const char *smpi_error_string(int code);
int smpi_error_class(int code); /* -1 if the code does not exist */
int smpi_error_lastused(void);  /* the calling rank's MPI_LASTUSEDCODE */
int *smpi_error_lastused_ptr(void);
/* What MPI_Add_error_class/_code/_string do for the calling rank (smpi_error_string_copy,
 * for MPI_Error_string, is in comm.h): a new class (its value); a new code of class
 * errorclass, or MPI_ERR_ARG if that is no class; the string of a code added by the rank,
 * or MPI_ERR_ARG for another code or a string of MPI_MAX_ERROR_STRING characters or more. */
int smpi_error_add_class(void);
int smpi_error_add_code(int errorclass, int *errorcode);
int smpi_error_set_string(int errorcode, const char *string);

/* ---- info objects (info.c) ---- */
void smpi_info_setup_predefined(void);
/* a copy of h (MPI_INFO_NULL gives MPI_INFO_NULL); used to keep a communicator's hints */
MPI_Info smpi_info_dup_handle(MPI_Info h);
MPI_Info smpi_info_new_handle(void); /* an empty info object */
void smpi_info_free_handle(MPI_Info h);
bool smpi_info_valid(MPI_Info h); /* MPI_INFO_NULL is not valid */
/* What the MPI functions on info objects do once their arguments are checked
 * (smpi/bindings/info.c): keys and values are non-empty and within MPI_MAX_INFO_KEY and
 * MPI_MAX_INFO_VAL. */
typedef struct smpi_info smpi_info;
smpi_info *smpi_info_get(MPI_Info h); /* NULL if not a live info handle */
void smpi_info_set(smpi_info *i, const char *key, const char *value); /* adds or replaces */
int smpi_info_delete(smpi_info *i, const char *key); /* MPI_ERR_INFO_NOKEY if absent */
/* MPI_Info_get: *flag, and at most valuelen characters and a NUL into value; MPI_ERR_ARG
 * if the key is there but value is NULL */
int smpi_info_value(const smpi_info *i, const char *key, int valuelen, char *value, int *flag);
void smpi_info_valuelen(const smpi_info *i, const char *key, int *valuelen, int *flag);
int smpi_info_nkeys(const smpi_info *i);
void smpi_info_nthkey(const smpi_info *i, int n, char *key); /* 0 <= n < nkeys */

/* ---- attributes: setup of the predefined keyvals (attr.c) ---- */
void smpi_attr_setup_predefined(void);

#endif
