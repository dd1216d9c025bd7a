/* Inside the op module (smpi/mpi/op.c): user op lifetime for layers that keep an op past the
 * call (nonblocking collectives: smpi_op_ref/unref keep it alive across MPI_Op_free). */
#ifndef SMPI_SMPI_OP_IMPL_H
#define SMPI_SMPI_OP_IMPL_H

#include "smpi/mpi/op.h"

void smpi_op_ref(smpi_op *op);
void smpi_op_unref(smpi_op *op);
/* whether a predefined op is defined on a predefined basic type (the standard's table of
 * type groups, 5.9.2) */
bool smpi_op_allows(MPI_Op op, MPI_Datatype basic);

#endif
