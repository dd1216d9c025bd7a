/* One-sided communication (RMA): windows (smpi/rma/win.c) and the operations and
 * synchronisations on them (smpi/rma/rma.c). Internal to the MPI layer: the MPI functions
 * are in smpi/bindings/win.c and smpi/bindings/rma.c, which check the arguments, resolve
 * the handles and call the smpi_win_* and smpi_rma_* functions declared at the end.
 *
 * Objects of one window of 3 ranks:
 *
 *     rank 0: smpi_win (handle A) --+    each rank: its own handle, name, error handler,
 *     rank 1: smpi_win (handle B) --+--> info, attributes, epoch state, and the
 *     rank 2: smpi_win (handle C) --+    target-side state of its own memory (lock queue,
 *                                   |    post/complete counters)
 *                                   v
 *                       smpi_win_shared: members[3] (rank -> object), the per-(origin,
 *                       target) pair states, the lock_all bookkeeping, and the memory of a
 *                       shared-memory window. Freed by the last member's MPI_Win_free.
 *
 * Every member also holds a private duplicate of the window's communicator (MPICH's
 * Win_create does the same): the collective parts of the synchronisations (the barrier of
 * MPI_Win_fence, of MPI_Win_free) run on it as real messages. Everything else (the data
 * and the handshakes of PSCW and locks) moves as flows of the network model started by
 * rma.c; the timing model is described in docs/rma.md. */
#ifndef SMPI_SMPI_WIN_H
#define SMPI_SMPI_WIN_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/engine.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/op.h"
#include "smpi/mpi.h"
#include "src/list.h"

typedef struct smpi_win smpi_win;
typedef struct smpi_win_shared smpi_win_shared;

/* Access epochs an origin can be in (MPI 3.1 section 11.5). FENCE_READY: a fence without
 * MPI_MODE_NOSUCCEED was called: operations may follow (then it is FENCE), but as long as
 * none did, another kind of epoch may start instead (as in MPICH). */
typedef enum {
  RMA_ACC_NONE,
  RMA_ACC_FENCE_READY,
  RMA_ACC_FENCE,
  RMA_ACC_START,
  RMA_ACC_LOCK, /* one or more MPI_Win_lock epochs (pairs say which targets) */
  RMA_ACC_LOCK_ALL,
} rma_access;

/* A dynamic window's attached memory. */
typedef struct rma_region {
  char *base;
  size_t size;
} rma_region;

struct smpi_win {
  MPI_Win handle;
  smpi_win_shared *sh;
  int rank;      /* in the window's group */
  int world;     /* the owner's world rank */
  MPI_Comm comm; /* private duplicate of the creation communicator */
  smpi_comm *c;  /* its object */
  /* this rank's memory (for MPI_WIN_FLAVOR_DYNAMIC: MPI_BOTTOM, 0, 1 and the regions) */
  char *base;
  MPI_Aint size;
  int disp_unit;
  int flavor;     /* MPI_WIN_FLAVOR_* */
  int model;      /* MPI_WIN_UNIFIED */
  bool allocated; /* Win_allocate: base is ours to free */
  rma_region *regions;
  size_t nregions, cap_regions;
  char *name;
  smpi_errhandler *eh;
  MPI_Info info;

  /* ---- origin side ---- */
  rma_access access;
  smpi_group *start_group; /* RMA_ACC_START */
  long locks_held;         /* RMA_ACC_LOCK: targets locked */
  long outstanding;        /* operations issued and not complete at the origin */
  long local_outstanding;  /* of which not locally complete (origin buffer in use) */
  unsigned long issued;    /* operations issued since the last fence (NOPRECEDE check) */
  bool lock_all_nocheck;   /* MPI_Win_lock_all(MPI_MODE_NOCHECK): no lock was taken */
  int *dirty;              /* targets of Put/Accumulate awaiting an acknowledged flush */
  size_t ndirty, cap_dirty;

