/* mpi.h: the MPI 3.1 C interface of smpi (what `#include <mpi.h>` gives an application).
 *
 * Handles are plain ints (as in MPICH) whose bits say what kind of object they name:
 *
 *     bit  31   30 ........ 26   25 .............................. 0
 *         +---+----------------+-----------------------------------+
 *         | 0 |      kind      |               index               |
 *         +---+----------------+-----------------------------------+
 *
 *     MPI_COMM_WORLD = SMPI_KIND_COMM (1) << 26 | 1 = 0x04000001
 *     MPI_INT        = SMPI_KIND_DATATYPE (3) << 26 | 8 = 0x0c000008
 *
 * - kind (SMPI_KIND_*) is never 0, so 0 (a zeroed, never assigned handle) is invalid, and a
 *   communicator passed where a datatype is expected is caught by comparing kinds. Bit 31 is
 *   always clear: a negative int is never a handle.
 * - index 0 of every kind is that kind's null handle (MPI_COMM_NULL, MPI_DATATYPE_NULL,
 *   MPI_REQUEST_NULL, ...): distinct from every valid handle, including other kinds' nulls.
 * - indices 1 .. SMPI_PREDEFINED_LIMIT-1 are reserved for predefined objects, numbered below;
 *   the runtime gives objects it creates indices from SMPI_PREDEFINED_LIMIT up, in a per-kind
 *   table whose slots remember being freed, so a freed handle is reported, not reused at
 *   once.
 * - predefined handles are integer constant expressions: usable in static initializers,
 *   `case` labels and #if.
 * Attribute keys (MPI_TAG_UB, MPI_WIN_BASE, the keyvals the runtime creates) use the same
 * encoding with SMPI_KIND_KEYVAL; MPI_KEYVAL_INVALID is its index 0.
 *
 * Error classes are numbered as MPICH numbers them (MPI_SUCCESS 0 ... MPI_T_ERR_INVALID 74);
 * error codes are the classes themselves, so MPI_ERR_LASTCODE is 74 and the codes added by
 * MPI_Add_error_class/code come after it. Other integer constants also take MPICH's values
 * where the standard leaves them free.
 *
 * The functions themselves are listed once, in mpi_functions.h, and declared here from that
 * list (both MPI_ and PMPI_ names). */
#ifndef SMPI_MPI_H
#define SMPI_MPI_H

#include <stdint.h>

#include "smpi.h"

#define MPI_VERSION 3
#define MPI_SUBVERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* ---- handle encoding ---- */
#define SMPI_KIND_SHIFT 26
#define SMPI_INDEX_MASK ((1 << SMPI_KIND_SHIFT) - 1)
#define SMPI_PREDEFINED_LIMIT 256
/* no cast to int: the result already is one, and a cast would make it unusable in #if */
#define SMPI_HANDLE_MAKE(kind, index) (((kind) << SMPI_KIND_SHIFT) | (index))
/* unsigned shift: a negative value yields a kind >= 32, which matches none */
#define SMPI_HANDLE_KIND(h) ((int)((unsigned)(h) >> SMPI_KIND_SHIFT))
#define SMPI_HANDLE_INDEX(h) ((int)((h)&SMPI_INDEX_MASK))

#define SMPI_KIND_COMM 1
#define SMPI_KIND_GROUP 2
#define SMPI_KIND_DATATYPE 3
#define SMPI_KIND_OP 4
#define SMPI_KIND_REQUEST 5
#define SMPI_KIND_ERRHANDLER 6
#define SMPI_KIND_INFO 7
#define SMPI_KIND_WIN 8
#define SMPI_KIND_FILE 9
#define SMPI_KIND_MESSAGE 10
#define SMPI_KIND_KEYVAL 11
#define SMPI_KIND_T_ENUM 12
#define SMPI_KIND_T_CVAR 13
#define SMPI_KIND_T_PVAR 14
#define SMPI_KIND_T_SESSION 15
#define SMPI_KIND_COUNT 16 /* kinds are 1 .. SMPI_KIND_COUNT-1 */

