/* Inside the op module (smpi/mpi/op.c): user op creation and lifetime without the MPI
 * entry/exit machinery, for tests/check_datatype.c and for layers that keep an op past the
 * call (nonblocking collectives: smpi_op_ref/unref keep it alive across MPI_Op_free). */
#ifndef SMPI_SMPI_OP_IMPL_H
#define SMPI_SMPI_OP_IMPL_H

#include "smpi/mpi/op.h"

/* MPI_SUCCESS or the error class MPI_Op_create / MPI_Op_free must raise */
int smpi_op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int smpi_op_free(MPI_Op *op);
void smpi_op_ref(smpi_op *op);
void smpi_op_unref(smpi_op *op);
/* whether a predefined op is defined on a predefined basic type (the standard's table of
 * type groups, 5.9.2) */
bool smpi_op_allows(MPI_Op op, MPI_Datatype basic);

#endif