  /* ---- target side ---- */
  bool posted; /* exposure epoch of MPI_Win_post */
  smpi_group *post_group;
  int post_assert;
  /* assertions of the fence epoch this rank opened last and of the one before: an origin
   * still in epoch k may target a rank already inside the fence that opens k + 1 */
  int fence_assert, fence_assert_prev;
  unsigned long fence_seq; /* fences called so far */
  long completes;          /* MPI_Win_complete notifications arrived, not yet consumed */
  int excl;                /* window rank holding the exclusive lock, or -1 */
  long shared_holders;     /* MPI_Win_lock(SHARED) holders of this rank's memory */
  list_node lock_queue;    /* rma_lockreq waiting for this rank's lock */
  list_node pending_link;  /* in sh->lock_pending while lock_queue is not empty */

  /* a blocked call of the owner waits here; whatever may change its condition wakes it */
  eng_actor *waiter;
  const char *waiting_for; /* deadlock reports */
};

struct smpi_win_shared {
  int n;
  int refs; /* members that have not freed it yet */
  smpi_win **members;
  int flavor;
  char *shm;                /* Win_allocate_shared: the one block */
  smpi_u64map pairs;        /* origin * n + target -> rma_pair */
  long excl_held;           /* exclusive locks held on any member */
  long lock_all_held;       /* MPI_Win_lock_all epochs open */
  list_node lock_all_queue; /* rma_lockreq of MPI_Win_lock_all waiting for excl_held == 0 */
  list_node lock_pending;   /* members whose lock_queue is not empty */
};

/* ---- win.c ---- */
smpi_win *smpi_win_get(MPI_Win h); /* NULL for null, freed and non-window handles */
/* Reports code raised by fname on win through the window's error handler (MPI_COMM_WORLD's
 * when win is NULL), like smpi_comm_error; returns the code the call must return. */
