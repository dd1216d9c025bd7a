/* info.c: the MPI functions on info objects. Errors go to MPI_COMM_WORLD's handler (an
 * info object is tied to no communicator); MPI_INFO_ENV is read-only. The objects are in
 * smpi/mpi/info.c. */
#include <stddef.h>
#include <string.h>

#include "smpi/bindings/call.h"
#include "smpi/mpi/comm_impl.h"

static int check_key(const char *key)
{
  if (!key)
    return MPI_ERR_INFO_KEY;
  size_t n = strnlen(key, MPI_MAX_INFO_KEY + 1);
  return n == 0 || n > MPI_MAX_INFO_KEY ? MPI_ERR_INFO_KEY : MPI_SUCCESS;
}

#define GET_INFO(h)                            \
  ({                                           \
    smpi_info *i_ = smpi_info_get(h);          \
    if (!i_)                                   \
      SMPI_FAIL(MPI_COMM_WORLD, MPI_ERR_INFO); \
    i_;                                        \
  })

int PMPI_Info_create(MPI_Info *info)
{
  SMPI_ENTER("MPI_Info_create");
  SMPI_CHECK(info, MPI_COMM_WORLD, MPI_ERR_ARG);
  *info = smpi_info_new_handle();
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
  SMPI_ENTER("MPI_Info_set");
  smpi_info *i = GET_INFO(info);
  SMPI_CHECK(info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_CHECK(value && strnlen(value, MPI_MAX_INFO_VAL + 1) <= MPI_MAX_INFO_VAL, MPI_COMM_WORLD,
             MPI_ERR_INFO_VALUE);
  smpi_info_set(i, key, value);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_delete(MPI_Info info, const char *key)
{
  SMPI_ENTER("MPI_Info_delete");
  smpi_info *i = GET_INFO(info);
  SMPI_CHECK(info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  rc = smpi_info_delete(i, key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
  SMPI_ENTER("MPI_Info_get");
  smpi_info *i = GET_INFO(info);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_CHECK(valuelen >= 0 && flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  rc = smpi_info_value(i, key, valuelen, value, flag);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

/* MPI 4.0 section 10: the value and its length + 1 in *buflen; at most *buflen - 1
 * characters are copied (none when *buflen is 0) */
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
  SMPI_ENTER("MPI_Info_get_string");
  smpi_info *i = GET_INFO(info);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_CHECK(buflen && *buflen >= 0 && flag && (value || *buflen == 0), MPI_COMM_WORLD,
             MPI_ERR_ARG);
  int len = 0;
  smpi_info_valuelen(i, key, &len, flag);
  if (!*flag)
    SMPI_RETURN(MPI_SUCCESS);
  if (*buflen > 0) {
    int f;
    rc = smpi_info_value(i, key, *buflen - 1, value, &f);
    SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  }
  *buflen = len + 1;
  SMPI_RETURN(MPI_SUCCESS);
}

/* MPI 4.0 section 11.2.4: what MPI_INFO_ENV holds, in an info object of the caller's */
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
  SMPI_ENTER("MPI_Info_create_env");
  (void)argc;
  (void)argv;
  SMPI_CHECK(info, MPI_COMM_WORLD, MPI_ERR_ARG);
  *info = smpi_info_dup_handle(MPI_INFO_ENV);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
  SMPI_ENTER("MPI_Info_get_valuelen");
  smpi_info *i = GET_INFO(info);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_CHECK(valuelen && flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_info_valuelen(i, key, valuelen, flag);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
  SMPI_ENTER("MPI_Info_get_nkeys");
  smpi_info *i = GET_INFO(info);
  SMPI_CHECK(nkeys, MPI_COMM_WORLD, MPI_ERR_ARG);
  *nkeys = smpi_info_nkeys(i);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
  SMPI_ENTER("MPI_Info_get_nthkey");
  smpi_info *i = GET_INFO(info);
  SMPI_CHECK(key, MPI_COMM_WORLD, MPI_ERR_ARG);
  int nkeys = smpi_info_nkeys(i);
  if (n < 0 || n >= nkeys)
    SMPI_RETURN(smpi_comm_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, smpi_fname_,
                                 "key number %d of an info object with %d keys", n, nkeys));
  smpi_info_nthkey(i, n, key);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
  SMPI_ENTER("MPI_Info_dup");
  GET_INFO(info);
  SMPI_CHECK(newinfo, MPI_COMM_WORLD, MPI_ERR_ARG);
  *newinfo = smpi_info_dup_handle(info);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_free(MPI_Info *info)
{
  SMPI_ENTER("MPI_Info_free");
  SMPI_CHECK(info, MPI_COMM_WORLD, MPI_ERR_ARG);
  GET_INFO(*info);
  SMPI_CHECK(*info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO);
  smpi_info_free_handle(*info);
  *info = MPI_INFO_NULL;
  SMPI_RETURN(MPI_SUCCESS);
}
