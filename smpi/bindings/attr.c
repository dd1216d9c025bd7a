/* attr.c: the MPI functions on keyvals and cached attributes of communicators, datatypes
 * and windows. Each checks the object, then calls the smpi_attr_* function of
 * smpi/mpi/attr.c (keyval checks, user callbacks); errors go to the communicator's handler,
 * or to MPI_COMM_WORLD's for datatypes and windows and for keyvals themselves (MPI 3.1
 * section 8.3: errors not tied to a communicator). */
#include "smpi/bindings/call.h"
#include "smpi/mpi/attr.h"
#include "smpi/mpi/comm.h"
#include "smpi/mpi/handle.h"

/* body of a function that reports a failure of `call` to the handler of comm */
#define ATTR_WRAP(comm, call)                    \
  do {                                           \
    int rc_ = (call);                            \
    SMPI_CHECK(rc_ == MPI_SUCCESS, (comm), rc_); \
    SMPI_RETURN(MPI_SUCCESS);                    \
  } while (0)

/* ---- keyvals ---- */

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
  SMPI_ENTER("MPI_Comm_create_keyval");
  SMPI_CHECK(comm_keyval, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_attr_keyval_create(SMPI_KIND_COMM, comm_copy_attr_fn, comm_delete_attr_fn,
                                      comm_keyval, extra_state));
}

int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
  SMPI_ENTER("MPI_Keyval_create");
  SMPI_CHECK(keyval, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_attr_keyval_create(SMPI_KIND_COMM, copy_fn, delete_fn, keyval, extra_state));
}

int PMPI_Comm_free_keyval(int *comm_keyval)
{
  SMPI_ENTER("MPI_Comm_free_keyval");
  SMPI_CHECK(comm_keyval, MPI_COMM_WORLD, MPI_ERR_ARG);
  ATTR_WRAP(MPI_COMM_WORLD, smpi_attr_keyval_free(SMPI_KIND_COMM, comm_keyval));
}

int PMPI_Keyval_free(int *keyval)
{
  SMPI_ENTER("MPI_Keyval_free");
  SMPI_CHECK(keyval, MPI_COMM_WORLD, MPI_ERR_ARG);
  ATTR_WRAP(MPI_COMM_WORLD, smpi_attr_keyval_free(SMPI_KIND_COMM, keyval));
}

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state)
{
  SMPI_ENTER("MPI_Type_create_keyval");
  SMPI_CHECK(type_keyval, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_attr_keyval_create(SMPI_KIND_DATATYPE, type_copy_attr_fn, type_delete_attr_fn,
                                      type_keyval, extra_state));
}

int PMPI_Type_free_keyval(int *type_keyval)
{
  SMPI_ENTER("MPI_Type_free_keyval");
  SMPI_CHECK(type_keyval, MPI_COMM_WORLD, MPI_ERR_ARG);
  ATTR_WRAP(MPI_COMM_WORLD, smpi_attr_keyval_free(SMPI_KIND_DATATYPE, type_keyval));
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
  SMPI_ENTER("MPI_Win_create_keyval");
  SMPI_CHECK(win_keyval, MPI_COMM_WORLD, MPI_ERR_ARG);
  SMPI_RETURN(smpi_attr_keyval_create(SMPI_KIND_WIN, win_copy_attr_fn, win_delete_attr_fn,
                                      win_keyval, extra_state));
}

int PMPI_Win_free_keyval(int *win_keyval)
{
  SMPI_ENTER("MPI_Win_free_keyval");
  SMPI_CHECK(win_keyval, MPI_COMM_WORLD, MPI_ERR_ARG);
  ATTR_WRAP(MPI_COMM_WORLD, smpi_attr_keyval_free(SMPI_KIND_WIN, win_keyval));
}

/* ---- communicators: MPI_Comm_* and their MPI-1 names MPI_Attr_* ---- */

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
  SMPI_ENTER("MPI_Comm_set_attr");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  ATTR_WRAP(comm, smpi_attr_set(smpi_comm_handle(c), SMPI_KIND_COMM, comm_keyval, attribute_val));
}

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
  SMPI_ENTER("MPI_Attr_put");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  ATTR_WRAP(comm, smpi_attr_set(smpi_comm_handle(c), SMPI_KIND_COMM, keyval, attribute_val));
}

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
  SMPI_ENTER("MPI_Comm_get_attr");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  ATTR_WRAP(comm,
            smpi_attr_get(smpi_comm_handle(c), SMPI_KIND_COMM, comm_keyval, attribute_val, flag));
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
  SMPI_ENTER("MPI_Attr_get");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  ATTR_WRAP(comm,
            smpi_attr_get(smpi_comm_handle(c), SMPI_KIND_COMM, keyval, attribute_val, flag));
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
  SMPI_ENTER("MPI_Comm_delete_attr");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  ATTR_WRAP(comm, smpi_attr_delete(smpi_comm_handle(c), SMPI_KIND_COMM, comm_keyval));
}

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
  SMPI_ENTER("MPI_Attr_delete");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  ATTR_WRAP(comm, smpi_attr_delete(smpi_comm_handle(c), SMPI_KIND_COMM, keyval));
}

/* ---- datatypes and windows: checked through the handle table only, so that these
 * functions need neither the datatype nor the window module ---- */

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
  SMPI_ENTER("MPI_Type_set_attr");
  SMPI_CHECK(smpi_handle_get(datatype, SMPI_KIND_DATATYPE), MPI_COMM_WORLD, MPI_ERR_TYPE);
  ATTR_WRAP(MPI_COMM_WORLD,
            smpi_attr_set(datatype, SMPI_KIND_DATATYPE, type_keyval, attribute_val));
}

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
  SMPI_ENTER("MPI_Type_get_attr");
  SMPI_CHECK(smpi_handle_get(datatype, SMPI_KIND_DATATYPE), MPI_COMM_WORLD, MPI_ERR_TYPE);
  ATTR_WRAP(MPI_COMM_WORLD,
            smpi_attr_get(datatype, SMPI_KIND_DATATYPE, type_keyval, attribute_val, flag));
}

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
  SMPI_ENTER("MPI_Type_delete_attr");
  SMPI_CHECK(smpi_handle_get(datatype, SMPI_KIND_DATATYPE), MPI_COMM_WORLD, MPI_ERR_TYPE);
  ATTR_WRAP(MPI_COMM_WORLD, smpi_attr_delete(datatype, SMPI_KIND_DATATYPE, type_keyval));
}

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
  SMPI_ENTER("MPI_Win_set_attr");
  SMPI_CHECK(smpi_handle_get(win, SMPI_KIND_WIN), MPI_COMM_WORLD, MPI_ERR_WIN);
  ATTR_WRAP(MPI_COMM_WORLD, smpi_attr_set(win, SMPI_KIND_WIN, win_keyval, attribute_val));
}

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
  SMPI_ENTER("MPI_Win_get_attr");
  SMPI_CHECK(smpi_handle_get(win, SMPI_KIND_WIN), MPI_COMM_WORLD, MPI_ERR_WIN);
  ATTR_WRAP(MPI_COMM_WORLD, smpi_attr_get(win, SMPI_KIND_WIN, win_keyval, attribute_val, flag));
}

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
  SMPI_ENTER("MPI_Win_delete_attr");
  SMPI_CHECK(smpi_handle_get(win, SMPI_KIND_WIN), MPI_COMM_WORLD, MPI_ERR_WIN);
  ATTR_WRAP(MPI_COMM_WORLD, smpi_attr_delete(win, SMPI_KIND_WIN, win_keyval));
}
