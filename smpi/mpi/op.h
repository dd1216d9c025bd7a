/* Reduction operations (smpi/mpi/op.c): predefined ops with the standard's type rules, user
 * ops from MPI_Op_create. */
#ifndef SMPI_SMPI_OP_H
#define SMPI_SMPI_OP_H

#include <stdbool.h>

#include "smpi/mpi.h"

typedef struct smpi_op smpi_op;

void smpi_op_init(void);        /* registers the predefined ops (idempotent) */
smpi_op *smpi_op_get(MPI_Op h); /* NULL if invalid */
bool smpi_op_is_commutative(const smpi_op *op);
bool smpi_op_is_predefined(const smpi_op *op);
MPI_Op smpi_op_predefined_handle(const smpi_op *op); /* MPI_OP_NULL for a user op */
/* inout[i] = in[i] op inout[i] for count elements of datatype dt (which may be derived:
 * the op applies to its basic elements). Returns MPI_SUCCESS, or MPI_ERR_OP when op is not
 * defined on dt's basic type (e.g. MPI_BAND on MPI_DOUBLE), with no change made.
 * The order matters for non-commutative user ops: in is the left operand. */
int smpi_op_apply(const smpi_op *op, const void *in, void *inout, int count, MPI_Datatype dt);

/* MPI_Op_create / MPI_Op_free without their bindings (smpi/bindings/op.c): MPI_SUCCESS or
 * the error class the MPI function must raise, never through an error handler. */
int smpi_op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int smpi_op_free(MPI_Op *op);

#endif
