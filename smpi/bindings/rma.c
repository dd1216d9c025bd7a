/* The MPI one-sided communication and synchronisation functions (MPI 3.1 sections 11.3 to
 * 11.5): each checks its arguments, in the order that decides which error a call with
 * several bad ones reports, resolves the window and the other handles and calls smpi_rma_*
 * (smpi/rma/win.h), which checks the epochs and does the rest. Errors go through the
 * window's error handler (MPI_COMM_WORLD's for an invalid window handle):
 *
 *   smpi: rank 0: MPI_Put on window 0x20000100: MPI_ERR_RANK: invalid rank (target 5 with 2
 *   ranks)
 *
 * The nine communication calls share one check (rma_call): a call fills a call_args with
 * its arguments as given, and rma_call turns them into the smpi_rma_args of smpi_rma_issue. */
#include "smpi/bindings/win_call.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/op.h"
#include "smpi/mpi/op_impl.h"

/* ---- communication calls ---- */

/* The arguments of a communication call, handles unresolved. */
typedef struct call_args {
  rma_op_kind kind;
  const void *oaddr;
  int ocount;
  MPI_Datatype odt;
  const void *caddr; /* CAS compare */
  void *raddr;
  int rcount;
  MPI_Datatype rdt;
  int target;
  MPI_Aint disp;
  int tcount;
  MPI_Datatype tdt;
  MPI_Op op;
  MPI_Request *request; /* request-based variants */
} call_args;

static int check_type(MPI_Datatype h, smpi_dt **out)
{
  smpi_dt *dt = smpi_dt_get(h);
  if (!dt || !smpi_dt_is_committed(dt))
    return MPI_ERR_TYPE;
  *out = dt;
  return MPI_SUCCESS;
}

/* Everything the communication calls share: checks, then smpi_rma_issue. Returns the error
 * code (already reported through the window's handler) or MPI_SUCCESS. */
