/* link_all: the MPI interface is complete and links.
 *
 * - Every entry of mpi_functions.h links under both names, MPI_Name and PMPI_Name (the
 *   table below takes their addresses, generated from the list), against the library; the
 *   shared library (LA_SHARED) exports exactly the implemented ones: a STUB must be undefined
 *   at link time, so that configure probes answer no (docs/porting.md).
 * - The list holds exactly the names of la_expected: the C functions of MPI 3.1, the MPI-IO
 *   and MPI_T ones, plus the deprecated and removed MPI-1 names old codes still call, and the
 *   few MPI 4.0 ones of docs/mpi4.md. A name
 *   dropped from or added to the list by mistake fails here, by name.
 * - mpi.h is usable the way applications use it: predefined handles in static initializers,
 *   case labels and #if; handles of each kind carry their kind; null handles are distinct.
 * - What api.c implements itself behaves: a stub reports itself on stderr and returns
 *   MPI_ERR_UNSUPPORTED_OPERATION, handle conversions round-trip, MPI_Pcontrol succeeds, the
 *   predefined attribute callbacks copy or not.
 *
 * It never calls MPI_Init: it runs as a plain program. The file is also compiled as C++ by
 * the 'header_cxx' test, so it keeps to the common subset of C11 and C++11. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#ifdef LA_SHARED
#include <dlfcn.h>
#endif
#include <string.h>
#include <unistd.h>

#ifdef __cplusplus
#define LA_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define LA_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#if MPI_VERSION != 3 || MPI_SUBVERSION != 1
#error "mpi.h must announce MPI 3.1"
#endif
#if MPI_COMM_WORLD == MPI_COMM_NULL /* handles work in #if */
#error "MPI_COMM_WORLD must not be MPI_COMM_NULL"
#endif

static int la_failures;

#define LA_CHECK(cond)                                                         \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      la_failures++;                                                           \
    }                                                                          \
  } while (0)

/* ---- the list, with the addresses of both names of every function ---- */
typedef void (*la_fn)(void);
typedef struct {
  const char *name;
  int impl;
  la_fn mpi;
  la_fn pmpi;
} la_entry;

