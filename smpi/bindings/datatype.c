/* The MPI functions of datatypes: each enters the MPI layer (SMPI_ENTER), calls the
 * smpi_type_* function that does the work (smpi/mpi/datatype.c, datatype_array.c,
 * datatype_external.c) and raises its error, if any, through MPI_COMM_WORLD's handler
 * (MPI 3.1, 8.3: errors not tied to a communicator) or the communicator argument of
 * MPI_Pack/Unpack/Pack_size. Keeping them here lets the modules themselves link (and be
 * unit-tested) without the runtime. The reduction ops' functions are in op.c. */
#include <limits.h>
#include <stdint.h>

#include "smpi/mpi/attr.h"
#include "smpi/bindings/call.h"
#include "smpi/mpi/datatype_impl.h"

/* body of a wrapper: enter, run `call`, fail through the world handler on error */
#define DT_WRAP(fname, call)        \
  SMPI_ENTER(fname);                \
  int rc_ = (call);                 \
  if (rc_ != MPI_SUCCESS)           \
    SMPI_FAIL(MPI_COMM_WORLD, rc_); \
  SMPI_RETURN(MPI_SUCCESS)

/* ---- constructors ---- */

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_contiguous", smpi_type_contiguous(count, oldtype, newtype));
}

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_contiguous_c", smpi_type_contiguous_c(count, oldtype, newtype));
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_vector", smpi_type_vector(count, blocklength, stride, oldtype, newtype));
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_create_hvector",
          smpi_type_hvector(count, blocklength, stride, oldtype, newtype));
}

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_hvector", smpi_type_hvector(count, blocklength, stride, oldtype, newtype));
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_indexed", smpi_type_indexed(count, array_of_blocklengths,
                                                array_of_displacements, oldtype, newtype));
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_create_hindexed",
          smpi_type_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype,
                             newtype));
}

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_hindexed", smpi_type_hindexed(count, array_of_blocklengths,
                                                  array_of_displacements, oldtype, newtype));
}

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_create_indexed_block",
          smpi_type_indexed_block(count, blocklength, array_of_displacements, oldtype, newtype));
}

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_create_hindexed_block",
          smpi_type_hindexed_block(count, blocklength, array_of_displacements, oldtype, newtype));
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_create_struct",
          smpi_type_struct(count, array_of_blocklengths, array_of_displacements, array_of_types,
                           newtype));
}

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_struct", smpi_type_struct(count, array_of_blocklengths,
                                              array_of_displacements, array_of_types, newtype));
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                              const int array_of_subsizes[], const int array_of_starts[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_create_subarray",
          smpi_type_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                             oldtype, newtype));
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_create_darray",
          smpi_type_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                           array_of_psizes, order, oldtype, newtype));
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
  DT_WRAP("MPI_Type_create_resized", smpi_type_resized(oldtype, lb, extent, newtype));
}

/* attributes (smpi/mpi/attr.c) are copied by MPI_Type_dup and deleted by MPI_Type_free */
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
  SMPI_ENTER("MPI_Type_dup");
  int rc = smpi_type_dup(oldtype, newtype);
  if (rc != MPI_SUCCESS)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  rc = smpi_attr_copy_all(oldtype, *newtype);
  if (rc != MPI_SUCCESS) {
    /* a copy callback failed: no new type (the standard leaves it undefined) */
    smpi_type_free(newtype);
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  }
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_commit(MPI_Datatype *datatype)
{
  DT_WRAP("MPI_Type_commit", smpi_type_commit(datatype));
}