static int rma_call(smpi_win *w, const call_args *a, const char *fname)
{
  smpi_dt *odt = NULL, *tdt = NULL, *rdt = NULL;
  if (a->request)
    *a->request = MPI_REQUEST_NULL;
  if (a->ocount < 0 || a->tcount < 0 || a->rcount < 0)
    return smpi_win_error(w, MPI_ERR_COUNT, fname);
  if (a->target != MPI_PROC_NULL && (a->target < 0 || a->target >= w->sh->n))
    return smpi_win_errorf(w, MPI_ERR_RANK, fname, "target %d with %d ranks", a->target,
                           w->sh->n);
  if (a->kind == RMA_OP_GET) {
    if (check_type(a->rdt, &rdt) || check_type(a->tdt, &tdt))
      return smpi_win_error(w, MPI_ERR_TYPE, fname);
  } else {
    if (check_type(a->odt, &odt) || check_type(a->tdt, &tdt) ||
        (a->kind == RMA_OP_GACC || a->kind == RMA_OP_CAS ? check_type(a->rdt, &rdt) : 0))
      return smpi_win_error(w, MPI_ERR_TYPE, fname);
  }
  if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC && a->disp < 0)
    return smpi_win_errorf(w, MPI_ERR_DISP, fname, "target_disp %ld", (long)a->disp);
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  smpi_op *op = NULL;
  if (a->kind == RMA_OP_ACC || a->kind == RMA_OP_GACC) {
    op = smpi_op_get(a->op);
    if (!op || !smpi_op_is_predefined(op) || (a->kind == RMA_OP_ACC && a->op == MPI_NO_OP))
      return smpi_win_errorf(w, MPI_ERR_OP, fname, "not a predefined operation");
    basic = smpi_dt_basic_type(tdt);
    MPI_Datatype obasic = a->oaddr && a->op != MPI_NO_OP ? smpi_dt_basic_type(odt) : basic;
    if (basic == MPI_DATATYPE_NULL || (a->ocount > 0 && a->op != MPI_NO_OP && obasic != basic))
      return smpi_win_errorf(w, MPI_ERR_TYPE, fname,
                             "origin and target must consist of one same predefined type");
    if (!smpi_op_allows(a->op, basic))
      return smpi_win_errorf(w, MPI_ERR_OP, fname, "operation not defined on %s",
                             smpi_dt_name(smpi_dt_get(basic)));
  }
  smpi_rma_args r = {.kind = a->kind,
                     .oaddr = a->oaddr,
                     .ocount = (size_t)a->ocount,
                     .odt = odt,
                     .caddr = a->caddr,
                     .raddr = a->raddr,
                     .rcount = (size_t)a->rcount,
                     .rdt = rdt,
                     .target = a->target,
                     .disp = a->disp,
                     .tcount = (size_t)a->tcount,
                     .tdt = tdt,
                     .op = a->op,
                     .op_obj = op,
                     .basic = basic,
                     .request = a->request};
  return smpi_rma_issue(w, &r, fname);
}

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
  SMPI_ENTER("MPI_Put");
  smpi_win *w = WIN_GET(win);
  call_args a = {.kind = RMA_OP_PUT,
                 .oaddr = origin_addr,
                 .ocount = origin_count,
                 .odt = origin_datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = target_count,
                 .tdt = target_datatype,
                 .op = MPI_REPLACE};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
  SMPI_ENTER("MPI_Rput");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(request, w, MPI_ERR_ARG);
  call_args a = {.kind = RMA_OP_PUT,
                 .oaddr = origin_addr,
                 .ocount = origin_count,
                 .odt = origin_datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = target_count,
                 .tdt = target_datatype,
                 .op = MPI_REPLACE,
                 .request = request};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  SMPI_ENTER("MPI_Get");
  smpi_win *w = WIN_GET(win);
  call_args a = {.kind = RMA_OP_GET,
                 .raddr = origin_addr,
                 .rcount = origin_count,
                 .rdt = origin_datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = target_count,
                 .tdt = target_datatype,
                 .op = MPI_NO_OP};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
  SMPI_ENTER("MPI_Rget");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(request, w, MPI_ERR_ARG);
  call_args a = {.kind = RMA_OP_GET,
                 .raddr = origin_addr,
                 .rcount = origin_count,
                 .rdt = origin_datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = target_count,
                 .tdt = target_datatype,
                 .op = MPI_NO_OP,
                 .request = request};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
  SMPI_ENTER("MPI_Accumulate");
  smpi_win *w = WIN_GET(win);
  call_args a = {.kind = RMA_OP_ACC,
                 .oaddr = origin_addr,
                 .ocount = origin_count,
                 .odt = origin_datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = target_count,
                 .tdt = target_datatype,
                 .op = op};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
  SMPI_ENTER("MPI_Raccumulate");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(request, w, MPI_ERR_ARG);
  call_args a = {.kind = RMA_OP_ACC,
                 .oaddr = origin_addr,
                 .ocount = origin_count,
                 .odt = origin_datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = target_count,
                 .tdt = target_datatype,
                 .op = op,
                 .request = request};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
  SMPI_ENTER("MPI_Get_accumulate");
  smpi_win *w = WIN_GET(win);
  call_args a = {.kind = RMA_OP_GACC,
                 .oaddr = origin_addr,
                 .ocount = origin_count,
                 .odt = op == MPI_NO_OP && origin_count == 0 ? target_datatype : origin_datatype,
                 .raddr = result_addr,
                 .rcount = result_count,
                 .rdt = result_datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = target_count,
                 .tdt = target_datatype,
                 .op = op};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void *result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                         MPI_Request *request)
{
  SMPI_ENTER("MPI_Rget_accumulate");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(request, w, MPI_ERR_ARG);
  call_args a = {.kind = RMA_OP_GACC,
                 .oaddr = origin_addr,
                 .ocount = origin_count,
                 .odt = op == MPI_NO_OP && origin_count == 0 ? target_datatype : origin_datatype,
                 .raddr = result_addr,
                 .rcount = result_count,
                 .rdt = result_datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = target_count,
                 .tdt = target_datatype,
                 .op = op,
                 .request = request};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
  SMPI_ENTER("MPI_Fetch_and_op");
  smpi_win *w = WIN_GET(win);
  smpi_dt *dt = smpi_dt_get(datatype);
  WIN_CHECK(dt && smpi_dt_basic_type(dt) == datatype, w, MPI_ERR_TYPE);
  call_args a = {.kind = RMA_OP_GACC,
                 .oaddr = origin_addr,
                 .ocount = op == MPI_NO_OP ? 0 : 1,
                 .odt = datatype,
                 .raddr = result_addr,
                 .rcount = 1,
                 .rdt = datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = 1,
                 .tdt = datatype,
                 .op = op};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Win win)
{
  SMPI_ENTER("MPI_Compare_and_swap");
  smpi_win *w = WIN_GET(win);
  smpi_dt *dt = smpi_dt_get(datatype);
  WIN_CHECK(dt && smpi_dt_basic_type(dt) == datatype, w, MPI_ERR_TYPE);
  /* C and Fortran integers, logicals, bytes (MPI 3.1 section 11.3.4): the types
   * MPI_BAND or MPI_LAND is defined on */
  if (!smpi_op_allows(MPI_BAND, datatype) && !smpi_op_allows(MPI_LAND, datatype))
    WIN_FAILF(w, MPI_ERR_TYPE, "compare-and-swap on %s", smpi_dt_name(dt));
  WIN_CHECK(origin_addr && compare_addr && result_addr, w, MPI_ERR_ARG);
  call_args a = {.kind = RMA_OP_CAS,
                 .oaddr = origin_addr,
                 .ocount = 1,
                 .odt = datatype,
                 .caddr = compare_addr,
                 .raddr = result_addr,
                 .rcount = 1,
                 .rdt = datatype,
                 .target = target_rank,
                 .disp = target_disp,
                 .tcount = 1,
                 .tdt = datatype,
                 .op = MPI_REPLACE};
  SMPI_RETURN(rma_call(w, &a, smpi_fname_));
}