#define LA_IMPL_STUB 0
#define LA_IMPL_IMPL 1
#ifdef LA_SHARED /* a stub is not exported: taking its address would not link */
#define LA_ADDR_STUB(name) NULL
#else
#define LA_ADDR_STUB(name) (la_fn) name
#endif
#define LA_ADDR_IMPL(name) (la_fn) name
#define SMPI_FN(ret, name, params, args, status) \
  {#name, LA_IMPL_##status, LA_ADDR_##status(MPI_##name), LA_ADDR_##status(PMPI_##name)},
static const la_entry la_list[] = {
#include "mpi_functions.h"
};
#undef SMPI_FN
#define LA_LIST_N (sizeof la_list / sizeof la_list[0])

/* ---- the names the list must hold, independently of it ---- */
static const char *const la_expected[] = {
    /* Point-to-point communication */
    "Bsend",
    "Bsend_init",
    "Buffer_attach",
    "Buffer_detach",
    "Cancel",
    "Get_count",
    "Ibsend",
    "Improbe",
    "Imrecv",
    "Iprobe",
    "Irecv",
    "Irsend",
    "Isend",
    "Issend",
    "Mprobe",
    "Mrecv",
    "Probe",
    "Recv",
    "Recv_init",
    "Request_free",
    "Request_get_status",
    "Rsend",
    "Rsend_init",
    "Send",
    "Send_init",
    "Sendrecv",
    "Sendrecv_replace",
    "Ssend",
    "Ssend_init",
    "Start",
    "Startall",
    "Test",
    "Test_cancelled",
    "Testall",
    "Testany",
    "Testsome",
    "Wait",
    "Waitall",
    "Waitany",
    "Waitsome",
    /* Datatypes */
    "Aint_add",
    "Aint_diff",
    "Get_address",
    "Get_elements",
    "Get_elements_x",
    "Pack",
    "Pack_external",
    "Pack_external_size",
    "Pack_size",
    "Type_commit",
    "Type_contiguous",
    "Type_create_darray",
    "Type_create_hindexed",
    "Type_create_hindexed_block",
    "Type_create_hvector",
    "Type_create_indexed_block",
    "Type_create_resized",
    "Type_create_struct",
    "Type_create_subarray",
    "Type_dup",
    "Type_free",
    "Type_get_contents",
    "Type_get_envelope",
    "Type_get_extent",
    "Type_get_extent_x",
    "Type_get_true_extent",
    "Type_get_true_extent_x",
    "Type_indexed",
    "Type_size",
    "Type_size_x",
    "Type_vector",
    "Unpack",
    "Unpack_external",
    /* Collective communication and reduction operations */
    "Allgather",
    "Allgatherv",
    "Allreduce",
    "Alltoall",
    "Alltoallv",
    "Alltoallw",
    "Barrier",
    "Bcast",
    "Exscan",
    "Gather",
    "Gatherv",
    "Iallgather",
    "Iallgatherv",
    "Iallreduce",
    "Ialltoall",
    "Ialltoallv",
    "Ialltoallw",
    "Ibarrier",
    "Ibcast",
    "Iexscan",
    "Igather",
    "Igatherv",
    "Ireduce",
    "Ireduce_scatter",
    "Ireduce_scatter_block",
    "Iscan",
    "Iscatter",
    "Iscatterv",
    "Op_commutative",
    "Op_create",
    "Op_free",
    "Reduce",
    "Reduce_local",
    "Reduce_scatter",
    "Reduce_scatter_block",
    "Scan",
    "Scatter",
    "Scatterv",
    /* Groups, communicators, attribute caching and object naming */
    "Comm_compare",
    "Comm_create",
    "Comm_create_group",
    "Comm_create_keyval",
    "Comm_delete_attr",
    "Comm_dup",
    "Comm_dup_with_info",
    "Comm_free",
    "Comm_free_keyval",
    "Comm_get_attr",
    "Comm_get_info",
    "Comm_get_name",
    "Comm_group",
    "Comm_idup",
    "Comm_rank",
    "Comm_remote_group",
    "Comm_remote_size",
    "Comm_set_attr",
    "Comm_set_info",
    "Comm_set_name",
    "Comm_size",
    "Comm_split",
    "Comm_split_type",
    "Comm_test_inter",
    "Group_compare",
    "Group_difference",
    "Group_excl",
    "Group_free",
    "Group_incl",
    "Group_intersection",
    "Group_range_excl",
    "Group_range_incl",
    "Group_rank",
    "Group_size",
    "Group_translate_ranks",
    "Group_union",
    "Intercomm_create",
    "Intercomm_merge",
    "Type_create_keyval",
    "Type_delete_attr",
    "Type_free_keyval",
    "Type_get_attr",
    "Type_get_name",
    "Type_set_attr",
    "Type_set_name",
    "Win_create_keyval",
    "Win_delete_attr",
    "Win_free_keyval",
    "Win_get_attr",
    "Win_get_name",
    "Win_set_attr",
    "Win_set_name",
    /* Process topologies and neighborhood collectives */
    "Cart_coords",
    "Cart_create",
    "Cart_get",
    "Cart_map",
    "Cart_rank",
    "Cart_shift",
    "Cart_sub",
    "Cartdim_get",
    "Dims_create",
    "Dist_graph_create",
    "Dist_graph_create_adjacent",
    "Dist_graph_neighbors",
    "Dist_graph_neighbors_count",
    "Graph_create",
    "Graph_get",
    "Graph_map",
    "Graph_neighbors",
    "Graph_neighbors_count",
    "Graphdims_get",
    "Ineighbor_allgather",
    "Ineighbor_allgatherv",
    "Ineighbor_alltoall",
    "Ineighbor_alltoallv",
    "Ineighbor_alltoallw",
    "Neighbor_allgather",
    "Neighbor_allgatherv",
    "Neighbor_alltoall",
    "Neighbor_alltoallv",
    "Neighbor_alltoallw",
    "Topo_test",
    /* Environment */
    "Abort",
    "Add_error_class",
    "Add_error_code",
    "Add_error_string",
    "Alloc_mem",
    "Comm_call_errhandler",
    "Comm_create_errhandler",
    "Comm_get_errhandler",
    "Comm_set_errhandler",
    "Errhandler_free",
    "Error_class",
    "Error_string",
    "File_call_errhandler",
    "File_create_errhandler",
    "File_get_errhandler",
    "File_set_errhandler",
    "Finalize",
    "Finalized",
    "Free_mem",
    "Get_library_version",
    "Get_processor_name",
    "Get_version",
    "Init",
    "Initialized",
    "Win_call_errhandler",
    "Win_create_errhandler",
    "Win_get_errhandler",
    "Win_set_errhandler",
    "Wtick",
    "Wtime",
    /* Info objects */
    "Info_create",
    "Info_delete",
    "Info_dup",
    "Info_free",
    "Info_get",
    "Info_get_nkeys",
    "Info_get_nthkey",
    "Info_get_valuelen",
    "Info_set",
    /* Process creation and management */
    "Close_port",
    "Comm_accept",
    "Comm_connect",
    "Comm_disconnect",
    "Comm_get_parent",
    "Comm_join",
    "Comm_spawn",
    "Comm_spawn_multiple",
    "Lookup_name",
    "Open_port",
    "Publish_name",
    "Unpublish_name",
    /* One-sided communication */
    "Accumulate",
    "Compare_and_swap",
    "Fetch_and_op",
    "Get",
    "Get_accumulate",
    "Put",
    "Raccumulate",
    "Rget",
    "Rget_accumulate",
    "Rput",
    "Win_allocate",
    "Win_allocate_shared",
    "Win_attach",
    "Win_complete",
    "Win_create",
    "Win_create_dynamic",
    "Win_detach",
    "Win_fence",
    "Win_flush",
    "Win_flush_all",
    "Win_flush_local",
    "Win_flush_local_all",
    "Win_free",
    "Win_get_group",
    "Win_get_info",
    "Win_lock",
    "Win_lock_all",
    "Win_post",
    "Win_set_info",
    "Win_shared_query",
    "Win_start",
    "Win_sync",
    "Win_test",
    "Win_unlock",
    "Win_unlock_all",
    "Win_wait",
    /* External interfaces */
    "Grequest_complete",
    "Grequest_start",
    "Init_thread",
    "Is_thread_main",
    "Query_thread",
    "Status_set_cancelled",
    "Status_set_elements",
    "Status_set_elements_x",
    /* MPI-IO */
    "File_close",
    "File_delete",
    "File_get_amode",
    "File_get_atomicity",
    "File_get_byte_offset",
    "File_get_group",
    "File_get_info",
    "File_get_position",
    "File_get_position_shared",
    "File_get_size",
    "File_get_type_extent",
    "File_get_view",
    "File_iread",
    "File_iread_all",
    "File_iread_at",
    "File_iread_at_all",
    "File_iread_shared",
    "File_iwrite",
    "File_iwrite_all",
    "File_iwrite_at",
    "File_iwrite_at_all",
    "File_iwrite_shared",
    "File_open",
    "File_preallocate",
    "File_read",
    "File_read_all",
    "File_read_all_begin",
    "File_read_all_end",
    "File_read_at",
    "File_read_at_all",
    "File_read_at_all_begin",
    "File_read_at_all_end",
    "File_read_ordered",
    "File_read_ordered_begin",
    "File_read_ordered_end",
    "File_read_shared",
    "File_seek",
    "File_seek_shared",
    "File_set_atomicity",
    "File_set_info",
    "File_set_size",
    "File_set_view",
    "File_sync",
    "File_write",
    "File_write_all",
    "File_write_all_begin",
    "File_write_all_end",
    "File_write_at",
    "File_write_at_all",
    "File_write_at_all_begin",
    "File_write_at_all_end",
    "File_write_ordered",
    "File_write_ordered_begin",
    "File_write_ordered_end",
    "File_write_shared",
    "Register_datarep",
    /* Tool information interface MPI_T */
    "T_category_changed",
    "T_category_get_categories",
    "T_category_get_cvars",
    "T_category_get_index",
    "T_category_get_info",
    "T_category_get_num",
    "T_category_get_pvars",
    "T_cvar_get_index",
    "T_cvar_get_info",
    "T_cvar_get_num",
    "T_cvar_handle_alloc",
    "T_cvar_handle_free",
    "T_cvar_read",
    "T_cvar_write",
    "T_enum_get_info",
    "T_enum_get_item",
    "T_finalize",
    "T_init_thread",
    "T_pvar_get_index",
    "T_pvar_get_info",
    "T_pvar_get_num",
    "T_pvar_handle_alloc",
    "T_pvar_handle_free",
    "T_pvar_read",
    "T_pvar_readreset",
    "T_pvar_reset",
    "T_pvar_session_create",
    "T_pvar_session_free",
    "T_pvar_start",
    "T_pvar_stop",
    "T_pvar_write",
    /* Profiling interface */
    "Pcontrol",
    /* Deprecated (MPI-2) and removed (MPI-3.0) MPI-1 functions still used by old codes */
    "Address",
    "Attr_delete",
    "Attr_get",
    "Attr_put",
    "Errhandler_create",
    "Errhandler_get",
    "Errhandler_set",
    "Keyval_create",
    "Keyval_free",
    "Type_extent",
    "Type_hindexed",
    "Type_hvector",
    "Type_lb",
    "Type_struct",
    "Type_ub",
    /* Language interoperability */
    "Comm_c2f",
    "Comm_f2c",
    "Errhandler_c2f",
    "Errhandler_f2c",
    "File_c2f",
    "File_f2c",
    "Group_c2f",
    "Group_f2c",
    "Info_c2f",
    "Info_f2c",
    "Message_c2f",
    "Message_f2c",
    "Op_c2f",
    "Op_f2c",
    "Request_c2f",
    "Request_f2c",
    "Status_c2f",
    "Status_c2f08",
    "Status_f082c",
    "Status_f2c",
    "Type_c2f",
    "Type_create_f90_complex",
    "Type_create_f90_integer",
    "Type_create_f90_real",
    "Type_f2c",
    "Type_match_size",
    "Win_c2f",
    "Win_f2c",
    /* MPI 4.0 (docs/mpi4.md) */
    "Comm_idup_with_info",
    "Info_create_env",
    "Info_get_string",
    "Isendrecv",
    "Isendrecv_replace",
    /* MPI 4.0 large-count functions (docs/mpi4.md) */
    "Accumulate_c",
    "Allgather_c",
    "Allgatherv_c",
    "Allreduce_c",
    "Alltoall_c",
    "Alltoallv_c",
    "Bcast_c",
    "Bsend_c",
    "Bsend_init_c",
    "Buffer_attach_c",
    "Buffer_detach_c",
    "Exscan_c",
    "File_get_type_extent_c",
    "File_iread_all_c",
    "File_iread_at_all_c",
    "File_iread_at_c",
    "File_iread_c",
    "File_iread_shared_c",
    "File_iwrite_all_c",
    "File_iwrite_at_all_c",
    "File_iwrite_at_c",
    "File_iwrite_c",
    "File_iwrite_shared_c",
    "File_read_all_c",
    "File_read_at_all_c",
    "File_read_at_c",
    "File_read_c",
    "File_read_ordered_c",
    "File_read_shared_c",
    "File_write_all_c",
    "File_write_at_all_c",
    "File_write_at_c",
    "File_write_c",
    "File_write_ordered_c",
    "File_write_shared_c",
    "Gather_c",
    "Gatherv_c",
    "Get_accumulate_c",
    "Get_c",
    "Get_count_c",
    "Get_elements_c",
    "Iallgather_c",
    "Iallreduce_c",
    "Ialltoall_c",
    "Ibcast_c",
    "Ibsend_c",
    "Igather_c",
    "Imrecv_c",
    "Irecv_c",
    "Ireduce_c",
    "Irsend_c",
    "Iscatter_c",
    "Isend_c",
    "Isendrecv_c",
    "Isendrecv_replace_c",
    "Issend_c",
    "Mrecv_c",
    "Neighbor_allgather_c",
    "Neighbor_alltoall_c",
    "Pack_c",
    "Pack_size_c",
    "Put_c",
    "Recv_c",
    "Recv_init_c",
    "Reduce_c",
    "Reduce_local_c",
    "Reduce_scatter_block_c",
    "Reduce_scatter_c",
    "Rsend_c",
    "Rsend_init_c",
    "Scan_c",
    "Scatter_c",
    "Scatterv_c",
    "Send_c",
    "Send_init_c",
    "Sendrecv_c",
    "Sendrecv_replace_c",
    "Ssend_c",
    "Ssend_init_c",
    "Type_contiguous_c",
    "Type_create_hindexed_block_c",
    "Type_create_hindexed_c",
    "Type_create_hvector_c",
    "Type_create_indexed_block_c",
    "Type_create_resized_c",
    "Type_create_struct_c",
    "Type_get_extent_c",
    "Type_get_true_extent_c",
    "Type_indexed_c",
    "Type_size_c",
    "Type_vector_c",
    "Unpack_c",
    "Win_allocate_c",
    "Win_allocate_shared_c",
    "Win_create_c",
    "Win_shared_query_c",
};
#define LA_EXPECTED_N (sizeof la_expected / sizeof la_expected[0])

static const la_entry *la_find(const char *name)
{
  for (size_t i = 0; i < LA_LIST_N; i++)
    if (strcmp(la_list[i].name, name) == 0)
      return &la_list[i];
  return NULL;
}

static void la_check_list(void)
{
  LA_CHECK(LA_LIST_N == LA_EXPECTED_N);
  for (size_t i = 0; i < LA_EXPECTED_N; i++)
    if (!la_find(la_expected[i])) {
      fprintf(stderr, "MPI_%s is missing from mpi_functions.h\n", la_expected[i]);
      la_failures++;
    }
  for (size_t i = 0; i < LA_LIST_N; i++) {
    int known = 0;
    for (size_t j = 0; j < LA_EXPECTED_N; j++)
      known += strcmp(la_list[i].name, la_expected[j]) == 0;
    if (known != 1) {
      fprintf(stderr, "MPI_%s: listed, but %s\n", la_list[i].name,
              known ? "twice in la_expected" : "not an MPI 3.1 function (la_expected)");
      la_failures++;
    }
    for (size_t j = i + 1; j < LA_LIST_N; j++)
      if (strcmp(la_list[i].name, la_list[j].name) == 0) {
        fprintf(stderr, "MPI_%s is listed twice in mpi_functions.h\n", la_list[i].name);
        la_failures++;
      }
#ifdef LA_SHARED
    if (!la_list[i].impl)
      continue; /* not linkable: checked by name in la_check_api */
#endif
    LA_CHECK(la_list[i].mpi != NULL && la_list[i].pmpi != NULL);
    /* MPI_Name is the profiling wrapper, a distinct function */
    LA_CHECK(la_list[i].mpi != la_list[i].pmpi);
  }
}

/* ---- mpi.h as applications use it ---- */
static MPI_Datatype la_types[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_BYTE, MPI_PACKED};
static const MPI_Op la_ops[] = {MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
                                MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
                                MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
static MPI_Comm la_comm = MPI_COMM_WORLD;
static MPI_Request la_req = MPI_REQUEST_NULL;
static void *const la_sentinels[] = {MPI_BOTTOM,          MPI_IN_PLACE,   MPI_STATUS_IGNORE,
                                     MPI_STATUSES_IGNORE, MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY};
static MPI_User_function *la_user_fn = NULL;
static MPI_Comm_copy_attr_function *la_comm_copy = MPI_COMM_DUP_FN;
static MPI_Comm_delete_attr_function *la_comm_delete = MPI_COMM_NULL_DELETE_FN;
static MPI_Type_copy_attr_function *la_type_copy = MPI_TYPE_NULL_COPY_FN;
static MPI_Type_delete_attr_function *la_type_delete = MPI_TYPE_NULL_DELETE_FN;
static MPI_Win_copy_attr_function *la_win_copy = MPI_WIN_DUP_FN;
static MPI_Win_delete_attr_function *la_win_delete = MPI_WIN_NULL_DELETE_FN;
static MPI_Copy_function *la_copy = MPI_NULL_COPY_FN;
static MPI_Delete_function *la_delete = MPI_NULL_DELETE_FN;
static MPI_Datarep_conversion_function *la_conv = MPI_CONVERSION_FN_NULL;

LA_STATIC_ASSERT(sizeof(MPI_Aint) == sizeof(void *), "MPI_Aint holds an address");
LA_STATIC_ASSERT(sizeof(MPI_Offset) == 8 && sizeof(MPI_Count) == 8, "64-bit offsets, counts");
LA_STATIC_ASSERT(MPI_ERR_LASTCODE >= MPI_ERR_UNSUPPORTED_OPERATION, "LASTCODE bounds classes");
LA_STATIC_ASSERT(MPI_LONG_LONG == MPI_LONG_LONG_INT, "synonyms share a handle");

static const char *la_kind_of_op(MPI_Op op)
{
  switch (op) { /* handles are constant expressions */
  case MPI_SUM:
    return "sum";
  case MPI_MAXLOC:
    return "maxloc";
  default:
    return "other";
  }
}

/* every predefined datatype, each once (MPI_LONG_LONG and MPI_C_COMPLEX are synonyms) */
static const MPI_Datatype la_all_types[] = {MPI_CHAR,
                                            MPI_SIGNED_CHAR,
                                            MPI_UNSIGNED_CHAR,
                                            MPI_BYTE,
                                            MPI_WCHAR,
                                            MPI_SHORT,
                                            MPI_UNSIGNED_SHORT,
                                            MPI_INT,
                                            MPI_UNSIGNED,
                                            MPI_LONG,
                                            MPI_UNSIGNED_LONG,
                                            MPI_LONG_LONG_INT,
                                            MPI_UNSIGNED_LONG_LONG,
                                            MPI_FLOAT,
                                            MPI_DOUBLE,
                                            MPI_LONG_DOUBLE,
                                            MPI_C_BOOL,
                                            MPI_INT8_T,
                                            MPI_INT16_T,
                                            MPI_INT32_T,
                                            MPI_INT64_T,
                                            MPI_UINT8_T,
                                            MPI_UINT16_T,
                                            MPI_UINT32_T,
                                            MPI_UINT64_T,
                                            MPI_C_FLOAT_COMPLEX,
                                            MPI_C_DOUBLE_COMPLEX,
                                            MPI_C_LONG_DOUBLE_COMPLEX,
                                            MPI_AINT,
                                            MPI_OFFSET,
                                            MPI_COUNT,
                                            MPI_PACKED,
                                            MPI_FLOAT_INT,
                                            MPI_DOUBLE_INT,
                                            MPI_LONG_INT,
                                            MPI_2INT,
                                            MPI_SHORT_INT,
                                            MPI_LONG_DOUBLE_INT,
                                            MPI_UB,
                                            MPI_LB,
                                            MPI_CXX_BOOL,
                                            MPI_CXX_FLOAT_COMPLEX,
                                            MPI_CXX_DOUBLE_COMPLEX,
                                            MPI_CXX_LONG_DOUBLE_COMPLEX,
                                            MPI_CHARACTER,
                                            MPI_LOGICAL,
                                            MPI_INTEGER,
                                            MPI_REAL,
                                            MPI_DOUBLE_PRECISION,
                                            MPI_COMPLEX,
                                            MPI_DOUBLE_COMPLEX,
                                            MPI_2INTEGER,
                                            MPI_2REAL,
                                            MPI_2DOUBLE_PRECISION,
                                            MPI_INTEGER1,
                                            MPI_INTEGER2,
                                            MPI_INTEGER4,
                                            MPI_INTEGER8,
                                            MPI_INTEGER16,
                                            MPI_REAL2,
                                            MPI_REAL4,
                                            MPI_REAL8,
                                            MPI_REAL16,
                                            MPI_COMPLEX4,
                                            MPI_COMPLEX8,
                                            MPI_COMPLEX16,
                                            MPI_COMPLEX32};

static void la_check_header(void)
{
  const int n_types = (int)(sizeof la_all_types / sizeof la_all_types[0]);
  LA_CHECK(n_types == SMPI_DATATYPE_PREDEFINED_COUNT - 1);
  for (int i = 0; i < n_types; i++) {
    LA_CHECK(SMPI_HANDLE_KIND(la_all_types[i]) == SMPI_KIND_DATATYPE);
    LA_CHECK(SMPI_HANDLE_INDEX(la_all_types[i]) == i + 1); /* dense: a runtime table index */
  }
  for (size_t i = 0; i < sizeof la_ops / sizeof la_ops[0]; i++) {
    LA_CHECK(SMPI_HANDLE_KIND(la_ops[i]) == SMPI_KIND_OP);
    LA_CHECK(SMPI_HANDLE_INDEX(la_ops[i]) == (int)i + 1);
  }
  LA_CHECK(SMPI_OP_PREDEFINED_COUNT == 15);

  /* each null: index 0 of its own kind, so all differ from each other and from valid ones */
  const int nulls[] = {
      MPI_COMM_NULL,          MPI_GROUP_NULL,         MPI_DATATYPE_NULL,      MPI_OP_NULL,
      MPI_REQUEST_NULL,       MPI_ERRHANDLER_NULL,    MPI_INFO_NULL,          MPI_WIN_NULL,
      MPI_FILE_NULL,          MPI_MESSAGE_NULL,       MPI_KEYVAL_INVALID,     MPI_T_ENUM_NULL,
      MPI_T_CVAR_HANDLE_NULL, MPI_T_PVAR_HANDLE_NULL, MPI_T_PVAR_SESSION_NULL};
  const int n_nulls = (int)(sizeof nulls / sizeof nulls[0]);
  LA_CHECK(n_nulls == SMPI_KIND_COUNT - 1);
  for (int i = 0; i < n_nulls; i++) {
    LA_CHECK(SMPI_HANDLE_KIND(nulls[i]) == i + 1 && SMPI_HANDLE_INDEX(nulls[i]) == 0);
    LA_CHECK(nulls[i] > 0);
  }
  LA_CHECK(SMPI_HANDLE_KIND(MPI_COMM_WORLD) == SMPI_KIND_COMM);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_COMM_SELF) == SMPI_KIND_COMM && MPI_COMM_SELF != MPI_COMM_WORLD);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_GROUP_EMPTY) == SMPI_KIND_GROUP);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_ERRORS_RETURN) == SMPI_KIND_ERRHANDLER);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_ERRORS_ARE_FATAL) == SMPI_KIND_ERRHANDLER);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_INFO_ENV) == SMPI_KIND_INFO);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_MESSAGE_NO_PROC) == SMPI_KIND_MESSAGE);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_TAG_UB) == SMPI_KIND_KEYVAL);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_WIN_MODEL) == SMPI_KIND_KEYVAL);
  LA_CHECK(SMPI_HANDLE_INDEX(MPI_WIN_MODEL) < SMPI_KEYVAL_PREDEFINED_COUNT);
  /* garbage is no handle: zero, negative values, wrong kinds */
  LA_CHECK(SMPI_HANDLE_KIND(0) == 0);
  LA_CHECK(SMPI_HANDLE_KIND(-1) >= SMPI_KIND_COUNT);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_COMM_WORLD | (int)(1u << 31)) >= SMPI_KIND_COUNT);
  LA_CHECK(SMPI_HANDLE_KIND(MPI_INT) != SMPI_KIND_COMM);

  LA_CHECK(la_types[0] == MPI_INT && la_comm == MPI_COMM_WORLD && la_req == MPI_REQUEST_NULL);
  LA_CHECK(strcmp(la_kind_of_op(MPI_SUM), "sum") == 0);
  LA_CHECK(strcmp(la_kind_of_op(MPI_MAXLOC), "maxloc") == 0);
  LA_CHECK(la_sentinels[0] == NULL);
  for (int i = 1; i < 6; i++)
    LA_CHECK(la_sentinels[i] != NULL);
  LA_CHECK((void *)MPI_STATUS_IGNORE != (void *)MPI_STATUSES_IGNORE);
  LA_CHECK((void *)MPI_UNWEIGHTED != (void *)MPI_WEIGHTS_EMPTY);
  LA_CHECK(la_user_fn == NULL && la_conv == NULL);
  LA_CHECK(MPI_ANY_SOURCE != MPI_PROC_NULL && MPI_ANY_SOURCE != MPI_ROOT &&
           MPI_PROC_NULL != MPI_ROOT && MPI_ANY_SOURCE < 0 && MPI_PROC_NULL < 0);
  LA_CHECK(MPI_SUCCESS == 0 && MPI_ERR_LASTCODE == MPI_T_ERR_INVALID);

  MPI_Status st;
  st.MPI_SOURCE = 1;
  st.MPI_TAG = 2;
  st.MPI_ERROR = MPI_SUCCESS;
  LA_CHECK(st.MPI_SOURCE + st.MPI_TAG == 3);
}

