/* errors.c: error classes, codes and strings; errors not tied to a communicator.
 *
 * Predefined codes are the classes themselves (mpi.h); their string is "NAME: what went
 * wrong", so a message carries both the constant a programmer greps for and a plain
 * explanation. Codes and classes added with MPI_Add_error_class/code belong to the process
 * that added them (MPI says they are local), so each rank numbers its own from
 * MPI_ERR_LASTCODE + 1 and keeps its own strings: ranks that add the same classes in the
 * same order get the same values, as with MPICH. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpi/mpi/comm_impl.h"
#include "smpi/runtime/world.h"
#include "src/mem.h"

static const char *const predefined[MPI_ERR_LASTCODE + 1] = {
    [MPI_SUCCESS] = "MPI_SUCCESS: no error",
    [MPI_ERR_BUFFER] = "MPI_ERR_BUFFER: invalid buffer pointer",
    [MPI_ERR_COUNT] = "MPI_ERR_COUNT: invalid count argument",
    [MPI_ERR_TYPE] = "MPI_ERR_TYPE: invalid datatype",
    [MPI_ERR_TAG] = "MPI_ERR_TAG: invalid tag",
    [MPI_ERR_COMM] = "MPI_ERR_COMM: invalid communicator",
    [MPI_ERR_RANK] = "MPI_ERR_RANK: invalid rank",
    [MPI_ERR_ROOT] = "MPI_ERR_ROOT: invalid root",
    [MPI_ERR_GROUP] = "MPI_ERR_GROUP: invalid group",
    [MPI_ERR_OP] = "MPI_ERR_OP: invalid reduction operation",
    [MPI_ERR_TOPOLOGY] = "MPI_ERR_TOPOLOGY: invalid topology (or none where one is required)",
    [MPI_ERR_DIMS] = "MPI_ERR_DIMS: invalid dimension argument",
    [MPI_ERR_ARG] = "MPI_ERR_ARG: invalid argument",
    [MPI_ERR_UNKNOWN] = "MPI_ERR_UNKNOWN: unknown error",
    [MPI_ERR_TRUNCATE] = "MPI_ERR_TRUNCATE: message truncated on receive",
    [MPI_ERR_OTHER] = "MPI_ERR_OTHER: known error not in this list",
    [MPI_ERR_INTERN] = "MPI_ERR_INTERN: internal error of the MPI implementation",
    [MPI_ERR_IN_STATUS] = "MPI_ERR_IN_STATUS: error code is in the status",
    [MPI_ERR_PENDING] = "MPI_ERR_PENDING: pending request",
    [MPI_ERR_REQUEST] = "MPI_ERR_REQUEST: invalid request",
    [MPI_ERR_ACCESS] = "MPI_ERR_ACCESS: permission denied",
    [MPI_ERR_AMODE] = "MPI_ERR_AMODE: invalid file access mode",
    [MPI_ERR_BAD_FILE] = "MPI_ERR_BAD_FILE: invalid file name",
    [MPI_ERR_CONVERSION] = "MPI_ERR_CONVERSION: error in a user data conversion function",
    [MPI_ERR_DUP_DATAREP] = "MPI_ERR_DUP_DATAREP: data representation already registered",
    [MPI_ERR_FILE_EXISTS] = "MPI_ERR_FILE_EXISTS: file exists",
    [MPI_ERR_FILE_IN_USE] = "MPI_ERR_FILE_IN_USE: file operation refused: the file is in use",
    [MPI_ERR_FILE] = "MPI_ERR_FILE: invalid file handle",
    [MPI_ERR_INFO] = "MPI_ERR_INFO: invalid info object",
    [MPI_ERR_INFO_KEY] = "MPI_ERR_INFO_KEY: info key empty or longer than MPI_MAX_INFO_KEY",
    [MPI_ERR_INFO_VALUE] = "MPI_ERR_INFO_VALUE: info value empty or longer than MPI_MAX_INFO_VAL",
    [MPI_ERR_INFO_NOKEY] = "MPI_ERR_INFO_NOKEY: no such key in the info object",
    [MPI_ERR_IO] = "MPI_ERR_IO: other I/O error",
    [MPI_ERR_NAME] = "MPI_ERR_NAME: service name not published",
    [MPI_ERR_NO_MEM] = "MPI_ERR_NO_MEM: out of memory (MPI_Alloc_mem)",
    [MPI_ERR_NOT_SAME] =
        "MPI_ERR_NOT_SAME: arguments of a collective call differ between processes",
    [MPI_ERR_NO_SPACE] = "MPI_ERR_NO_SPACE: not enough space",
    [MPI_ERR_NO_SUCH_FILE] = "MPI_ERR_NO_SUCH_FILE: file does not exist",
    [MPI_ERR_PORT] = "MPI_ERR_PORT: invalid port name",
    [MPI_ERR_QUOTA] = "MPI_ERR_QUOTA: quota exceeded",
    [MPI_ERR_READ_ONLY] = "MPI_ERR_READ_ONLY: read-only file or file system",
    [MPI_ERR_SERVICE] = "MPI_ERR_SERVICE: invalid service name",
    [MPI_ERR_SPAWN] = "MPI_ERR_SPAWN: error spawning processes",
    [MPI_ERR_UNSUPPORTED_DATAREP] =
        "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported",
    [MPI_ERR_WIN] = "MPI_ERR_WIN: invalid window",
    [MPI_ERR_BASE] = "MPI_ERR_BASE: invalid base address",
    [MPI_ERR_LOCKTYPE] = "MPI_ERR_LOCKTYPE: invalid lock type",
    [MPI_ERR_KEYVAL] = "MPI_ERR_KEYVAL: invalid attribute key",
    [MPI_ERR_RMA_CONFLICT] = "MPI_ERR_RMA_CONFLICT: conflicting accesses to a window",
    [MPI_ERR_RMA_SYNC] = "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls",
    [MPI_ERR_SIZE] = "MPI_ERR_SIZE: invalid size",
    [MPI_ERR_DISP] = "MPI_ERR_DISP: invalid displacement",
    [MPI_ERR_ASSERT] = "MPI_ERR_ASSERT: invalid assertion",
    [MPI_ERR_RMA_RANGE] = "MPI_ERR_RMA_RANGE: target memory is not inside the window",
    [MPI_ERR_RMA_ATTACH] = "MPI_ERR_RMA_ATTACH: memory cannot be attached to the window",
    [MPI_ERR_RMA_SHARED] = "MPI_ERR_RMA_SHARED: memory cannot be shared",
    [MPI_ERR_RMA_FLAVOR] = "MPI_ERR_RMA_FLAVOR: wrong window flavor",
    [MPI_T_ERR_MEMORY] = "MPI_T_ERR_MEMORY: out of memory",
    [MPI_T_ERR_NOT_INITIALIZED] =
        "MPI_T_ERR_NOT_INITIALIZED: the tool interface is not initialized",
    [MPI_T_ERR_CANNOT_INIT] = "MPI_T_ERR_CANNOT_INIT: the tool interface cannot be initialized",
    [MPI_T_ERR_INVALID_INDEX] = "MPI_T_ERR_INVALID_INDEX: index out of range",
    [MPI_T_ERR_INVALID_ITEM] = "MPI_T_ERR_INVALID_ITEM: item index out of range",
    [MPI_T_ERR_INVALID_HANDLE] = "MPI_T_ERR_INVALID_HANDLE: invalid tool handle",
    [MPI_T_ERR_OUT_OF_HANDLES] = "MPI_T_ERR_OUT_OF_HANDLES: no more tool handles",
    [MPI_T_ERR_OUT_OF_SESSIONS] = "MPI_T_ERR_OUT_OF_SESSIONS: no more performance sessions",
    [MPI_T_ERR_INVALID_SESSION] = "MPI_T_ERR_INVALID_SESSION: invalid performance session",
    [MPI_T_ERR_CVAR_SET_NOT_NOW] =
        "MPI_T_ERR_CVAR_SET_NOT_NOW: control variable cannot be set now",
    [MPI_T_ERR_CVAR_SET_NEVER] = "MPI_T_ERR_CVAR_SET_NEVER: control variable can never be set",
    [MPI_T_ERR_PVAR_NO_STARTSTOP] =
        "MPI_T_ERR_PVAR_NO_STARTSTOP: performance variable cannot be started or stopped",
    [MPI_T_ERR_PVAR_NO_WRITE] = "MPI_T_ERR_PVAR_NO_WRITE: performance variable cannot be written",
    [MPI_T_ERR_PVAR_NO_ATOMIC] =
        "MPI_T_ERR_PVAR_NO_ATOMIC: performance variable cannot be read and reset atomically",
    [MPI_T_ERR_INVALID_NAME] = "MPI_T_ERR_INVALID_NAME: no variable or category of that name",
    [MPI_T_ERR_INVALID] = "MPI_T_ERR_INVALID: invalid use of the tool interface",
};

/* Codes a rank added: code MPI_ERR_LASTCODE + 1 + i is entries[i]. */
typedef struct user_code {
  int klass; /* == its own code for a class */
  char *string;
} user_code;

