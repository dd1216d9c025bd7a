/* errhandler.c: the MPI functions on error handlers — create, set, get, free and call
 * them on communicators, and the default handler of files (MPI_FILE_NULL). The handlers
 * themselves, and the dispatch of every error to them, are in smpi/mpi/errhandler.c. */
#include "smpi/bindings/call.h"
#include "smpi/io/file.h"
#include "smpi/mpi/comm_impl.h"

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_Comm_create_errhandler");
  SMPI_CHECK(comm_errhandler_fn && errhandler, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_errhandler_create(comm_errhandler_fn, SMPI_EH_COMM, errhandler));
}

int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_Errhandler_create");
  SMPI_CHECK(function && errhandler, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_errhandler_create(function, SMPI_EH_COMM, errhandler));
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_Win_create_errhandler");
  SMPI_CHECK(win_errhandler_fn && errhandler, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_errhandler_create(win_errhandler_fn, SMPI_EH_WIN, errhandler));
}

int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_File_create_errhandler");
  SMPI_CHECK(file_errhandler_fn && errhandler, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_errhandler_create(file_errhandler_fn, SMPI_EH_FILE, errhandler));
}

static int set_comm_eh(MPI_Comm comm, MPI_Errhandler errhandler, const char *fname)
{
  smpi_comm *c = smpi_comm_get(comm);
  if (!c)
    return smpi_comm_error(comm, MPI_ERR_COMM, fname);
  int rc = smpi_comm_set_errhandler(c, errhandler);
  if (rc != MPI_SUCCESS)
    return smpi_comm_errorf(comm, rc, fname, "not a communicator error handler");
  return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
  SMPI_ENTER("MPI_Comm_set_errhandler");
  SMPI_RETURN(set_comm_eh(comm, errhandler, smpi_fname_));
}

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
  SMPI_ENTER("MPI_Errhandler_set");
  SMPI_RETURN(set_comm_eh(comm, errhandler, smpi_fname_));
}

static int get_comm_eh(MPI_Comm comm, MPI_Errhandler *errhandler, const char *fname)
{
  smpi_comm *c = smpi_comm_get(comm);
  if (!c)
    return smpi_comm_error(comm, MPI_ERR_COMM, fname);
  if (!errhandler)
    return smpi_comm_error(comm, MPI_ERR_ARG, fname);
  *errhandler = smpi_comm_get_errhandler(c);
  return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_Comm_get_errhandler");
  SMPI_RETURN(get_comm_eh(comm, errhandler, smpi_fname_));
}

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_Errhandler_get");
  SMPI_RETURN(get_comm_eh(comm, errhandler, smpi_fname_));
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_Errhandler_free");
  SMPI_CHECK(errhandler, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_errhandler *e = smpi_errhandler_get(*errhandler);
  SMPI_CHECK(e, MPI_COMM_WORLD, MPI_ERR_ARG);
  /* drops the user's reference only: communicators using it keep theirs */
  smpi_errhandler_unref(e);
  *errhandler = MPI_ERRHANDLER_NULL;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
  SMPI_ENTER("MPI_Comm_call_errhandler");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  smpi_comm_call_errhandler(c, errorcode, smpi_fname_);
  /* "MPI_SUCCESS if the error handler was successfully called" (MPI 3.1 section 8.3.4),
   * whatever the handler is: MPICH returns MPI_SUCCESS for MPI_ERRORS_RETURN too */
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- files: an open file's own handler, or with MPI_FILE_NULL the default for files opened
 * later (MPI_ERRORS_RETURN until set) ---- */

int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
  SMPI_ENTER("MPI_File_set_errhandler");
  smpi_file *f = file == MPI_FILE_NULL ? NULL : smpi_file_get(file);
  if (file != MPI_FILE_NULL && !f)
    SMPI_RETURN(smpi_file_error(NULL, MPI_ERR_FILE, smpi_fname_, NULL));
  smpi_errhandler *e = smpi_errhandler_get(errhandler);
  if (!e || !(e->kinds & SMPI_EH_FILE))
    SMPI_RETURN(smpi_file_error(f, MPI_ERR_ARG, smpi_fname_, NULL));
  if (f) {
    smpi_errhandler_ref(e);
    smpi_errhandler_unref(f->eh);
    f->eh = e;
  } else {
    smpi_errhandler_set_file_default(e);
  }
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
  SMPI_ENTER("MPI_File_get_errhandler");
  smpi_file *f = file == MPI_FILE_NULL ? NULL : smpi_file_get(file);
  if (file != MPI_FILE_NULL && !f)
    SMPI_RETURN(smpi_file_error(NULL, MPI_ERR_FILE, smpi_fname_, NULL));
  if (!errhandler)
    SMPI_RETURN(smpi_file_error(f, MPI_ERR_ARG, smpi_fname_, NULL));
  *errhandler = f ? smpi_errhandler_ref(f->eh)->handle : smpi_errhandler_get_file_default();
  SMPI_RETURN(MPI_SUCCESS);
}
