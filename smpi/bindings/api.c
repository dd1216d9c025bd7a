/* api.c: makes every function of mpi_functions.h link, implemented or not.
 *
 * For one entry of the list, e.g.
 *     SMPI_FN(int, Send, (const void *buf, ..., MPI_Comm comm), (buf, ..., comm), STUB)
 * this file emits
 *     int PMPI_Send(const void *buf, ..., MPI_Comm comm)            only while STUB
 *     { return smpi_unsupported("MPI_Send"); }
 *     __attribute__((weak)) int MPI_Send(const void *buf, ..., MPI_Comm comm)      always
 *     { return PMPI_Send(buf, ..., comm); }
 * so the module implementing MPI_Send defines only PMPI_Send (and flips STUB to IMPL in the
 * list), and a profiling library can define its own MPI_Send that calls PMPI_Send.
 *
 * It also implements what follows directly from the handle encoding of mpi.h: the
 * Fortran/C handle conversions (identities), MPI_Pcontrol (nothing to control without a
 * profiling library) and the predefined attribute callbacks. */
#include <stdio.h>
#include <string.h>

#include "smpi/bindings/call.h"

int smpi_unsupported(const char *name)
{
  smpi_call_check_thread(name);
  fprintf(stderr, "smpi: %s is not implemented yet (MPI_ERR_UNSUPPORTED_OPERATION)\n", name);
  /* MPI_T calls may come before MPI_Init and never invoke error handlers */
  if (strncmp(name, "MPI_T_", 6) == 0)
    return MPI_ERR_UNSUPPORTED_OPERATION;
  /* not tied to a communicator: MPI_COMM_WORLD's handler (MPI 3.1 section 8.3) */
  return smpi_comm_error(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, name);
}

/* ---- stubs: what a STUB entry returns, chosen by its return type token ---- */
#define SMPI_FAIL_int(name) smpi_unsupported(name)
#define SMPI_FAIL_double(name) (smpi_unsupported(name), 0.0)
#define SMPI_FAIL_MPI_Aint(name) (smpi_unsupported(name), (MPI_Aint)0)
#define SMPI_FAIL_MPI_Fint(name) (smpi_unsupported(name), (MPI_Fint)0)
#define SMPI_FAIL_MPI_Comm(name) (smpi_unsupported(name), MPI_COMM_NULL)
#define SMPI_FAIL_MPI_Group(name) (smpi_unsupported(name), MPI_GROUP_NULL)
#define SMPI_FAIL_MPI_Datatype(name) (smpi_unsupported(name), MPI_DATATYPE_NULL)
#define SMPI_FAIL_MPI_Op(name) (smpi_unsupported(name), MPI_OP_NULL)
#define SMPI_FAIL_MPI_Request(name) (smpi_unsupported(name), MPI_REQUEST_NULL)
#define SMPI_FAIL_MPI_Errhandler(name) (smpi_unsupported(name), MPI_ERRHANDLER_NULL)
#define SMPI_FAIL_MPI_Info(name) (smpi_unsupported(name), MPI_INFO_NULL)
#define SMPI_FAIL_MPI_Win(name) (smpi_unsupported(name), MPI_WIN_NULL)
#define SMPI_FAIL_MPI_File(name) (smpi_unsupported(name), MPI_FILE_NULL)
#define SMPI_FAIL_MPI_Message(name) (smpi_unsupported(name), MPI_MESSAGE_NULL)

#define SMPI_EMIT_STUB(ret, name, params) \
  ret PMPI_##name params { return SMPI_FAIL_##ret("MPI_" #name); }
#define SMPI_EMIT_IMPL(ret, name, params)
#define SMPI_FN(ret, name, params, args, status) SMPI_EMIT_##status(ret, name, params)
#include "smpi/mpi_functions.h"
#undef SMPI_FN

/* ---- profiling wrappers: MPI_Name calls PMPI_Name, for every entry ---- */
#define SMPI_FN(ret, name, params, args, status) \
  __attribute__((weak)) ret MPI_##name params { return PMPI_##name args; }
#include "smpi/mpi_functions.h"
#undef SMPI_FN

/* ---- handle conversions: an MPI_Fint holds the very same int ---- */
#define SMPI_CONVERSIONS(Kind, Type)                                   \
  MPI_Fint PMPI_##Kind##_c2f(Type handle) { return (MPI_Fint)handle; } \
  Type PMPI_##Kind##_f2c(MPI_Fint handle) { return (Type)handle; }
SMPI_CONVERSIONS(Comm, MPI_Comm)
SMPI_CONVERSIONS(Errhandler, MPI_Errhandler)
SMPI_CONVERSIONS(File, MPI_File)
SMPI_CONVERSIONS(Group, MPI_Group)
SMPI_CONVERSIONS(Info, MPI_Info)
SMPI_CONVERSIONS(Message, MPI_Message)
SMPI_CONVERSIONS(Op, MPI_Op)
SMPI_CONVERSIONS(Request, MPI_Request)
SMPI_CONVERSIONS(Type, MPI_Datatype)
SMPI_CONVERSIONS(Win, MPI_Win)

int PMPI_Pcontrol(const int level, ...) { return MPI_SUCCESS; }

/* ---- predefined attribute callbacks (MPI_COMM_DUP_FN & co.) ---- */
int smpi_attr_null_copy_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                           void *attribute_val_out, int *flag)
{
  *flag = 0;
  return MPI_SUCCESS;
}

int smpi_attr_dup_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                     void *attribute_val_out, int *flag)
{
  /* attribute_val_out is really a void ** where the copy's value goes */
  memcpy(attribute_val_out, &attribute_val_in, sizeof attribute_val_in);
  *flag = 1;
  return MPI_SUCCESS;
}

int smpi_attr_null_delete_fn(int obj, int keyval, void *attribute_val, void *extra_state)
{
  return MPI_SUCCESS;
}
