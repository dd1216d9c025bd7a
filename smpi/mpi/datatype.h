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
/* Whether any of those bytes does (one lookup; false whenever nothing is folded, or for no
 * elements). */
bool smpi_dt_touches_folded(const void *buf, size_t count, const smpi_dt *dt);

/* smpi/display-timing (smpi_copies.watch): n payload bytes are about to land in the
 * program's buffer buf of type dt; count the pages they touch first (smpi/runtime/copies.h,
 * "first touches"). Contiguous types only (a derived type may skip whole pages of its span),
 * folded bytes are never written, and payloads under SMPI_TOUCH_MIN are skipped: the floor
 * stays below the cost. The caller leaves out the simulator's own scratch. */
void smpi_dt_first_touch(void *buf, const smpi_dt *dt, size_t n);

/* count elements of dt at buf are all about to be written, in pieces (an Alltoall's receive
 * buffer, block by block): count their first touches (with smpi/display-timing) and
 * populate the buffer's fresh pages in one system call each, rather than one per piece;
 * the pieces then find the range resident (smpi/runtime/copies.c). Contiguous types of
 * SMPI_PREFAULT_MIN bytes or more, not folded; nothing otherwise. */
void smpi_dt_prefault_whole(void *buf, size_t count, const smpi_dt *dt);

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
/* For point-to-point type matching (smpi/mpi/check.c): one word per committed type, equal for
 * two types whose type signatures can match. The basic type every element has (the member of
 * a twin: MPI_2INT counts as MPI_INT), so that any prefix of a message has it too; 0 matches
 * anything: MPI_BYTE, MPI_PACKED (as the standard says), mixed types (not compared), no data. */
int smpi_dt_signature(const smpi_dt *dt);

/* ---- the MPI functions, minus the entry/exit machinery ----
 * The smpi_type_* functions take and return handles exactly like the MPI function of the
 * same name and return MPI_SUCCESS or the error class that function must raise; they never
 * call an error handler and need no runtime. smpi/bindings/datatype.c wraps each of them in
 * a PMPI_Type_* (SMPI_ENTER, error through the handler); the replay and
 * tests/check_datatype.c call them directly. */
int smpi_type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int smpi_type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int smpi_type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype);
int smpi_type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype);
int smpi_type_indexed(int count, const int blocklengths[], const int displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype);
int smpi_type_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype);
int smpi_type_indexed_block(int count, int blocklength, const int displacements[],
                            MPI_Datatype oldtype, MPI_Datatype *newtype);
int smpi_type_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                             MPI_Datatype oldtype, MPI_Datatype *newtype);
int smpi_type_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                     const MPI_Datatype types[], MPI_Datatype *newtype);
int smpi_type_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
                       int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int smpi_type_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                     const int dargs[], const int psizes[], int order, MPI_Datatype oldtype,
                     MPI_Datatype *newtype);
int smpi_type_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype);
int smpi_type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int smpi_type_commit(MPI_Datatype *datatype);
int smpi_type_free(MPI_Datatype *datatype);
int smpi_type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner);
int smpi_type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int integers[], MPI_Aint addresses[],
                           MPI_Datatype datatypes[]);
int smpi_type_set_name(MPI_Datatype datatype, const char *name);
int smpi_type_get_name(MPI_Datatype datatype, char *name, int *resultlen);
int smpi_type_match_size(int typeclass, int size, MPI_Datatype *datatype);
/* position and sizes in bytes, as MPI_Pack/MPI_Unpack (int) and the _external ones (Aint) */
int smpi_type_pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                   MPI_Aint outsize, MPI_Aint *position);
int smpi_type_unpack(const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf,
                     int outcount, MPI_Datatype datatype);
int smpi_type_pack_external(const char *datarep, const void *inbuf, int incount,
                            MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                            MPI_Aint *position);
int smpi_type_unpack_external(const char *datarep, const void *inbuf, MPI_Aint insize,
                              MPI_Aint *position, void *outbuf, int outcount,
                              MPI_Datatype datatype);
int smpi_type_pack_external_size(const char *datarep, int incount, MPI_Datatype datatype,
                                 MPI_Aint *size);
/* status-based counts (MPI_Get_count, MPI_Get_elements_x, MPI_Status_set_elements_x) */
int smpi_status_get_count(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
int smpi_status_get_elements(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
int smpi_status_set_elements(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);

#endif