/* ---- basic types ---- */
typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Win;
typedef int MPI_File;
typedef int MPI_Message;
typedef int MPI_T_enum;
typedef int MPI_T_cvar_handle;
typedef int MPI_T_pvar_handle;
typedef int MPI_T_pvar_session;

typedef intptr_t MPI_Aint; /* long on LP64 */
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

typedef struct MPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  int smpi_cancelled;   /* private: MPI_Test_cancelled and internal marks */
  long long smpi_count; /* private: bytes received; MPI_Get_count divides by the type size */
} MPI_Status;

/* Status as the Fortran 2008 bindings see it; only for MPI_Status_f082c/c2f08. */
typedef struct MPI_F08_status {
  MPI_Fint MPI_SOURCE;
  MPI_Fint MPI_TAG;
  MPI_Fint MPI_ERROR;
  MPI_Fint smpi_internal[3];
} MPI_F08_status;

/* ---- null handles ---- */
#define MPI_COMM_NULL SMPI_HANDLE_MAKE(SMPI_KIND_COMM, 0)
#define MPI_GROUP_NULL SMPI_HANDLE_MAKE(SMPI_KIND_GROUP, 0)
#define MPI_DATATYPE_NULL SMPI_HANDLE_MAKE(SMPI_KIND_DATATYPE, 0)
#define MPI_OP_NULL SMPI_HANDLE_MAKE(SMPI_KIND_OP, 0)
#define MPI_REQUEST_NULL SMPI_HANDLE_MAKE(SMPI_KIND_REQUEST, 0)
#define MPI_ERRHANDLER_NULL SMPI_HANDLE_MAKE(SMPI_KIND_ERRHANDLER, 0)
#define MPI_INFO_NULL SMPI_HANDLE_MAKE(SMPI_KIND_INFO, 0)
#define MPI_WIN_NULL SMPI_HANDLE_MAKE(SMPI_KIND_WIN, 0)
#define MPI_FILE_NULL SMPI_HANDLE_MAKE(SMPI_KIND_FILE, 0)
#define MPI_MESSAGE_NULL SMPI_HANDLE_MAKE(SMPI_KIND_MESSAGE, 0)
#define MPI_KEYVAL_INVALID SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 0)
#define MPI_T_ENUM_NULL SMPI_HANDLE_MAKE(SMPI_KIND_T_ENUM, 0)
#define MPI_T_CVAR_HANDLE_NULL SMPI_HANDLE_MAKE(SMPI_KIND_T_CVAR, 0)
#define MPI_T_PVAR_HANDLE_NULL SMPI_HANDLE_MAKE(SMPI_KIND_T_PVAR, 0)
#define MPI_T_PVAR_SESSION_NULL SMPI_HANDLE_MAKE(SMPI_KIND_T_SESSION, 0)

/* ---- predefined objects other than datatypes and ops ---- */
#define MPI_COMM_WORLD SMPI_HANDLE_MAKE(SMPI_KIND_COMM, 1)
#define MPI_COMM_SELF SMPI_HANDLE_MAKE(SMPI_KIND_COMM, 2)
#define MPI_GROUP_EMPTY SMPI_HANDLE_MAKE(SMPI_KIND_GROUP, 1)
#define MPI_ERRORS_ARE_FATAL SMPI_HANDLE_MAKE(SMPI_KIND_ERRHANDLER, 1)
#define MPI_ERRORS_RETURN SMPI_HANDLE_MAKE(SMPI_KIND_ERRHANDLER, 2)
#define MPI_INFO_ENV SMPI_HANDLE_MAKE(SMPI_KIND_INFO, 1)
#define MPI_MESSAGE_NO_PROC SMPI_HANDLE_MAKE(SMPI_KIND_MESSAGE, 1)
#define MPI_T_PVAR_ALL_HANDLES SMPI_HANDLE_MAKE(SMPI_KIND_T_PVAR, 1)

