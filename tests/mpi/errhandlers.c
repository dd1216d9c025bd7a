/* errhandlers: MPI_ERRORS_RETURN (the call returns the error, with the right class),
 * user handlers (called with the communicator and the code, by failing calls and by
 * MPI_Comm_call_errhandler), inheritance by new communicators, Errhandler_free while
 * attached, the deprecated MPI-1 calls, MPI_Error_string/MPI_Error_class on every class,
 * and user error classes, codes and strings (MPI_LASTUSEDCODE follows). The default
 * MPI_ERRORS_ARE_FATAL is exercised by running a failing call by hand. Any number of
 * ranks >= 1; no collective. */
#include <stdlib.h>
#include <string.h>

#define MPITEST_NAME "errhandlers"
#include "mpitest.h"

/* What the user handler saw, one slot per rank (the handler has no extra_state). */
#define MAX_RANKS 4096
static struct {
  int calls, code;
  MPI_Comm comm;
} seen[MAX_RANKS];
static void handler(MPI_Comm *comm, int *code, ...)
{
  int r = wrank();
  seen[r].calls++;
  seen[r].code = *code;
  seen[r].comm = *comm;
}
#define calls seen[rank].calls
#define last_code seen[rank].code
#define last_comm seen[rank].comm

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  if (size > MAX_RANKS)
    MPI_Abort(MPI_COMM_WORLD, 2);
  int x = 0, rc;

  /* --- the default is MPI_ERRORS_ARE_FATAL --- */
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  CHECK(eh == MPI_ERRORS_ARE_FATAL, "default handler of MPI_COMM_WORLD");
  MPI_Errhandler_free(&eh);

  /* --- MPI_ERRORS_RETURN --- */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
  CHECK(class_of(rc) == MPI_ERR_RANK, "send to rank %d: class %d", size, class_of(rc));
  rc = MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  CHECK(class_of(rc) == MPI_ERR_COUNT, "negative count: class %d", class_of(rc));
  rc = MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
  CHECK(class_of(rc) == MPI_ERR_TAG, "negative tag: class %d", class_of(rc));
  rc = MPI_Comm_rank(MPI_COMM_NULL, &x);
  CHECK(class_of(rc) == MPI_ERR_COMM, "MPI_COMM_NULL: class %d", class_of(rc));

  /* --- user handler on a duplicate; inherited by the duplicate's duplicate --- */
  MPI_Comm c, cc;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_get_errhandler(c, &eh);
  CHECK(eh == MPI_ERRORS_RETURN, "a duplicate inherits its parent's handler");
  MPI_Errhandler_free(&eh);
  MPI_Errhandler mine;
  MPI_Comm_create_errhandler(handler, &mine);
  MPI_Comm_set_errhandler(c, mine);
  MPI_Comm_dup(c, &cc);
  rc = MPI_Send(&x, 1, MPI_INT, size + 3, 0, c);
  CHECK(calls == 1 && class_of(last_code) == MPI_ERR_RANK && last_comm == c,
        "user handler: %d calls, code %d", calls, last_code);
  CHECK(class_of(rc) == MPI_ERR_RANK, "the call still returns the error: %d", rc);
  rc = MPI_Comm_call_errhandler(cc, MPI_ERR_OTHER);
  CHECK(rc == MPI_SUCCESS && calls == 2 && last_code == MPI_ERR_OTHER && last_comm == cc,
        "Comm_call_errhandler on the inheriting duplicate: rc %d calls %d", rc, calls);
  MPI_Comm_get_errhandler(cc, &eh);
  CHECK(eh == mine, "Comm_get_errhandler returns the handler set");
  MPI_Errhandler_free(&eh);
  /* freeing the user's handle leaves the attached handler working */
  MPI_Errhandler_free(&mine);
  CHECK(mine == MPI_ERRHANDLER_NULL, "Errhandler_free resets the handle");
  MPI_Comm_call_errhandler(c, MPI_ERR_ARG);
  CHECK(calls == 3, "handler still attached after Errhandler_free: %d calls", calls);
  /* MPI_ERRORS_RETURN through Comm_call_errhandler returns MPI_SUCCESS (as MPICH) */
  rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG);
  CHECK(rc == MPI_SUCCESS, "call_errhandler with MPI_ERRORS_RETURN: %d", rc);

  /* --- MPI-1 names --- */
  MPI_Errhandler old_style;
  MPI_Errhandler_create(handler, &old_style);
  MPI_Errhandler_set(cc, old_style);
  MPI_Errhandler_get(cc, &eh);
  CHECK(eh == old_style, "Errhandler_get");
  MPI_Errhandler_free(&eh);
  MPI_Errhandler_free(&old_style);
  MPI_Comm_free(&cc);
  MPI_Comm_free(&c);

  /* --- strings and classes of every predefined class --- */
  char s[MPI_MAX_ERROR_STRING];
  int len;
  static const int classes[] = {
      MPI_SUCCESS,
      MPI_ERR_BUFFER,
      MPI_ERR_COUNT,
      MPI_ERR_TYPE,
      MPI_ERR_TAG,
      MPI_ERR_COMM,
      MPI_ERR_RANK,
      MPI_ERR_REQUEST,
      MPI_ERR_ROOT,
      MPI_ERR_GROUP,
      MPI_ERR_OP,
      MPI_ERR_TOPOLOGY,
      MPI_ERR_DIMS,
      MPI_ERR_ARG,
      MPI_ERR_UNKNOWN,
      MPI_ERR_TRUNCATE,
      MPI_ERR_OTHER,
      MPI_ERR_INTERN,
      MPI_ERR_IN_STATUS,
      MPI_ERR_PENDING,
      MPI_ERR_KEYVAL,
      MPI_ERR_NO_MEM,
      MPI_ERR_BASE,
      MPI_ERR_INFO_KEY,
      MPI_ERR_INFO_VALUE,
      MPI_ERR_INFO_NOKEY,
      MPI_ERR_SPAWN,
      MPI_ERR_PORT,
      MPI_ERR_SERVICE,
      MPI_ERR_NAME,
      MPI_ERR_WIN,
      MPI_ERR_SIZE,
      MPI_ERR_DISP,
      MPI_ERR_INFO,
      MPI_ERR_LOCKTYPE,
      MPI_ERR_ASSERT,
      MPI_ERR_RMA_CONFLICT,
      MPI_ERR_RMA_SYNC,
      MPI_ERR_RMA_RANGE,
      MPI_ERR_RMA_ATTACH,
      MPI_ERR_RMA_SHARED,
      MPI_ERR_RMA_FLAVOR,
      MPI_ERR_FILE,
      MPI_ERR_NOT_SAME,
      MPI_ERR_AMODE,
      MPI_ERR_UNSUPPORTED_DATAREP,
      MPI_ERR_UNSUPPORTED_OPERATION,
      MPI_ERR_NO_SUCH_FILE,
      MPI_ERR_FILE_EXISTS,
      MPI_ERR_BAD_FILE,
      MPI_ERR_ACCESS,
      MPI_ERR_NO_SPACE,
      MPI_ERR_QUOTA,
      MPI_ERR_READ_ONLY,
      MPI_ERR_FILE_IN_USE,
      MPI_ERR_DUP_DATAREP,
      MPI_ERR_CONVERSION,
      MPI_ERR_IO,
      MPI_T_ERR_MEMORY,
      MPI_T_ERR_NOT_INITIALIZED,
      MPI_T_ERR_CANNOT_INIT,
      MPI_T_ERR_INVALID_INDEX,
      MPI_T_ERR_INVALID_ITEM,
      MPI_T_ERR_INVALID_HANDLE,
      MPI_T_ERR_OUT_OF_HANDLES,
      MPI_T_ERR_OUT_OF_SESSIONS,
      MPI_T_ERR_INVALID_SESSION,
      MPI_T_ERR_CVAR_SET_NOT_NOW,
      MPI_T_ERR_CVAR_SET_NEVER,
      MPI_T_ERR_PVAR_NO_STARTSTOP,
      MPI_T_ERR_PVAR_NO_WRITE,
      MPI_T_ERR_PVAR_NO_ATOMIC,
  };
  for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) {
    int k = classes[i], cls = -1;
    MPI_Error_class(k, &cls);
    CHECK(cls == k, "class of predefined code %d: %d", k, cls);
    s[0] = 0;
    MPI_Error_string(k, s, &len);
    CHECK(len > 0 && len == (int)strlen(s), "string of class %d: '%s' (%d)", k, s, len);
  }

  /* --- user classes, codes and strings --- */
  int *lastused, flag, cls1, code1, code2;
  MPI_Add_error_class(&cls1);
  CHECK(cls1 > MPI_ERR_LASTCODE, "new class %d", cls1);
  MPI_Add_error_code(cls1, &code1);
  MPI_Add_error_code(MPI_ERR_ARG, &code2);
  CHECK(code1 != cls1 && code2 != code1 && code1 > MPI_ERR_LASTCODE, "new codes %d %d", code1,
        code2);
  CHECK(class_of(code1) == cls1 && class_of(code2) == MPI_ERR_ARG && class_of(cls1) == cls1,
        "classes of the new codes");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastused, &flag);
  CHECK(flag && *lastused >= code2 && *lastused >= cls1, "MPI_LASTUSEDCODE %d", *lastused);
  MPI_Add_error_string(code1, "the frobnicator jammed");
  MPI_Error_string(code1, s, &len);
  CHECK(!strcmp(s, "the frobnicator jammed") && len == 22, "user string '%s'", s);
  MPI_Error_string(cls1, s, &len);
  CHECK(len == 0 && s[0] == 0, "no string set: '%s'", s);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  return mpitest_finalize();
}