typedef struct rank_errors {
  user_code *entries;
  size_t count, cap;
  int lastused; /* MPI_LASTUSEDCODE's value (the attribute points here) */
} rank_errors;

static rank_errors *ranks_errors; /* one per world rank, allocated on first use */
static int ranks_errors_n;
static rank_errors outside_errors = {.lastused = MPI_ERR_LASTCODE}; /* no rank: tests */

static rank_errors *my_errors(void)
{
  smpi_rank *me = smpi_self();
  if (!me || me->rank >= smpi_w.np)
    return &outside_errors;
  if (ranks_errors_n < smpi_w.np) {
    ranks_errors = xrealloc(ranks_errors, (size_t)smpi_w.np * sizeof *ranks_errors);
    for (int i = ranks_errors_n; i < smpi_w.np; i++)
      ranks_errors[i] = (rank_errors){.lastused = MPI_ERR_LASTCODE};
    ranks_errors_n = smpi_w.np;
  }
  return &ranks_errors[me->rank];
}

static user_code *user_entry(int code)
{
  rank_errors *e = my_errors();
  if (code <= MPI_ERR_LASTCODE || (size_t)(code - MPI_ERR_LASTCODE - 1) >= e->count)
    return NULL;
  return &e->entries[code - MPI_ERR_LASTCODE - 1];
}