/* ---- predefined datatypes: indices 1 .. SMPI_DATATYPE_PREDEFINED_COUNT-1 ---- */
#define SMPI_DATATYPE_(index) SMPI_HANDLE_MAKE(SMPI_KIND_DATATYPE, index)
#define MPI_CHAR SMPI_DATATYPE_(1)
#define MPI_SIGNED_CHAR SMPI_DATATYPE_(2)
#define MPI_UNSIGNED_CHAR SMPI_DATATYPE_(3)
#define MPI_BYTE SMPI_DATATYPE_(4)
#define MPI_WCHAR SMPI_DATATYPE_(5)
#define MPI_SHORT SMPI_DATATYPE_(6)
#define MPI_UNSIGNED_SHORT SMPI_DATATYPE_(7)
#define MPI_INT SMPI_DATATYPE_(8)
#define MPI_UNSIGNED SMPI_DATATYPE_(9)
#define MPI_LONG SMPI_DATATYPE_(10)
#define MPI_UNSIGNED_LONG SMPI_DATATYPE_(11)
#define MPI_LONG_LONG_INT SMPI_DATATYPE_(12)
#define MPI_LONG_LONG MPI_LONG_LONG_INT /* a synonym in the standard: same handle */
#define MPI_UNSIGNED_LONG_LONG SMPI_DATATYPE_(13)
#define MPI_FLOAT SMPI_DATATYPE_(14)
#define MPI_DOUBLE SMPI_DATATYPE_(15)
#define MPI_LONG_DOUBLE SMPI_DATATYPE_(16)
#define MPI_C_BOOL SMPI_DATATYPE_(17)
#define MPI_INT8_T SMPI_DATATYPE_(18)
#define MPI_INT16_T SMPI_DATATYPE_(19)
#define MPI_INT32_T SMPI_DATATYPE_(20)
#define MPI_INT64_T SMPI_DATATYPE_(21)
#define MPI_UINT8_T SMPI_DATATYPE_(22)
#define MPI_UINT16_T SMPI_DATATYPE_(23)
#define MPI_UINT32_T SMPI_DATATYPE_(24)
#define MPI_UINT64_T SMPI_DATATYPE_(25)
#define MPI_C_FLOAT_COMPLEX SMPI_DATATYPE_(26)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX /* synonym */
#define MPI_C_DOUBLE_COMPLEX SMPI_DATATYPE_(27)
#define MPI_C_LONG_DOUBLE_COMPLEX SMPI_DATATYPE_(28)
#define MPI_AINT SMPI_DATATYPE_(29)
#define MPI_OFFSET SMPI_DATATYPE_(30)
#define MPI_COUNT SMPI_DATATYPE_(31)
#define MPI_PACKED SMPI_DATATYPE_(32)
/* pair types for MPI_MINLOC / MPI_MAXLOC */
#define MPI_FLOAT_INT SMPI_DATATYPE_(33)
#define MPI_DOUBLE_INT SMPI_DATATYPE_(34)
#define MPI_LONG_INT SMPI_DATATYPE_(35)
#define MPI_2INT SMPI_DATATYPE_(36)
#define MPI_SHORT_INT SMPI_DATATYPE_(37)
#define MPI_LONG_DOUBLE_INT SMPI_DATATYPE_(38)
/* removed in MPI-3.0, still used by old codes with MPI_Type_struct */
#define MPI_UB SMPI_DATATYPE_(39)
#define MPI_LB SMPI_DATATYPE_(40)
/* C++ types */
#define MPI_CXX_BOOL SMPI_DATATYPE_(41)
#define MPI_CXX_FLOAT_COMPLEX SMPI_DATATYPE_(42)
#define MPI_CXX_DOUBLE_COMPLEX SMPI_DATATYPE_(43)
#define MPI_CXX_LONG_DOUBLE_COMPLEX SMPI_DATATYPE_(44)
/* Fortran types (C code passes them on behalf of Fortran libraries) */
#define MPI_CHARACTER SMPI_DATATYPE_(45)
#define MPI_LOGICAL SMPI_DATATYPE_(46)
#define MPI_INTEGER SMPI_DATATYPE_(47)
#define MPI_REAL SMPI_DATATYPE_(48)
#define MPI_DOUBLE_PRECISION SMPI_DATATYPE_(49)
#define MPI_COMPLEX SMPI_DATATYPE_(50)
#define MPI_DOUBLE_COMPLEX SMPI_DATATYPE_(51)
#define MPI_2INTEGER SMPI_DATATYPE_(52)
#define MPI_2REAL SMPI_DATATYPE_(53)
#define MPI_2DOUBLE_PRECISION SMPI_DATATYPE_(54)
#define MPI_INTEGER1 SMPI_DATATYPE_(55)
#define MPI_INTEGER2 SMPI_DATATYPE_(56)
#define MPI_INTEGER4 SMPI_DATATYPE_(57)
#define MPI_INTEGER8 SMPI_DATATYPE_(58)
#define MPI_INTEGER16 SMPI_DATATYPE_(59)
#define MPI_REAL2 SMPI_DATATYPE_(60)
#define MPI_REAL4 SMPI_DATATYPE_(61)
#define MPI_REAL8 SMPI_DATATYPE_(62)
#define MPI_REAL16 SMPI_DATATYPE_(63)
#define MPI_COMPLEX4 SMPI_DATATYPE_(64)
#define MPI_COMPLEX8 SMPI_DATATYPE_(65)
#define MPI_COMPLEX16 SMPI_DATATYPE_(66)
#define MPI_COMPLEX32 SMPI_DATATYPE_(67)
#define SMPI_DATATYPE_PREDEFINED_COUNT 68