/* ---- synchronisation ---- */

#define CHECK_ASSERT(assert, w) \
  WIN_CHECK(((assert) & ~SMPI_RMA_ASSERT_BITS) == 0, w, MPI_ERR_ASSERT)
#define CHECK_RANK(rank, w) \
  WIN_CHECK((rank) == MPI_PROC_NULL || ((rank) >= 0 && (rank) < (w)->sh->n), w, MPI_ERR_RANK)

int PMPI_Win_fence(int assert, MPI_Win win)
{
  SMPI_ENTER("MPI_Win_fence");
  smpi_win *w = WIN_GET(win);
  CHECK_ASSERT(assert, w);
  SMPI_RETURN(smpi_rma_fence(w, assert, smpi_fname_));
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
  SMPI_ENTER("MPI_Win_post");
  smpi_win *w = WIN_GET(win);
  smpi_group *g = smpi_group_get(group); /* MPI_GROUP_EMPTY is a predefined handle */
  WIN_CHECK(g, w, MPI_ERR_GROUP);
  CHECK_ASSERT(assert, w);
  SMPI_RETURN(smpi_rma_post(w, g, assert, smpi_fname_));
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
  SMPI_ENTER("MPI_Win_start");
  smpi_win *w = WIN_GET(win);
  smpi_group *g = smpi_group_get(group); /* MPI_GROUP_EMPTY is a predefined handle */
  WIN_CHECK(g, w, MPI_ERR_GROUP);
  CHECK_ASSERT(assert, w);
  SMPI_RETURN(smpi_rma_start(w, g, assert, smpi_fname_));
}

int PMPI_Win_complete(MPI_Win win)
{
  SMPI_ENTER("MPI_Win_complete");
  smpi_win *w = WIN_GET(win);
  SMPI_RETURN(smpi_rma_complete(w, smpi_fname_));
}

int PMPI_Win_wait(MPI_Win win)
{
  SMPI_ENTER("MPI_Win_wait");
  smpi_win *w = WIN_GET(win);
  SMPI_RETURN(smpi_rma_wait(w, smpi_fname_));
}

int PMPI_Win_test(MPI_Win win, int *flag)
{
  SMPI_ENTER("MPI_Win_test");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(flag, w, MPI_ERR_ARG);
  SMPI_RETURN(smpi_rma_test(w, flag, smpi_fname_));
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
  SMPI_ENTER("MPI_Win_lock");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(lock_type == MPI_LOCK_SHARED || lock_type == MPI_LOCK_EXCLUSIVE, w, MPI_ERR_LOCKTYPE);
  CHECK_RANK(rank, w);
  CHECK_ASSERT(assert, w);
  SMPI_RETURN(smpi_rma_lock(w, lock_type, rank, assert, smpi_fname_));
}

int PMPI_Win_unlock(int rank, MPI_Win win)
{
  SMPI_ENTER("MPI_Win_unlock");
  smpi_win *w = WIN_GET(win);
  CHECK_RANK(rank, w);
  SMPI_RETURN(smpi_rma_unlock(w, rank, smpi_fname_));
}

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
  SMPI_ENTER("MPI_Win_lock_all");
  smpi_win *w = WIN_GET(win);
  CHECK_ASSERT(assert, w);
  SMPI_RETURN(smpi_rma_lock_all(w, assert, smpi_fname_));
}

int PMPI_Win_unlock_all(MPI_Win win)
{
  SMPI_ENTER("MPI_Win_unlock_all");
  smpi_win *w = WIN_GET(win);
  SMPI_RETURN(smpi_rma_unlock_all(w, smpi_fname_));
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
  SMPI_ENTER("MPI_Win_flush");
  smpi_win *w = WIN_GET(win);
  CHECK_RANK(rank, w);
  SMPI_RETURN(smpi_rma_flush(w, rank, smpi_fname_));
}

int PMPI_Win_flush_all(MPI_Win win)
{
  SMPI_ENTER("MPI_Win_flush_all");
  smpi_win *w = WIN_GET(win);
  SMPI_RETURN(smpi_rma_flush_all(w, smpi_fname_));
}

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
  SMPI_ENTER("MPI_Win_flush_local");
  smpi_win *w = WIN_GET(win);
  CHECK_RANK(rank, w);
  SMPI_RETURN(smpi_rma_flush_local(w, rank, smpi_fname_));
}

int PMPI_Win_flush_local_all(MPI_Win win)
{
  SMPI_ENTER("MPI_Win_flush_local_all");
  smpi_win *w = WIN_GET(win);
  SMPI_RETURN(smpi_rma_flush_local_all(w, smpi_fname_));
}

int PMPI_Win_sync(MPI_Win win)
{
  SMPI_ENTER("MPI_Win_sync");
  (void)WIN_GET(win);
  /* one address space, unified model: the copies are always in sync */
  SMPI_RETURN(MPI_SUCCESS);
}