int PMPI_Type_free(MPI_Datatype *datatype)
{
  SMPI_ENTER("MPI_Type_free");
  SMPI_CHECK(datatype != NULL, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_dt *dt = smpi_dt_get(*datatype);
  SMPI_CHECK(dt != NULL, MPI_COMM_WORLD, MPI_ERR_TYPE);
  /* the delete callbacks run before the handle dies; the type goes away even if one fails */
  int arc = dt->predefined ? MPI_SUCCESS : smpi_attr_delete_all(*datatype);
  int rc = smpi_type_free(datatype);
  if (rc == MPI_SUCCESS)
    rc = arc;
  if (rc != MPI_SUCCESS)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- queries ---- */

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
  DT_WRAP("MPI_Type_get_envelope",
          smpi_type_get_envelope(datatype, num_integers, num_addresses, num_datatypes, combiner));
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
  DT_WRAP("MPI_Type_get_contents",
          smpi_type_get_contents(datatype, max_integers, max_addresses, max_datatypes,
                                 array_of_integers, array_of_addresses, array_of_datatypes));
}

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
  DT_WRAP("MPI_Type_set_name", smpi_type_set_name(datatype, type_name));
}

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
  DT_WRAP("MPI_Type_get_name", smpi_type_get_name(datatype, type_name, resultlen));
}

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
  DT_WRAP("MPI_Type_match_size", smpi_type_match_size(typeclass, size, datatype));
}

/* the datatype argument of a query: any valid type, committed or not */
#define QUERY_TYPE(h)                          \
  ({                                           \
    smpi_dt *q_ = smpi_dt_get(h);              \
    if (!q_)                                   \
      SMPI_FAIL(MPI_COMM_WORLD, MPI_ERR_TYPE); \
    q_;                                        \
  })
