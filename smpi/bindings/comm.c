/* comm.c: the MPI functions on communicators — queries, names, hints, free, dup, split,
 * creation from groups, intercommunicators. Each checks its arguments in the order the
 * messages of tests/badinput expect, then calls the smpi_comm_* function of
 * smpi/mpi/comm.c that does the work (the collective creations and their simulated cost). */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "smpi/bindings/call.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/runtime/world.h"

/* the handle the caller gets for a new communicator, NULL for MPI_COMM_NULL */
static MPI_Comm handle_of(const smpi_comm *n) { return n ? smpi_comm_handle(n) : MPI_COMM_NULL; }

/* ---- simple queries ---- */

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
  SMPI_ENTER("MPI_Comm_size");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(size, comm, MPI_ERR_ARG);
  *size = smpi_comm_size(c);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
  SMPI_ENTER("MPI_Comm_rank");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(rank, comm, MPI_ERR_ARG);
  *rank = smpi_comm_rank(c);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
  SMPI_ENTER("MPI_Comm_remote_size");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(smpi_comm_is_inter(c), comm, MPI_ERR_COMM);
  SMPI_CHECK(size, comm, MPI_ERR_ARG);
  *size = smpi_comm_remote_size(c);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
  SMPI_ENTER("MPI_Comm_test_inter");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(flag, comm, MPI_ERR_ARG);
  *flag = smpi_comm_is_inter(c);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
  SMPI_ENTER("MPI_Comm_compare");
  smpi_comm *a = SMPI_CHECK_COMM(comm1);
  smpi_comm *b = SMPI_CHECK_COMM(comm2);
  SMPI_CHECK(result, comm1, MPI_ERR_ARG);
  *result = smpi_comm_compare(a, b);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
  SMPI_ENTER("MPI_Comm_set_name");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(comm_name, comm, MPI_ERR_ARG);
  smpi_comm_set_name(c, comm_name);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
  SMPI_ENTER("MPI_Comm_get_name");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(comm_name && resultlen, comm, MPI_ERR_ARG);
  smpi_comm_get_name(c, comm_name, resultlen);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
  SMPI_ENTER("MPI_Comm_set_info");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(smpi_info_valid(info), comm, MPI_ERR_INFO);
  smpi_comm_set_info(c, info);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
  SMPI_ENTER("MPI_Comm_get_info");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(info_used, comm, MPI_ERR_ARG);
  *info_used = smpi_comm_get_info(c);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- free ---- */

