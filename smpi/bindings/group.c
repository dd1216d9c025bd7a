/* group.c: the MPI functions on groups, and MPI_Comm_group / MPI_Comm_remote_group (the
 * set logic itself is in smpi/mpi/group.c, which the unit tests use without a
 * simulation). */
#include "smpi/bindings/call.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/runtime/world.h"

/* ---- MPI functions ---- */

#define GET_GROUP(h)                            \
  ({                                            \
    smpi_group *g_ = smpi_group_get(h);         \
    if (!g_)                                    \
      SMPI_FAIL(MPI_COMM_WORLD, MPI_ERR_GROUP); \
    g_;                                         \
  })

int PMPI_Group_size(MPI_Group group, int *size)
{
  SMPI_ENTER("MPI_Group_size");
  smpi_group *g = GET_GROUP(group);
  SMPI_CHECK(size, MPI_COMM_WORLD, MPI_ERR_ARG);
  *size = g->size;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Group_rank(MPI_Group group, int *rank)
{
  SMPI_ENTER("MPI_Group_rank");
  smpi_group *g = GET_GROUP(group);
  SMPI_CHECK(rank, MPI_COMM_WORLD, MPI_ERR_ARG);
  *rank = smpi_group_rank_of(g, smpi_self()->rank);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
  SMPI_ENTER("MPI_Group_translate_ranks");
  smpi_group *a = GET_GROUP(group1);
  smpi_group *b = GET_GROUP(group2);
  int rc = smpi_group_translate(a, n, ranks1, b, ranks2);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
  SMPI_ENTER("MPI_Group_compare");
  smpi_group *a = GET_GROUP(group1);
  smpi_group *b = GET_GROUP(group2);
  SMPI_CHECK(result, MPI_COMM_WORLD, MPI_ERR_ARG);
  *result = smpi_group_compare(a, b);
  SMPI_RETURN(MPI_SUCCESS);
}

#define GROUP_OP2(Name, fn)                                                      \
  int PMPI_Group_##Name(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) \
  {                                                                              \
    SMPI_ENTER("MPI_Group_" #Name);                                              \
    smpi_group *a = GET_GROUP(group1);                                           \
    smpi_group *b = GET_GROUP(group2);                                           \
    SMPI_CHECK(newgroup, MPI_COMM_WORLD, MPI_ERR_ARG);                           \
    smpi_group *out;                                                             \
    int rc = fn(a, b, &out);                                                     \
    SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);                           \
    *newgroup = smpi_group_handle_new(out);                                      \
    SMPI_RETURN(MPI_SUCCESS);                                                    \
  }
GROUP_OP2(union, smpi_group_union)
GROUP_OP2(intersection, smpi_group_intersection)
GROUP_OP2(difference, smpi_group_difference)

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
  SMPI_ENTER("MPI_Group_incl");
  smpi_group *g = GET_GROUP(group);
  SMPI_CHECK(newgroup, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_group *out;
  int rc = smpi_group_incl(g, n, ranks, &out);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  *newgroup = smpi_group_handle_new(out);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
  SMPI_ENTER("MPI_Group_excl");
  smpi_group *g = GET_GROUP(group);
  SMPI_CHECK(newgroup, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_group *out;
  int rc = smpi_group_excl(g, n, ranks, &out);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  *newgroup = smpi_group_handle_new(out);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
  SMPI_ENTER("MPI_Group_range_incl");
  smpi_group *g = GET_GROUP(group);
  SMPI_CHECK(newgroup, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_group *out;
  int rc = smpi_group_range_incl(g, n, ranges, &out);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  *newgroup = smpi_group_handle_new(out);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
  SMPI_ENTER("MPI_Group_range_excl");
  smpi_group *g = GET_GROUP(group);
  SMPI_CHECK(newgroup, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_group *out;
  int rc = smpi_group_range_excl(g, n, ranges, &out);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  *newgroup = smpi_group_handle_new(out);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Group_free(MPI_Group *group)
{
  SMPI_ENTER("MPI_Group_free");
  SMPI_CHECK(group, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_group *g = GET_GROUP(*group);
  if (!smpi_handle_is_predefined(*group)) {
    smpi_handle_free(*group);
    smpi_group_unref(g);
  }
  *group = MPI_GROUP_NULL;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
  SMPI_ENTER("MPI_Comm_group");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(group, comm, MPI_ERR_ARG);
  *group = smpi_group_handle_new(smpi_group_ref(c->group));
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
  SMPI_ENTER("MPI_Comm_remote_group");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(c->remote, comm, MPI_ERR_COMM);
  SMPI_CHECK(group, comm, MPI_ERR_ARG);
  *group = smpi_group_handle_new(smpi_group_ref(c->remote));
  SMPI_RETURN(MPI_SUCCESS);
}