#define QUERY_OUT(p) SMPI_CHECK((p) != NULL, MPI_COMM_WORLD, MPI_ERR_ARG)

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
  SMPI_ENTER("MPI_Type_size");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(size);
  size_t s = smpi_dt_size(dt);
  *size = s > INT_MAX ? MPI_UNDEFINED : (int)s;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
  SMPI_ENTER("MPI_Type_size_x");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(size);
  *size = (MPI_Count)smpi_dt_size(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
  SMPI_ENTER("MPI_Type_get_extent");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(lb);
  QUERY_OUT(extent);
  *lb = smpi_dt_lb(dt);
  *extent = smpi_dt_extent(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
  SMPI_ENTER("MPI_Type_get_extent_x");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(lb);
  QUERY_OUT(extent);
  *lb = smpi_dt_lb(dt);
  *extent = smpi_dt_extent(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
  SMPI_ENTER("MPI_Type_get_true_extent");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(true_lb);
  QUERY_OUT(true_extent);
  *true_lb = smpi_dt_true_lb(dt);
  *true_extent = smpi_dt_true_extent(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
  SMPI_ENTER("MPI_Type_get_true_extent_x");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(true_lb);
  QUERY_OUT(true_extent);
  *true_lb = smpi_dt_true_lb(dt);
  *true_extent = smpi_dt_true_extent(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
  SMPI_ENTER("MPI_Type_extent");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(extent);
  *extent = smpi_dt_extent(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
  SMPI_ENTER("MPI_Type_lb");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(displacement);
  *displacement = smpi_dt_lb(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
  SMPI_ENTER("MPI_Type_ub");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(displacement);
  *displacement = smpi_dt_lb(dt) + smpi_dt_extent(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- addresses ---- */

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
  SMPI_ENTER("MPI_Get_address");
  QUERY_OUT(address);
  *address = (MPI_Aint)(uintptr_t)location; /* offsets from MPI_BOTTOM, which is 0 */
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Address(void *location, MPI_Aint *address)
{
  SMPI_ENTER("MPI_Address");
  QUERY_OUT(address);
  *address = (MPI_Aint)(uintptr_t)location;
  SMPI_RETURN(MPI_SUCCESS);
}

/* plain arithmetic on addresses: no error is possible, so no entry bookkeeping */
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
  return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
  return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

/* ---- pack / unpack ---- */

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Pack");
  SMPI_CHECK_COMM(comm);
  SMPI_CHECK(position != NULL, comm, MPI_ERR_ARG);
  MPI_Aint pos = *position;
  int rc = smpi_type_pack(inbuf, incount, datatype, outbuf, outsize, &pos);
  if (rc)
    SMPI_FAIL(comm, rc);
  SMPI_CHECK(pos <= INT_MAX, comm, MPI_ERR_ARG);
  *position = (int)pos;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
  SMPI_ENTER("MPI_Unpack");
  SMPI_CHECK_COMM(comm);
  SMPI_CHECK(position != NULL, comm, MPI_ERR_ARG);
  MPI_Aint pos = *position;
  int rc = smpi_type_unpack(inbuf, insize, &pos, outbuf, outcount, datatype);
  if (rc)
    SMPI_FAIL(comm, rc);
  *position = (int)pos;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
  SMPI_ENTER("MPI_Pack_size");
  SMPI_CHECK_COMM(comm);
  SMPI_CHECK(incount >= 0, comm, MPI_ERR_COUNT);
  smpi_dt *dt = smpi_dt_get(datatype);
  SMPI_CHECK(dt != NULL, comm, MPI_ERR_TYPE);
  SMPI_CHECK(size != NULL, comm, MPI_ERR_ARG);
  MPI_Count bytes = (MPI_Count)incount * (MPI_Count)smpi_dt_size(dt);
  SMPI_CHECK(bytes <= INT_MAX, comm, MPI_ERR_ARG);
  *size = (int)bytes;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Pack_external(const char *datarep, const void *inbuf, int incount, MPI_Datatype datatype,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
  DT_WRAP("MPI_Pack_external",
          smpi_type_pack_external(datarep, inbuf, incount, datatype, outbuf, outsize, position));
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
  DT_WRAP("MPI_Unpack_external", smpi_type_unpack_external(datarep, inbuf, insize, position,
                                                           outbuf, outcount, datatype));
}

int PMPI_Pack_external_size(const char *datarep, int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
  DT_WRAP("MPI_Pack_external_size",
          smpi_type_pack_external_size(datarep, incount, datatype, size));
}

/* ---- counts in a status ---- */

static int count_to_int(MPI_Count c) { return c > INT_MAX ? MPI_UNDEFINED : (int)c; }

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
  SMPI_ENTER("MPI_Get_count");
  MPI_Count c = 0;
  int rc = smpi_status_get_count(status, datatype, &c);
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  QUERY_OUT(count);
  *count = count_to_int(c);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
  SMPI_ENTER("MPI_Get_elements");
  MPI_Count c = 0;
  int rc = smpi_status_get_elements(status, datatype, &c);
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  QUERY_OUT(count);
  *count = count_to_int(c);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
  DT_WRAP("MPI_Get_elements_x", smpi_status_get_elements(status, datatype, count));
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
  DT_WRAP("MPI_Status_set_elements", smpi_status_set_elements(status, datatype, count));
}

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
  DT_WRAP("MPI_Status_set_elements_x", smpi_status_set_elements(status, datatype, count));
}

/* ---- MPI 4.0 large-count queries: the _x ones under their MPI 4.0 names ---- */

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
  SMPI_ENTER("MPI_Type_size_c");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(size);
  *size = (MPI_Count)smpi_dt_size(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
  SMPI_ENTER("MPI_Type_get_extent_c");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(lb);
  QUERY_OUT(extent);
  *lb = smpi_dt_lb(dt);
  *extent = smpi_dt_extent(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
  SMPI_ENTER("MPI_Type_get_true_extent_c");
  smpi_dt *dt = QUERY_TYPE(datatype);
  QUERY_OUT(true_lb);
  QUERY_OUT(true_extent);
  *true_lb = smpi_dt_true_lb(dt);
  *true_extent = smpi_dt_true_extent(dt);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
  SMPI_ENTER("MPI_Get_count_c");
  MPI_Count c = 0;
  int rc = smpi_status_get_count(status, datatype, &c);
  if (rc)
    SMPI_FAIL(MPI_COMM_WORLD, rc);
  QUERY_OUT(count);
  *count = c;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
  DT_WRAP("MPI_Get_elements_c", smpi_status_get_elements(status, datatype, count));
}
