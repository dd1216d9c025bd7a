/* The MPI functions of reduction ops: each enters the MPI layer (SMPI_ENTER), calls the
 * smpi_op_* function that does the work (smpi/mpi/op.c) and raises its error, if any,
 * through MPI_COMM_WORLD's handler (MPI 3.1, 8.3: errors not tied to a communicator). */
#include "smpi/bindings/call.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/op.h"

/* body of a wrapper: enter, run `call`, fail through the world handler on error */
#define OP_WRAP(fname, call)        \
  SMPI_ENTER(fname);                \
  int rc_ = (call);                 \
  if (rc_ != MPI_SUCCESS)           \
    SMPI_FAIL(MPI_COMM_WORLD, rc_); \
  SMPI_RETURN(MPI_SUCCESS)

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
  OP_WRAP("MPI_Op_create", smpi_op_create(user_fn, commute, op));
}

int PMPI_Op_free(MPI_Op *op) { OP_WRAP("MPI_Op_free", smpi_op_free(op)); }

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
  SMPI_ENTER("MPI_Op_commutative");
  smpi_op *o = smpi_op_get(op);
  SMPI_CHECK(o != NULL, MPI_COMM_WORLD, MPI_ERR_OP);
  SMPI_CHECK(commute != NULL, MPI_COMM_WORLD, MPI_ERR_ARG);
  *commute = smpi_op_is_commutative(o);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op)
{
  SMPI_ENTER("MPI_Reduce_local");
  SMPI_CHECK(count >= 0, MPI_COMM_WORLD, MPI_ERR_COUNT);
  smpi_dt *d = smpi_dt_get(datatype);
  SMPI_CHECK(d != NULL && smpi_dt_is_committed(d), MPI_COMM_WORLD, MPI_ERR_TYPE);
  smpi_op *o = smpi_op_get(op);
  /* MPI_REPLACE and MPI_NO_OP belong to one-sided communication */
  SMPI_CHECK(o != NULL && op != MPI_REPLACE && op != MPI_NO_OP, MPI_COMM_WORLD, MPI_ERR_OP);
  /* the buffers must not alias (there is no MPI_IN_PLACE for this call) */
  bool aliased = inbuf == inoutbuf || inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE;
  SMPI_CHECK(count == 0 || !aliased, MPI_COMM_WORLD, MPI_ERR_BUFFER);
  int rc = smpi_op_apply(o, inbuf, inoutbuf, count, datatype);
  if (rc != MPI_SUCCESS)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}