/* ---- predefined reduction operations: indices 1 .. SMPI_OP_PREDEFINED_COUNT-1 ---- */
#define MPI_MAX SMPI_HANDLE_MAKE(SMPI_KIND_OP, 1)
#define MPI_MIN SMPI_HANDLE_MAKE(SMPI_KIND_OP, 2)
#define MPI_SUM SMPI_HANDLE_MAKE(SMPI_KIND_OP, 3)
#define MPI_PROD SMPI_HANDLE_MAKE(SMPI_KIND_OP, 4)
#define MPI_LAND SMPI_HANDLE_MAKE(SMPI_KIND_OP, 5)
#define MPI_BAND SMPI_HANDLE_MAKE(SMPI_KIND_OP, 6)
#define MPI_LOR SMPI_HANDLE_MAKE(SMPI_KIND_OP, 7)
#define MPI_BOR SMPI_HANDLE_MAKE(SMPI_KIND_OP, 8)
#define MPI_LXOR SMPI_HANDLE_MAKE(SMPI_KIND_OP, 9)
#define MPI_BXOR SMPI_HANDLE_MAKE(SMPI_KIND_OP, 10)
#define MPI_MINLOC SMPI_HANDLE_MAKE(SMPI_KIND_OP, 11)
#define MPI_MAXLOC SMPI_HANDLE_MAKE(SMPI_KIND_OP, 12)
#define MPI_REPLACE SMPI_HANDLE_MAKE(SMPI_KIND_OP, 13)
#define MPI_NO_OP SMPI_HANDLE_MAKE(SMPI_KIND_OP, 14)
#define SMPI_OP_PREDEFINED_COUNT 15

/* ---- predefined attribute keys: indices 1 .. SMPI_KEYVAL_PREDEFINED_COUNT-1 ---- */
#define MPI_TAG_UB SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 1)
#define MPI_HOST SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 2)
#define MPI_IO SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 3)
#define MPI_WTIME_IS_GLOBAL SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 4)
#define MPI_UNIVERSE_SIZE SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 5)
#define MPI_LASTUSEDCODE SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 6)
#define MPI_APPNUM SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 7)
#define MPI_WIN_BASE SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 8)
#define MPI_WIN_SIZE SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 9)
#define MPI_WIN_DISP_UNIT SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 10)
#define MPI_WIN_CREATE_FLAVOR SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 11)
#define MPI_WIN_MODEL SMPI_HANDLE_MAKE(SMPI_KIND_KEYVAL, 12)
#define SMPI_KEYVAL_PREDEFINED_COUNT 13

