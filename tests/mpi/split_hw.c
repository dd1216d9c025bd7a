/* split_hw: MPI_Comm_split_type with the MPI 4.0 types (section 7.4.2).
 *   MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type" = "mpi_shared_memory": the same groups as
 *     MPI_COMM_TYPE_SHARED, ordered by key;
 *   HW_GUIDED without the key, with MPI_INFO_NULL or an unknown value: MPI_COMM_NULL;
 *   MPI_COMM_TYPE_HW_UNGUIDED: MPI_COMM_NULL or a strict subset of the communicator, with the
 *     key naming its level; under smpi (hosts are the level): the MPI_COMM_TYPE_SHARED groups
 *     when the ranks span several hosts, MPI_COMM_NULL on one host.
 *   HW_UNGUIDED on the shared-memory communicator: MPI_COMM_NULL under smpi (one host).
 * Run with 4 ranks on 2 hosts (split_hw_hosts.txt). Plain MPI: the test runs
 * it under MPICH too (one node there). */
#define MPITEST_NAME "split_hw"
#include "mpitest.h"
#include <string.h>

static MPI_Info hw_info(const char *value)
{
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_hw_resource_type", value);
  return info;
}

static void check_level(MPI_Comm c, const char *what)
{
  MPI_Info used;
  char v[MPI_MAX_INFO_VAL + 1] = "";
  int flag = 0;
  MPI_Comm_get_info(c, &used);
  MPI_Info_get(used, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, v, &flag);
  CHECK(flag && v[0], "%s: no mpi_hw_resource_type in the new communicator's info", what);
  MPI_Info_free(&used);
}

static int same_groups(MPI_Comm a, MPI_Comm b)
{
  int r;
  MPI_Comm_compare(a, b, &r);
  return r == MPI_CONGRUENT;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm shared, hw, none;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
  int nshared;
  MPI_Comm_size(shared, &nshared);

  MPI_Info info = hw_info("mpi_shared_memory");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &hw);
  MPI_Info_free(&info);
  CHECK(hw != MPI_COMM_NULL, "HW_GUIDED mpi_shared_memory gave MPI_COMM_NULL");
  if (hw != MPI_COMM_NULL) {
    CHECK(same_groups(hw, shared), "HW_GUIDED mpi_shared_memory: not the shared-memory groups");
    MPI_Comm_free(&hw);
  }

  /* a key split by the reverse of the world rank orders the new ranks that way */
  info = hw_info("mpi_shared_memory");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, -wrank(), info, &hw);
  MPI_Info_free(&info);
  if (hw != MPI_COMM_NULL) {
    int r, n;
    MPI_Comm_rank(hw, &r);
    MPI_Comm_size(hw, &n);
    int rs;
    MPI_Comm_rank(shared, &rs);
    CHECK(r == n - 1 - rs, "HW_GUIDED with key -rank: rank %d of %d, shared rank %d", r, n, rs);
    MPI_Comm_free(&hw);
  }

  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &none);
  CHECK(none == MPI_COMM_NULL, "HW_GUIDED with MPI_INFO_NULL: not MPI_COMM_NULL");
  MPI_Info_create(&info);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &none);
  CHECK(none == MPI_COMM_NULL, "HW_GUIDED without the key: not MPI_COMM_NULL");
  MPI_Info_free(&info);
  info = hw_info("no_such_resource");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &none);
  CHECK(none == MPI_COMM_NULL, "HW_GUIDED with an unknown resource: not MPI_COMM_NULL");
  MPI_Info_free(&info);

  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &hw);
  if (hw != MPI_COMM_NULL) {
    int n;
    MPI_Comm_size(hw, &n);
    CHECK(n < wsize(), "HW_UNGUIDED: %d ranks of %d, not a strict subset", n, wsize());
    check_level(hw, "HW_UNGUIDED");
  }
#ifndef MPICH_VERSION
  if (nshared < wsize())
    CHECK(hw != MPI_COMM_NULL && same_groups(hw, shared),
          "HW_UNGUIDED over %d hosts: not the host groups", wsize() / nshared);
  else
    CHECK(hw == MPI_COMM_NULL, "HW_UNGUIDED on one host: not MPI_COMM_NULL");
#endif
  if (hw != MPI_COMM_NULL)
    MPI_Comm_free(&hw);

  /* within one host */
  MPI_Comm_split_type(shared, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &hw);
  if (hw != MPI_COMM_NULL) {
    int n;
    MPI_Comm_size(hw, &n);
    CHECK(n < nshared, "HW_UNGUIDED in a host: %d ranks of %d, not a strict subset", n, nshared);
    check_level(hw, "HW_UNGUIDED in a host");
  }
#ifndef MPICH_VERSION
  CHECK(hw == MPI_COMM_NULL, "HW_UNGUIDED within one host: not MPI_COMM_NULL");
#endif
  if (hw != MPI_COMM_NULL)
    MPI_Comm_free(&hw);
  MPI_Comm_free(&shared);
  return mpitest_finalize();
}