int smpi_win_error(smpi_win *win, int code, const char *fname);
int smpi_win_errorf(smpi_win *win, int code, const char *fname, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The pointer a rank's window memory has for the origin: base + disp * disp_unit, or the
 * absolute address for dynamic windows; NULL with *err set when [lo, hi) of it (relative
 * byte offsets) is not inside the window's memory. */
char *smpi_win_target_addr(const smpi_win *target, MPI_Aint disp, MPI_Aint lo, MPI_Aint hi,
                           int *err);

/* ---- rma.c ---- */
/* The calling rank blocks until cond(w, arg) holds; rma.c wakes w->waiter whenever
 * something that conditions depend on changes for w. */
void smpi_rma_wait_until(smpi_win *w, bool (*cond)(smpi_win *w, void *arg), void *arg,
                         const char *what);
void smpi_rma_wake(smpi_win *w);
/* Per-window clean-up of the RMA state when the shared object goes away. */
void smpi_rma_shared_destroy(smpi_win_shared *sh);
/* The state of the calling rank's epochs allows MPI_Win_free: MPI_SUCCESS or
 * MPI_ERR_RMA_SYNC. */
int smpi_rma_can_free(const smpi_win *w);

/* ---- what the MPI calls do once their arguments are checked ----
 *
 * Called by smpi/bindings/win.c and smpi/bindings/rma.c with the window (and the other
 * handles) resolved and every argument check of the call passed; output pointers are not
 * NULL. The functions that can still fail (on the state of the epochs, of the window's
 * memory, of the placement) report the error through the handler of the window (of the
 * communicator for creation) as raised by fname, and return the code the call returns. */

/* win.c: creation (collective over comm, which is an intracommunicator) and destruction */
void smpi_win_create(MPI_Comm comm, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                     MPI_Win *win);
void smpi_win_allocate(MPI_Comm comm, MPI_Aint size, int disp_unit, MPI_Info info, void *baseptr,
                       MPI_Win *win);
/* MPI_ERR_RMA_SHARED when the members of comm are not on one host */
int smpi_win_allocate_shared(MPI_Comm comm, MPI_Aint size, int disp_unit, MPI_Info info,
                             void *baseptr, MPI_Win *win, const char *fname);
void smpi_win_create_dynamic(MPI_Comm comm, MPI_Info info, MPI_Win *win);
/* MPI_ERR_RMA_SYNC while an epoch is open (the window stays); else frees it and sets *win
 * to MPI_WIN_NULL, returning what the attribute delete callbacks returned */
int smpi_win_free(smpi_win *w, MPI_Win *win, const char *fname);

/* win.c: the other window calls (dynamic windows, shared memory, names, info, errors) */
int smpi_win_attach(smpi_win *w, void *base, MPI_Aint size, const char *fname);
int smpi_win_detach(smpi_win *w, const void *base, const char *fname);
void smpi_win_shared_query(const smpi_win *w, int rank, MPI_Aint *size, int *disp_unit,
                           void *baseptr);
void smpi_win_set_name(smpi_win *w, const char *name);
void smpi_win_get_name(const smpi_win *w, char *name, int *resultlen);
void smpi_win_get_group(const smpi_win *w, MPI_Group *group);
void smpi_win_set_info(smpi_win *w, MPI_Info info);
void smpi_win_get_info(const smpi_win *w, MPI_Info *info_used);
void smpi_win_set_errhandler(smpi_win *w, smpi_errhandler *e);
void smpi_win_get_errhandler(const smpi_win *w, MPI_Errhandler *errhandler);

/* rma.c: the communication calls */
typedef enum { RMA_OP_PUT, RMA_OP_GET, RMA_OP_ACC, RMA_OP_GACC, RMA_OP_CAS } rma_op_kind;

/* One of MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate (and MPI_Fetch_and_op),
 * MPI_Compare_and_swap or their request-based variants, with its arguments checked: counts
 * not negative, target a rank of the window or MPI_PROC_NULL, datatypes committed, the
 * displacement not negative (but on dynamic windows), and for accumulates a predefined op
 * defined on the one predefined type both sides consist of. */
typedef struct smpi_rma_args {
  rma_op_kind kind;
  const void *oaddr; /* origin data (not RMA_OP_GET) */
  size_t ocount;
  smpi_dt *odt;
  const void *caddr; /* RMA_OP_CAS: the value compared */
  void *raddr;       /* where the results go: RMA_OP_GET, RMA_OP_GACC, RMA_OP_CAS */
  size_t rcount;
  smpi_dt *rdt;
  int target;
  MPI_Aint disp;
  size_t tcount;
  smpi_dt *tdt;
  MPI_Op op;            /* RMA_OP_GET: MPI_NO_OP; RMA_OP_PUT, RMA_OP_CAS: MPI_REPLACE */
  smpi_op *op_obj;      /* accumulates: op's object; NULL otherwise */
  MPI_Datatype basic;   /* accumulates: the predefined type; MPI_DATATYPE_NULL otherwise */
  MPI_Request *request; /* request-based variants (already MPI_REQUEST_NULL); NULL otherwise */
} smpi_rma_args;

/* Checks the access epoch, the target's assertions and memory, then starts the operation
 * (nothing for MPI_PROC_NULL). */
int smpi_rma_issue(smpi_win *w, const smpi_rma_args *a, const char *fname);

/* rma.c: the synchronisations; assert holds only MPI_MODE_* bits, lock_type is valid,
 * rank a rank of the window or MPI_PROC_NULL, the groups are valid */
int smpi_rma_fence(smpi_win *w, int assert, const char *fname);
int smpi_rma_post(smpi_win *w, smpi_group *g, int assert, const char *fname);
int smpi_rma_start(smpi_win *w, smpi_group *g, int assert, const char *fname);
int smpi_rma_complete(smpi_win *w, const char *fname);
int smpi_rma_wait(smpi_win *w, const char *fname);
int smpi_rma_test(smpi_win *w, int *flag, const char *fname);
int smpi_rma_lock(smpi_win *w, int lock_type, int rank, int assert, const char *fname);
int smpi_rma_unlock(smpi_win *w, int rank, const char *fname);
int smpi_rma_lock_all(smpi_win *w, int assert, const char *fname);
int smpi_rma_unlock_all(smpi_win *w, const char *fname);
int smpi_rma_flush(smpi_win *w, int rank, const char *fname);
int smpi_rma_flush_all(smpi_win *w, const char *fname);
int smpi_rma_flush_local(smpi_win *w, int rank, const char *fname);
int smpi_rma_flush_local_all(smpi_win *w, const char *fname);
/* coll_pair_rma.c: registers alltoall pair_rma, built on windows, with the collectives
 * (called with the configuration modules by smpi/launch/, before any MPI call) */
void smpi_rma_declare_config(void);

/* the MPI_MODE_* bits an assert argument may hold */
#define SMPI_RMA_ASSERT_BITS \
  (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)

#endif