/* ---- error classes ---- */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_ROOT 7
#define MPI_ERR_GROUP 8
#define MPI_ERR_OP 9
#define MPI_ERR_TOPOLOGY 10
#define MPI_ERR_DIMS 11
#define MPI_ERR_ARG 12
#define MPI_ERR_UNKNOWN 13
#define MPI_ERR_TRUNCATE 14
#define MPI_ERR_OTHER 15
#define MPI_ERR_INTERN 16
#define MPI_ERR_IN_STATUS 17
#define MPI_ERR_PENDING 18
#define MPI_ERR_REQUEST 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_BAD_FILE 22
#define MPI_ERR_CONVERSION 23
#define MPI_ERR_DUP_DATAREP 24
#define MPI_ERR_FILE_EXISTS 25
#define MPI_ERR_FILE_IN_USE 26
#define MPI_ERR_FILE 27
#define MPI_ERR_INFO 28
#define MPI_ERR_INFO_KEY 29
#define MPI_ERR_INFO_VALUE 30
#define MPI_ERR_INFO_NOKEY 31
#define MPI_ERR_IO 32
#define MPI_ERR_NAME 33
#define MPI_ERR_NO_MEM 34
#define MPI_ERR_NOT_SAME 35
#define MPI_ERR_NO_SPACE 36
#define MPI_ERR_NO_SUCH_FILE 37
#define MPI_ERR_PORT 38
#define MPI_ERR_QUOTA 39
#define MPI_ERR_READ_ONLY 40
#define MPI_ERR_SERVICE 41
#define MPI_ERR_SPAWN 42
#define MPI_ERR_UNSUPPORTED_DATAREP 43
#define MPI_ERR_UNSUPPORTED_OPERATION 44
#define MPI_ERR_WIN 45
#define MPI_ERR_BASE 46
#define MPI_ERR_LOCKTYPE 47
#define MPI_ERR_KEYVAL 48
#define MPI_ERR_RMA_CONFLICT 49
#define MPI_ERR_RMA_SYNC 50
#define MPI_ERR_SIZE 51
#define MPI_ERR_DISP 52
#define MPI_ERR_ASSERT 53
/* 54 is unused, as in MPICH */
#define MPI_ERR_RMA_RANGE 55
#define MPI_ERR_RMA_ATTACH 56
#define MPI_ERR_RMA_SHARED 57
#define MPI_ERR_RMA_FLAVOR 58
#define MPI_T_ERR_MEMORY 59
#define MPI_T_ERR_NOT_INITIALIZED 60
#define MPI_T_ERR_CANNOT_INIT 61
#define MPI_T_ERR_INVALID_INDEX 62
#define MPI_T_ERR_INVALID_ITEM 63
#define MPI_T_ERR_INVALID_HANDLE 64
#define MPI_T_ERR_OUT_OF_HANDLES 65
#define MPI_T_ERR_OUT_OF_SESSIONS 66
#define MPI_T_ERR_INVALID_SESSION 67
#define MPI_T_ERR_CVAR_SET_NOT_NOW 68
#define MPI_T_ERR_CVAR_SET_NEVER 69
#define MPI_T_ERR_PVAR_NO_STARTSTOP 70
#define MPI_T_ERR_PVAR_NO_WRITE 71
#define MPI_T_ERR_PVAR_NO_ATOMIC 72
#define MPI_T_ERR_INVALID_NAME 73
#define MPI_T_ERR_INVALID 74
#define MPI_ERR_LASTCODE 74

/* ---- special buffer, pointer and rank values ---- */
/* MPI_IN_PLACE is an address no buffer can have. The status and weight sentinels are
 * distinct objects of the library, declared as arrays of unknown size: a small constant
 * address such as (MPI_Status *)8 makes GCC warn in every user call like
 * MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE) ("accessing 24 bytes in a region of size 0").
 * MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE differ so misuse can be diagnosed; the runtime
 * accepts either where an array of statuses is expected, as other MPIs do. */
