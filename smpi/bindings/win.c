/* The MPI functions on windows (MPI 3.1 chapter 11, with their names and error handlers):
 * each checks its arguments, in the order that decides which error a
 * call with several bad ones reports, resolves the window and calls smpi_win_*
 * (smpi/rma/win.h) for the rest. Errors go through the window's error handler; those of
 * the creation calls (no window yet) and of an invalid window handle through the
 * communicator's (MPI_COMM_WORLD's):
 *
 *   smpi: rank 0: MPI_Win_attach on window 0x20000100: MPI_ERR_RMA_FLAVOR: wrong window flavor */
#include "smpi/bindings/win_call.h"
#include "smpi/mpi/comm_impl.h"

/* ---- creation ---- */

/* Checks shared by the four creation calls; MPI_SUCCESS or the error (already reported). */
static int check_create(MPI_Comm comm, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Win *win,
                        bool sized, const char *fname)
{
  smpi_comm *c = smpi_comm_get(comm);
  if (!c || smpi_comm_is_inter(c))
    return smpi_comm_error(comm, MPI_ERR_COMM, fname);
  if (!win)
    return smpi_comm_error(comm, MPI_ERR_ARG, fname);
  if (sized && size < 0)
    return smpi_comm_errorf(comm, MPI_ERR_SIZE, fname, "size %ld", (long)size);
  if (sized && disp_unit <= 0)
    return smpi_comm_errorf(comm, MPI_ERR_DISP, fname, "disp_unit %d", disp_unit);
  if (info != MPI_INFO_NULL && !smpi_info_valid(info))
    return smpi_comm_error(comm, MPI_ERR_INFO, fname);
  return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win)
{
  SMPI_ENTER("MPI_Win_create");
  int rc = check_create(comm, size, disp_unit, info, win, true, smpi_fname_);
  if (rc != MPI_SUCCESS)
    SMPI_RETURN(rc);
  /* a NULL base is memory of size 0 only: the first access would write through it */
  if (!base && size > 0)
    SMPI_RETURN(smpi_comm_errorf(comm, MPI_ERR_ARG, smpi_fname_,
                                 "NULL base for a window of %ld bytes", (long)size));
  smpi_win_create(comm, base, size, disp_unit, info, win);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win)
{
  SMPI_ENTER("MPI_Win_allocate");
  int rc = check_create(comm, size, disp_unit, info, win, true, smpi_fname_);
  if (rc != MPI_SUCCESS)
    SMPI_RETURN(rc);
  SMPI_CHECK(baseptr, comm, MPI_ERR_ARG);
  smpi_win_allocate(comm, size, disp_unit, info, baseptr, win);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
  SMPI_ENTER("MPI_Win_allocate_shared");
  int rc = check_create(comm, size, disp_unit, info, win, true, smpi_fname_);
  if (rc != MPI_SUCCESS)
    SMPI_RETURN(rc);
  SMPI_CHECK(baseptr, comm, MPI_ERR_ARG);
  SMPI_RETURN(smpi_win_allocate_shared(comm, size, disp_unit, info, baseptr, win, smpi_fname_));
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
  SMPI_ENTER("MPI_Win_create_dynamic");
  int rc = check_create(comm, 0, 1, info, win, false, smpi_fname_);
  if (rc != MPI_SUCCESS)
    SMPI_RETURN(rc);
  smpi_win_create_dynamic(comm, info, win);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_free(MPI_Win *win)
{
  SMPI_ENTER("MPI_Win_free");
  SMPI_CHECK(win, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_win *w = WIN_GET(*win);
  SMPI_RETURN(smpi_win_free(w, win, smpi_fname_));
}

/* ---- dynamic windows ---- */

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
  SMPI_ENTER("MPI_Win_attach");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(w->flavor == MPI_WIN_FLAVOR_DYNAMIC, w, MPI_ERR_RMA_FLAVOR);
  WIN_CHECK(size >= 0, w, MPI_ERR_SIZE);
  WIN_CHECK(base || size == 0, w, MPI_ERR_ARG);
  SMPI_RETURN(smpi_win_attach(w, base, size, smpi_fname_));
}

int PMPI_Win_detach(MPI_Win win, const void *base)
{
  SMPI_ENTER("MPI_Win_detach");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(w->flavor == MPI_WIN_FLAVOR_DYNAMIC, w, MPI_ERR_RMA_FLAVOR);
  SMPI_RETURN(smpi_win_detach(w, base, smpi_fname_));
}

/* ---- shared memory ---- */

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
  SMPI_ENTER("MPI_Win_shared_query");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(w->flavor == MPI_WIN_FLAVOR_SHARED, w, MPI_ERR_RMA_FLAVOR);
  WIN_CHECK(size && disp_unit && baseptr, w, MPI_ERR_ARG);
  WIN_CHECK(rank == MPI_PROC_NULL || (rank >= 0 && rank < w->sh->n), w, MPI_ERR_RANK);
  smpi_win_shared_query(w, rank, size, disp_unit, baseptr);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- names, groups, info ---- */

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
  SMPI_ENTER("MPI_Win_set_name");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(win_name, w, MPI_ERR_ARG);
  smpi_win_set_name(w, win_name);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
  SMPI_ENTER("MPI_Win_get_name");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(win_name && resultlen, w, MPI_ERR_ARG);
  smpi_win_get_name(w, win_name, resultlen);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
  SMPI_ENTER("MPI_Win_get_group");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(group, w, MPI_ERR_ARG);
  smpi_win_get_group(w, group);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
  SMPI_ENTER("MPI_Win_set_info");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(info == MPI_INFO_NULL || smpi_info_valid(info), w, MPI_ERR_INFO);
  smpi_win_set_info(w, info);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
  SMPI_ENTER("MPI_Win_get_info");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(info_used, w, MPI_ERR_ARG);
  smpi_win_get_info(w, info_used);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- error handlers ---- */

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
  SMPI_ENTER("MPI_Win_set_errhandler");
  smpi_win *w = WIN_GET(win);
  smpi_errhandler *e = smpi_errhandler_get(errhandler);
  if (!e || !(e->kinds & SMPI_EH_WIN))
    WIN_FAILF(w, MPI_ERR_ARG, "not a window error handler");
  smpi_win_set_errhandler(w, e);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_Win_get_errhandler");
  smpi_win *w = WIN_GET(win);
  WIN_CHECK(errhandler, w, MPI_ERR_ARG);
  smpi_win_get_errhandler(w, errhandler);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
  SMPI_ENTER("MPI_Win_call_errhandler");
  smpi_win *w = WIN_GET(win);
  smpi_win_error(w, errorcode, smpi_fname_);
  /* MPI_SUCCESS when the handler was called, whatever it is (as for communicators) */
  SMPI_RETURN(MPI_SUCCESS);
}