int PMPI_Comm_free(MPI_Comm *comm)
{
  SMPI_ENTER("MPI_Comm_free");
  SMPI_CHECK(comm, MPI_COMM_WORLD, MPI_ERR_ARG);
  smpi_comm *c = SMPI_CHECK_COMM(*comm);
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    SMPI_RETURN(smpi_comm_errorf(*comm, MPI_ERR_COMM, smpi_fname_,
                                 "a predefined communicator cannot be freed"));
  int rc = smpi_comm_free(c);
  *comm = MPI_COMM_NULL;
  /* a failing delete callback fails the call, though the communicator is gone (its other
   * attributes were deleted too): the error goes to the parent's handler, MPI_COMM_WORLD */
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- duplication ---- */

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
  SMPI_ENTER("MPI_Comm_dup");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(newcomm, comm, MPI_ERR_ARG);
  smpi_comm *n;
  int rc = smpi_comm_dup(c, &n, smpi_fname_);
  *newcomm = handle_of(n);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
  SMPI_ENTER("MPI_Comm_dup_with_info");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(newcomm, comm, MPI_ERR_ARG);
  SMPI_CHECK(info == MPI_INFO_NULL || smpi_info_valid(info), comm, MPI_ERR_INFO);
  smpi_comm *n;
  int rc = smpi_comm_dup_with_info(c, info, &n, smpi_fname_);
  *newcomm = handle_of(n);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
  SMPI_ENTER("MPI_Comm_idup_with_info");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(newcomm && request, comm, MPI_ERR_ARG);
  SMPI_CHECK(info == MPI_INFO_NULL || smpi_info_valid(info), comm, MPI_ERR_INFO);
  smpi_comm *n;
  int rc = smpi_comm_idup(c, &n);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  smpi_comm_set_info(n, info); /* the hints given, in place of comm's */
  *newcomm = handle_of(n);
  *request = MPI_REQUEST_NULL; /* complete at once, as MPI_Comm_idup's */
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
  SMPI_ENTER("MPI_Comm_idup");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(newcomm && request, comm, MPI_ERR_ARG);
  smpi_comm *n;
  int rc = smpi_comm_idup(c, &n);
  *newcomm = handle_of(n);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  /* the duplicate is complete, so the request is already "done": MPI_REQUEST_NULL, which
   * MPI_Wait/MPI_Test accept */
  *request = MPI_REQUEST_NULL;
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- split ---- */

static int split_checked(MPI_Comm comm, int color, int key, MPI_Comm *newcomm, const char *fname)
{
  smpi_comm *c = smpi_comm_get(comm);
  if (!c)
    return smpi_comm_error(comm, MPI_ERR_COMM, fname);
  if (!newcomm)
    return smpi_comm_error(comm, MPI_ERR_ARG, fname);
  if (color < 0 && color != MPI_UNDEFINED)
    return smpi_comm_errorf(comm, MPI_ERR_ARG, fname, "color %d is negative", color);
  smpi_comm *n;
  int rc = smpi_comm_split(c, color, key, &n, fname);
  if (rc != MPI_SUCCESS)
    return smpi_comm_error(comm, rc, fname);
  *newcomm = handle_of(n);
  return MPI_SUCCESS;
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
  SMPI_ENTER("MPI_Comm_split");
  SMPI_RETURN(split_checked(comm, color, key, newcomm, smpi_fname_));
}

/* MPI 4.0 section 7.4.2: the hardware levels smpi knows are the simulated hosts (a host is
 * one shared memory). MPI_COMM_TYPE_HW_GUIDED names the level in the info key
 * "mpi_hw_resource_type": "mpi_shared_memory" (the standard's name) or hwloc's "Machine";
 * without the key, or with another value, the caller gets MPI_COMM_NULL.
 * MPI_COMM_TYPE_HW_UNGUIDED picks the level itself: hosts, if the communicator spans more
 * than one (each part must be a strict subset), else MPI_COMM_NULL; the new communicator's
 * info holds the key with the level's name. */
#define HW_KEY "mpi_hw_resource_type"
#define HW_SHARED "mpi_shared_memory"

static bool hw_level_is_host(MPI_Info info)
{
  smpi_info *i = info == MPI_INFO_NULL ? NULL : smpi_info_get(info);
  char v[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  if (!i || smpi_info_value(i, HW_KEY, MPI_MAX_INFO_VAL, v, &flag) != MPI_SUCCESS || !flag)
    return false;
  return strcmp(v, HW_SHARED) == 0 || strcasecmp(v, "Machine") == 0 ||
         strcasecmp(v, "hwloc://Machine") == 0;
}

static void hw_name_level(MPI_Comm h, const char *level)
{
  smpi_comm *n = smpi_comm_get(h);
  if (!n)
    return;
  MPI_Info info = smpi_info_new_handle();
  smpi_info_set(smpi_info_get(info), HW_KEY, level);
  smpi_comm_set_info(n, info);
  smpi_info_free_handle(info);
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
  SMPI_ENTER("MPI_Comm_split_type");
  smpi_comm *c = smpi_comm_get(comm);
  if (c && smpi_comm_is_inter(c))
    SMPI_RETURN(smpi_comm_errorf(comm, MPI_ERR_COMM, smpi_fname_,
                                 "MPI_Comm_split_type takes an intracommunicator"));
  if (info != MPI_INFO_NULL && !smpi_info_valid(info))
    SMPI_RETURN(smpi_comm_errorf(comm, MPI_ERR_INFO, smpi_fname_, "invalid info handle %#x",
                                 (unsigned)info));
  /* processes on the same simulated host share memory */
  int host = c ? (int)smpi_self()->host : 0;
  int color;
  if (split_type == MPI_UNDEFINED) {
    color = MPI_UNDEFINED;
  } else if (split_type == MPI_COMM_TYPE_SHARED || split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
    color = host;
  } else if (split_type == MPI_COMM_TYPE_HW_GUIDED) {
    color = hw_level_is_host(info) ? host : MPI_UNDEFINED;
  } else {
    SMPI_RETURN(
        smpi_comm_errorf(comm, MPI_ERR_ARG, smpi_fname_, "unknown split type %d", split_type));
  }
  int rc = split_checked(comm, color, key, newcomm, smpi_fname_);
  if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL)
    SMPI_RETURN(rc);
  if (split_type == MPI_COMM_TYPE_HW_UNGUIDED &&
      smpi_comm_size(smpi_comm_get(*newcomm)) == smpi_comm_size(c)) {
    /* one host holds them all: no strict subset at a level smpi knows (same on every rank) */
    smpi_comm_free(smpi_comm_get(*newcomm));
    *newcomm = MPI_COMM_NULL;
    SMPI_RETURN(MPI_SUCCESS);
  }
  if (split_type == MPI_COMM_TYPE_HW_UNGUIDED)
    hw_name_level(*newcomm, HW_SHARED);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- creation from groups ---- */

static bool subset_of(const smpi_group *g, const smpi_group *of)
{
  for (int i = 0; i < g->size; i++)
    if (smpi_group_rank_of(of, smpi_group_world_of(g, i)) == MPI_UNDEFINED)
      return false;
  return true;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
  SMPI_ENTER("MPI_Comm_create");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(newcomm, comm, MPI_ERR_ARG);
  smpi_group *g = smpi_group_get(group);
  SMPI_CHECK(g, comm, MPI_ERR_GROUP);
  if (!subset_of(g, c->group)) /* intercommunicators: of the local group */
    SMPI_RETURN(smpi_comm_errorf(comm, MPI_ERR_GROUP, smpi_fname_,
                                 "the group has processes outside of the communicator"));
  smpi_comm *n;
  int rc = smpi_comm_create(c, g, &n, smpi_fname_);
  *newcomm = handle_of(n);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
  SMPI_ENTER("MPI_Comm_create_group");
  smpi_comm *c = SMPI_CHECK_COMM(comm);
  SMPI_CHECK(newcomm, comm, MPI_ERR_ARG);
  smpi_group *g = smpi_group_get(group);
  SMPI_CHECK(g, comm, MPI_ERR_GROUP);
  SMPI_CHECK(tag >= 0, comm, MPI_ERR_TAG);
  if (smpi_comm_is_inter(c))
    SMPI_RETURN(smpi_comm_errorf(comm, MPI_ERR_COMM, smpi_fname_,
                                 "intercommunicators are not supported here by smpi"));
  if (!subset_of(g, c->group))
    SMPI_RETURN(smpi_comm_errorf(comm, MPI_ERR_GROUP, smpi_fname_,
                                 "the group has processes outside of the communicator"));
  /* a process outside the group gets MPI_COMM_NULL at once (as in MPICH and SimGrid;
   * MPI 3.1 section 6.4.2 only calls it erroneous, and test drivers rely on it) */
  if (smpi_group_rank_of(g, smpi_self()->rank) == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;
    SMPI_RETURN(MPI_SUCCESS);
  }
  smpi_comm *n;
  int rc = smpi_comm_create_group(c, g, tag, &n, smpi_fname_);
  SMPI_CHECK(rc == MPI_SUCCESS, comm, rc);
  *newcomm = handle_of(n);
  SMPI_RETURN(MPI_SUCCESS);
}

/* ---- intercommunicators ---- */

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
  SMPI_ENTER("MPI_Intercomm_create");
  smpi_comm *c = SMPI_CHECK_COMM(local_comm);
  SMPI_CHECK(newintercomm, local_comm, MPI_ERR_ARG);
  SMPI_CHECK(!smpi_comm_is_inter(c), local_comm, MPI_ERR_COMM);
  if (local_leader < 0 || local_leader >= smpi_comm_size(c))
    SMPI_RETURN(smpi_comm_errorf(local_comm, MPI_ERR_RANK, smpi_fname_,
                                 "local leader %d with %d processes", local_leader,
                                 smpi_comm_size(c)));
  /* peer_comm, remote_leader and tag are significant on the local leader only */
  smpi_comm *p = NULL;
  if (smpi_comm_rank(c) == local_leader) {
    p = smpi_comm_get(peer_comm);
    SMPI_CHECK(p, local_comm, MPI_ERR_COMM);
    int psize = smpi_comm_is_inter(p) ? smpi_comm_remote_size(p) : smpi_comm_size(p);
    if (remote_leader < 0 || remote_leader >= psize)
      SMPI_RETURN(smpi_comm_errorf(local_comm, MPI_ERR_RANK, smpi_fname_,
                                   "remote leader %d with %d processes in the peer communicator",
                                   remote_leader, psize));
    SMPI_CHECK(tag >= 0, local_comm, MPI_ERR_TAG);
    SMPI_CHECK(smpi_self()->rank != smpi_comm_world_rank(p, remote_leader), local_comm,
               MPI_ERR_RANK);
  }
  smpi_comm *n;
  int rc = smpi_comm_intercomm_create(c, local_leader, p, remote_leader, tag, &n, smpi_fname_);
  SMPI_CHECK(rc == MPI_SUCCESS, local_comm, rc);
  *newintercomm = handle_of(n);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
  SMPI_ENTER("MPI_Intercomm_merge");
  smpi_comm *c = SMPI_CHECK_COMM(intercomm);
  SMPI_CHECK(newintracomm, intercomm, MPI_ERR_ARG);
  SMPI_CHECK(smpi_comm_is_inter(c), intercomm, MPI_ERR_COMM);
  smpi_comm *n;
  int rc = smpi_comm_intercomm_merge(c, high, &n, smpi_fname_);
  SMPI_CHECK(rc == MPI_SUCCESS, intercomm, rc);
  *newintracomm = handle_of(n);
  SMPI_RETURN(MPI_SUCCESS);
}
