/* Datatypes (smpi/mpi/datatype.c): predefined and derived, with the typemap operations the
 * rest of the MPI layer needs. Everything that moves user data goes through pack/unpack
 * here, so non-contiguous buffers work in every communication.
 *
 * Sizes: size = bytes of data in one element (MPI_Type_size); extent = ub - lb (stride of
 * consecutive elements); the true lb/extent bound the bytes actually touched. */
#ifndef SMPI_SMPI_DATATYPE_H
#define SMPI_SMPI_DATATYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "smpi/mpi.h"

typedef struct smpi_dt smpi_dt;

/* Registers the predefined datatypes (idempotent; called at MPI_Init by the runtime). */
void smpi_dt_init(void);
/* NULL for MPI_DATATYPE_NULL, freed or non-datatype handles */
smpi_dt *smpi_dt_get(MPI_Datatype h);
bool smpi_dt_is_committed(const smpi_dt *dt); /* predefined ones always are */
size_t smpi_dt_size(const smpi_dt *dt);
MPI_Aint smpi_dt_extent(const smpi_dt *dt);
MPI_Aint smpi_dt_lb(const smpi_dt *dt);
MPI_Aint smpi_dt_true_lb(const smpi_dt *dt);
MPI_Aint smpi_dt_true_extent(const smpi_dt *dt);
/* one element's data is size contiguous bytes at buf + true_lb, and consecutive elements
 * follow each other without gaps (extent == size): a plain memcpy moves count elements */
bool smpi_dt_is_contiguous(const smpi_dt *dt);
const char *smpi_dt_name(const smpi_dt *dt); /* "MPI_INT", a user-set name, or "derived" */

/* Keeps dt alive past MPI_Type_free (a pending request holds one reference until it is
 * destroyed); every smpi_dt_ref needs one smpi_dt_unref. Predefined types are never freed. */
void smpi_dt_ref(smpi_dt *dt);
void smpi_dt_unref(smpi_dt *dt);

/* Whether every byte that count elements of dt at buf cover lies in folded memory (their
 * data is then meaningless: docs/emulation.md); false for no data. */
bool smpi_dt_all_folded(const void *buf, size_t count, const smpi_dt *dt);

/* Packs count elements at buf into out (count * size bytes). */
void smpi_dt_pack(const void *buf, size_t count, const smpi_dt *dt, void *out);
/* Unpacks bytes (<= count * size) from in into count elements at buf; a partial element at
 * the end is unpacked as far as the bytes go (truncated receives). */
void smpi_dt_unpack(const void *in, size_t bytes, void *buf, size_t count, const smpi_dt *dt);
/* Typed copy (sendbuf, scount, sdt) -> (recvbuf, rcount, rdt) without an intermediate
 * buffer when both are contiguous. Returns the bytes copied: min of the two sizes. */
size_t smpi_dt_copy(const void *sendbuf, size_t scount, const smpi_dt *sdt, void *recvbuf,
                    size_t rcount, const smpi_dt *rdt);
/* For MPI_Get_elements: basic elements contained in bytes of packed data of dt, or
 * MPI_UNDEFINED if bytes do not end on a basic element boundary. */
MPI_Count smpi_dt_elements(const smpi_dt *dt, MPI_Count bytes);

/* For reductions (smpi/mpi/op.c): the predefined basic type of every basic element of dt when
 * they are all the same one (e.g. a vector of MPI_DOUBLE -> MPI_DOUBLE, MPI_2INT ->
 * MPI_2INT itself), else MPI_DATATYPE_NULL. */
MPI_Datatype smpi_dt_basic_type(const smpi_dt *dt);

#endif