/* ---- what api.c implements ---- */
static void la_check_api(void)
{
  /* a stub names itself on stderr and fails with MPI_ERR_UNSUPPORTED_OPERATION */
  const la_entry *t_finalize = la_find("T_finalize");
  LA_CHECK(t_finalize != NULL);
#ifndef LA_SHARED
  if (t_finalize && !t_finalize->impl) {
    FILE *capture = tmpfile();
    LA_CHECK(capture != NULL);
    if (capture) {
      fflush(stderr);
      int saved = dup(2);
      dup2(fileno(capture), 2);
      int rc = MPI_T_finalize();
      fflush(stderr);
      dup2(saved, 2);
      close(saved);
      char line[256] = "";
      rewind(capture);
      if (!fgets(line, sizeof line, capture))
        line[0] = '\0';
      fclose(capture);
      LA_CHECK(rc == MPI_ERR_UNSUPPORTED_OPERATION);
      LA_CHECK(strcmp(line, "smpi: MPI_T_finalize is not implemented yet "
                            "(MPI_ERR_UNSUPPORTED_OPERATION)\n") == 0);
    }
  }
#else
  /* the shared library: implemented functions are found by name, stubs are not */
  for (size_t i = 0; i < LA_LIST_N; i++) {
    char mpi[64], pmpi[64];
    snprintf(mpi, sizeof mpi, "MPI_%s", la_list[i].name);
    snprintf(pmpi, sizeof pmpi, "PMPI_%s", la_list[i].name);
    int found = dlsym(RTLD_DEFAULT, mpi) != NULL, pfound = dlsym(RTLD_DEFAULT, pmpi) != NULL;
    if (found != la_list[i].impl || pfound != la_list[i].impl) {
      fprintf(stderr, "link_all: %s is %s but libsmpi.so %s it\n", mpi,
              la_list[i].impl ? "IMPL" : "STUB", found ? "exports" : "does not export");
      la_failures++;
    }
  }
  (void)t_finalize;
#endif

  /* handle conversions are identities that round-trip, for every kind */
  LA_CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
  LA_CHECK(PMPI_Comm_f2c(PMPI_Comm_c2f(MPI_COMM_SELF)) == MPI_COMM_SELF);
  LA_CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE);
  LA_CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY);
  LA_CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM);
  LA_CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);
  LA_CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN);
  LA_CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_ENV)) == MPI_INFO_ENV);
  LA_CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL);
  LA_CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL);
  LA_CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC);

  LA_CHECK(MPI_Pcontrol(1) == MPI_SUCCESS);
  LA_CHECK(MPI_Pcontrol(0, "extra", 3) == MPI_SUCCESS);

  /* predefined attribute callbacks */
  int value = 42, flag = -1;
  void *out = NULL;
  LA_CHECK(la_comm_copy(MPI_COMM_WORLD, 7, NULL, &value, &out, &flag) == MPI_SUCCESS);
  LA_CHECK(flag == 1 && out == &value);
  flag = -1;
  out = NULL;
  LA_CHECK(la_type_copy(MPI_INT, 7, NULL, &value, &out, &flag) == MPI_SUCCESS);
  LA_CHECK(flag == 0 && out == NULL);
  flag = -1;
  LA_CHECK(la_win_copy(MPI_WIN_NULL, 7, NULL, &value, &out, &flag) == MPI_SUCCESS);
  LA_CHECK(flag == 1 && out == &value);
  flag = -1;
  LA_CHECK(la_copy(MPI_COMM_WORLD, 7, NULL, &value, &out, &flag) == MPI_SUCCESS && flag == 0);
  LA_CHECK(la_comm_delete(MPI_COMM_WORLD, 7, &value, NULL) == MPI_SUCCESS);
  LA_CHECK(la_type_delete(MPI_INT, 7, &value, NULL) == MPI_SUCCESS);
  LA_CHECK(la_win_delete(MPI_WIN_NULL, 7, &value, NULL) == MPI_SUCCESS);
  LA_CHECK(la_delete(MPI_COMM_WORLD, 7, &value, NULL) == MPI_SUCCESS);
  LA_CHECK(MPI_DUP_FN == MPI_COMM_DUP_FN);
}

int main(void)
{
  la_check_list();
  la_check_header();
  la_check_api();
  int impl = 0;
  for (size_t i = 0; i < LA_LIST_N; i++)
    impl += la_list[i].impl;
  printf("link_all: %zu MPI functions link as MPI_ and PMPI_ (%d implemented, %zu stubs): %s\n",
         LA_LIST_N, impl, LA_LIST_N - (size_t)impl, la_failures ? "FAILED" : "ok");
  return la_failures ? 1 : 0;
}
