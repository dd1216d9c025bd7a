/* errors.c: the MPI functions on error classes, codes and strings. MPI_Error_string and
 * MPI_Error_class may be called at any time (before MPI_Init, after MPI_Finalize) and only
 * return their errors; the others report them to MPI_COMM_WORLD's handler. The tables
 * are in smpi/mpi/errors.c. */
#include "smpi/bindings/call.h"
#include "smpi/mpi/comm_impl.h"

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
  SMPI_ENTER_ANYTIME("MPI_Error_string");
  if (!string || !resultlen)
    SMPI_RETURN(MPI_ERR_ARG);
  SMPI_RETURN(smpi_error_string_copy(errorcode, string, resultlen));
}

int PMPI_Error_class(int errorcode, int *errorclass)
{
  SMPI_ENTER_ANYTIME("MPI_Error_class");
  if (!errorclass)
    SMPI_RETURN(MPI_ERR_ARG);
  int k = smpi_error_class(errorcode);
  if (k < 0)
    SMPI_RETURN(MPI_ERR_ARG);
  *errorclass = k;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Add_error_class(int *errorclass)
{
  SMPI_ENTER("MPI_Add_error_class");
  SMPI_CHECK(errorclass, MPI_COMM_WORLD, MPI_ERR_ARG);
  *errorclass = smpi_error_add_class();
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
  SMPI_ENTER("MPI_Add_error_code");
  SMPI_CHECK(errorcode, MPI_COMM_WORLD, MPI_ERR_ARG);
  int rc = smpi_error_add_code(errorclass, errorcode);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Add_error_string(int errorcode, const char *string)
{
  SMPI_ENTER("MPI_Add_error_string");
  SMPI_CHECK(string, MPI_COMM_WORLD, MPI_ERR_ARG);
  int rc = smpi_error_set_string(errorcode, string);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}