static bool predefined_code(int code)
{
  return code >= 0 && code <= MPI_ERR_LASTCODE && predefined[code] != NULL;
}

const char *smpi_error_string(int code)
{
  if (predefined_code(code))
    return predefined[code];
  user_code *u = user_entry(code);
  if (!u)
    return NULL;
  return u->string ? u->string : "";
}

int smpi_error_class(int code)
{
  if (predefined_code(code))
    return code;
  user_code *u = user_entry(code);
  return u ? u->klass : -1;
}

int smpi_error_lastused(void) { return my_errors()->lastused; }
int *smpi_error_lastused_ptr(void) { return &my_errors()->lastused; }

/* ---- what the MPI functions do (smpi/bindings/errors.c) ---- */

int smpi_error_string_copy(int code, char *string, int *resultlen)
{
  const char *s = smpi_error_string(code);
  char unknown[64];
  if (!s) {
    /* as MPICH: a string saying so rather than an error (the caller is usually already
     * reporting one) */
    snprintf(unknown, sizeof unknown, "unknown error code %d", code);
    s = unknown;
  }
  size_t n = strlen(s);
  if (n > MPI_MAX_ERROR_STRING - 1)
    n = MPI_MAX_ERROR_STRING - 1;
  memcpy(string, s, n);
  string[n] = 0;
  *resultlen = (int)n;
  return MPI_SUCCESS;
}

static int add_code(int klass)
{
  rank_errors *e = my_errors();
  XGROW(e->entries, e->cap, e->count + 1);
  int code = MPI_ERR_LASTCODE + 1 + (int)e->count;
  e->entries[e->count++] = (user_code){.klass = klass < 0 ? code : klass, .string = NULL};
  e->lastused = code;
  return code;
}

int smpi_error_add_class(void) { return add_code(-1); }

int smpi_error_add_code(int errorclass, int *errorcode)
{
  /* the class must be one: a predefined class or a class added by MPI_Add_error_class */
  bool is_class = predefined_code(errorclass) ||
                  (user_entry(errorclass) && user_entry(errorclass)->klass == errorclass);
  if (!is_class)
    return MPI_ERR_ARG;
  *errorcode = add_code(errorclass);
  return MPI_SUCCESS;
}

int smpi_error_set_string(int errorcode, const char *string)
{
  /* predefined codes keep their strings (MPI 3.1 section 8.5) */
  user_code *u = user_entry(errorcode);
  if (!u || strlen(string) >= MPI_MAX_ERROR_STRING)
    return MPI_ERR_ARG;
  free(u->string);
  u->string = xstrdup(string);
  return MPI_SUCCESS;
}