#define MPI_BOTTOM ((void *)0) /* absolute addresses (MPI_Get_address) are offsets from it */
#define MPI_IN_PLACE ((void *)-1)
extern SMPI_PUBLIC MPI_Status smpi_status_ignore_[];
extern SMPI_PUBLIC MPI_Status smpi_statuses_ignore_[];
extern SMPI_PUBLIC int smpi_unweighted_[];
extern SMPI_PUBLIC int smpi_weights_empty_[];
#define MPI_STATUS_IGNORE (smpi_status_ignore_)
#define MPI_STATUSES_IGNORE (smpi_statuses_ignore_)
#define MPI_UNWEIGHTED (smpi_unweighted_)
#define MPI_WEIGHTS_EMPTY (smpi_weights_empty_)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)0) /* for MPI_Status_f2c/c2f: never a real status */
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)
#define MPI_F08_STATUS_IGNORE ((MPI_F08_status *)0)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)0)

#define MPI_ANY_SOURCE (-2)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-1)
#define MPI_ROOT (-3)
#define MPI_UNDEFINED (-32766)

/* ---- sizes of strings the caller provides ---- */
#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_PORT_NAME 256
#define MPI_MAX_DATAREP_STRING 128

/* Upper bound on the bytes MPI_Bsend adds to each message in the attached buffer. */
#define MPI_BSEND_OVERHEAD 128

/* ---- results and kinds ---- */
#define MPI_IDENT 0 /* MPI_Comm_compare, MPI_Group_compare */
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

#define MPI_GRAPH 1 /* MPI_Topo_test */
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

#define MPI_COMM_TYPE_SHARED 1      /* MPI_Comm_split_type */
#define MPI_COMM_TYPE_HW_GUIDED 2   /* MPI 4.0 */
#define MPI_COMM_TYPE_HW_UNGUIDED 3 /* MPI 4.0 */

/* ---- datatype constructors and decoding ---- */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT_INTEGER 11
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19

#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

#define MPI_TYPECLASS_REAL 1 /* MPI_Type_match_size */
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* ---- one-sided communication ---- */
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235

/* assertions (bit flags, distinct from the file access modes below) */
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

#define MPI_WIN_FLAVOR_CREATE 1 /* value of the MPI_WIN_CREATE_FLAVOR attribute */
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1 /* value of the MPI_WIN_MODEL attribute */
#define MPI_WIN_UNIFIED 2

/* ---- MPI-IO ---- */
#define MPI_MODE_CREATE 1 /* access modes (bit flags) */
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256

#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)

/* ---- tool information interface ---- */
#define MPI_T_VERBOSITY_USER_BASIC 221
#define MPI_T_VERBOSITY_USER_DETAIL 222
#define MPI_T_VERBOSITY_USER_ALL 223
#define MPI_T_VERBOSITY_TUNER_BASIC 224
#define MPI_T_VERBOSITY_TUNER_DETAIL 225
#define MPI_T_VERBOSITY_TUNER_ALL 226
#define MPI_T_VERBOSITY_MPIDEV_BASIC 227
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 228
#define MPI_T_VERBOSITY_MPIDEV_ALL 229

#define MPI_T_BIND_NO_OBJECT 9700
#define MPI_T_BIND_MPI_COMM 9701
#define MPI_T_BIND_MPI_DATATYPE 9702
#define MPI_T_BIND_MPI_ERRHANDLER 9703
#define MPI_T_BIND_MPI_FILE 9704
#define MPI_T_BIND_MPI_GROUP 9705
#define MPI_T_BIND_MPI_OP 9706
#define MPI_T_BIND_MPI_REQUEST 9707
#define MPI_T_BIND_MPI_WIN 9708
#define MPI_T_BIND_MPI_MESSAGE 9709
#define MPI_T_BIND_MPI_INFO 9710

#define MPI_T_SCOPE_CONSTANT 60438
#define MPI_T_SCOPE_READONLY 60439
#define MPI_T_SCOPE_LOCAL 60440
#define MPI_T_SCOPE_GROUP 60441
#define MPI_T_SCOPE_GROUP_EQ 60442
#define MPI_T_SCOPE_ALL 60443
#define MPI_T_SCOPE_ALL_EQ 60444

#define MPI_T_PVAR_CLASS_STATE 240
#define MPI_T_PVAR_CLASS_LEVEL 241
#define MPI_T_PVAR_CLASS_SIZE 242
#define MPI_T_PVAR_CLASS_PERCENTAGE 243
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 244
#define MPI_T_PVAR_CLASS_LOWWATERMARK 245
#define MPI_T_PVAR_CLASS_COUNTER 246
#define MPI_T_PVAR_CLASS_AGGREGATE 247
#define MPI_T_PVAR_CLASS_TIMER 248
#define MPI_T_PVAR_CLASS_GENERIC 249

/* ---- callback types ---- */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);

typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out,
                                       int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);

typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code, ...);
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *error_code, ...);
typedef void MPI_File_errhandler_function(MPI_File *file, int *error_code, ...);
/* names from MPI-2.0, deprecated by MPI-2.2 */
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;

typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *extent,
                                        void *extra_state);
typedef int MPI_Datarep_conversion_function(void *userbuf, MPI_Datatype datatype, int count,
                                            void *filebuf, MPI_Offset position,
                                            void *extra_state);

/* MPI-1 names (deprecated by MPI-2, MPI_Handler_function removed by MPI-3.0) */
typedef void MPI_Handler_function(MPI_Comm *comm, int *error_code, ...);
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val,
                                void *extra_state);

/* ---- predefined callbacks ---- */
/* Every handle is an int, so one function serves communicators, datatypes and windows alike:
 * its type is identical to each MPI_*_copy_attr_function / MPI_*_delete_attr_function. */
SMPI_PUBLIC int smpi_attr_null_copy_fn(int oldobj, int keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out,
                                       int *flag);
SMPI_PUBLIC int smpi_attr_dup_fn(int oldobj, int keyval, void *extra_state,
                                 void *attribute_val_in, void *attribute_val_out, int *flag);
SMPI_PUBLIC int smpi_attr_null_delete_fn(int obj, int keyval, void *attribute_val,
                                         void *extra_state);

#define MPI_COMM_NULL_COPY_FN smpi_attr_null_copy_fn
#define MPI_COMM_NULL_DELETE_FN smpi_attr_null_delete_fn
#define MPI_COMM_DUP_FN smpi_attr_dup_fn
#define MPI_TYPE_NULL_COPY_FN smpi_attr_null_copy_fn
#define MPI_TYPE_NULL_DELETE_FN smpi_attr_null_delete_fn
#define MPI_TYPE_DUP_FN smpi_attr_dup_fn
#define MPI_WIN_NULL_COPY_FN smpi_attr_null_copy_fn
#define MPI_WIN_NULL_DELETE_FN smpi_attr_null_delete_fn
#define MPI_WIN_DUP_FN smpi_attr_dup_fn
#define MPI_NULL_COPY_FN smpi_attr_null_copy_fn
#define MPI_NULL_DELETE_FN smpi_attr_null_delete_fn
#define MPI_DUP_FN smpi_attr_dup_fn
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)

/* ---- the functions: MPI_Name and its profiling twin PMPI_Name for each entry ----
 * A function not implemented yet (STUB) is not exported by libsmpi.so: a program calling it
 * fails to link ("undefined reference to `MPI_Comm_spawn'"), so configure scripts that probe
 * for it by linking answer no instead of enabling a feature that would fail at run time
 * (docs/porting.md). Inside the library the stub still exists (api.c). */
#define SMPI_DECL_IMPL SMPI_PUBLIC
#define SMPI_DECL_STUB
#define SMPI_FN(ret, name, params, args, status) \
  SMPI_DECL_##status ret MPI_##name params;      \
  SMPI_DECL_##status ret PMPI_##name params;
#include "mpi_functions.h"
#undef SMPI_FN

#ifdef __cplusplus
}
#endif
#endif /* SMPI_MPI_H */
