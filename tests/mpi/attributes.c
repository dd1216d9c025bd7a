/* attributes: keyvals and cached attributes — set/get/delete, the copy callbacks at
 * MPI_Comm_dup (MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN, a user one that declines), the
 * delete callbacks at replacement, deletion and MPI_Comm_free (newest attribute first, as
 * MPICH), a keyval freed while still attached, the deprecated MPI-1 calls, the predefined
 * attributes of MPI_COMM_WORLD, attributes on datatypes, and MPI_COMM_SELF's attributes
 * deleted at the start of MPI_Finalize. Any number of ranks >= 1; no collective. */
#include <stdlib.h>
#include <string.h>

#define MPITEST_NAME "attributes"
#include "mpitest.h"

/* Callback log, one per rank (passed as extra_state): "d<value> " per deletion,
 * "c<value> " per copy. */
#define LOG_SIZE 1024
static void note(void *log, char what, void *val)
{
  char *b = log;
  size_t n = strlen(b);
  snprintf(b + n, LOG_SIZE - n, "%c%ld ", what, (long)val);
}

static int copy_plus_1000(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
  (void)old;
  (void)key;
  note(extra, 'c', in);
  *(void **)out = (void *)((long)in + 1000);
  *flag = 1;
  return MPI_SUCCESS;
}

static int copy_decline(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
  (void)old;
  (void)key;
  (void)out;
  note(extra, 'c', in);
  *flag = 0;
  return MPI_SUCCESS;
}

static int delete_note(MPI_Comm comm, int key, void *val, void *extra)
{
  (void)comm;
  (void)key;
  note(extra, 'd', val);
  return MPI_SUCCESS;
}

/* Set by the delete callback of the attribute each rank puts on MPI_COMM_SELF, whose value
 * is 1000 + the rank (one slot per rank). */
#define MAX_RANKS 4096
static char finalize_deleted[MAX_RANKS];
static int delete_at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
  (void)key;
  (void)extra;
  long r = (long)val - 1000;
  if (comm == MPI_COMM_SELF && r >= 0 && r < MAX_RANKS)
    finalize_deleted[r] = 1;
  return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int key, void *val, void *extra)
{
  (void)t;
  (void)key;
  if ((long)val == 5)
    (*(int *)extra)++;
  return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank(), size = wsize();
  int flag;
  void *v;
  char log_buf[LOG_SIZE] = "";
  int type_deleted = 0;

  /* --- predefined attributes --- */
  int *ip;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag);
  CHECK(flag && *ip >= 32767, "MPI_TAG_UB: flag %d value %d", flag, flag ? *ip : 0);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &ip, &flag);
  CHECK(flag && (*ip == MPI_PROC_NULL || (*ip >= 0 && *ip < size)), "MPI_HOST: %d %d", flag,
        flag ? *ip : 0);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &ip, &flag);
  CHECK(flag && (*ip == MPI_ANY_SOURCE || *ip == MPI_PROC_NULL || (*ip >= 0 && *ip < size)),
        "MPI_IO: %d %d", flag, flag ? *ip : 0);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &ip, &flag);
  CHECK(!flag || *ip == 0 || *ip == 1, "MPI_WTIME_IS_GLOBAL: %d", flag ? *ip : 0);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &ip, &flag);
  CHECK(!flag || *ip >= size, "MPI_UNIVERSE_SIZE: %d", flag ? *ip : 0);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &ip, &flag);
  CHECK(!flag || *ip == 0, "MPI_APPNUM: %d", flag ? *ip : 0);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &ip, &flag);
  CHECK(flag && *ip >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE: %d", flag ? *ip : 0);
  /* deprecated spelling */
  MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag);
  CHECK(flag && *ip >= 32767, "MPI_Attr_get(MPI_TAG_UB)");

  /* --- set, get, replace, delete --- */
  int ka, kb, kc;
  MPI_Comm_create_keyval(copy_plus_1000, delete_note, &ka, log_buf);
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_note, &kb, log_buf);
  MPI_Comm_create_keyval(copy_decline, delete_note, &kc, log_buf);
  CHECK(ka != kb && kb != kc && ka != MPI_KEYVAL_INVALID, "distinct keyvals");
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_get_attr(c, ka, &v, &flag);
  CHECK(!flag, "no attribute yet");
  MPI_Comm_set_attr(c, kb, (void *)2);
  MPI_Comm_set_attr(c, ka, (void *)1);
  MPI_Comm_set_attr(c, kc, (void *)3);
  MPI_Comm_get_attr(c, ka, &v, &flag);
  CHECK(flag && (long)v == 1, "get ka: %d %ld", flag, (long)v);
  log_buf[0] = 0;
  MPI_Comm_set_attr(c, kb, (void *)22); /* replacement deletes the old value first */
  CHECK(!strcmp(log_buf, "d2 "), "replacement: '%s'", log_buf);
  MPI_Comm_get_attr(c, kb, &v, &flag);
  CHECK(flag && (long)v == 22, "get kb after replacement: %ld", (long)v);

  /* --- dup: copy callbacks, newest attribute first; kb keeps its place (oldest) --- */
  log_buf[0] = 0;
  MPI_Comm d;
  MPI_Comm_dup(c, &d);
  CHECK(!strcmp(log_buf, "c3 c1 "), "copies at dup: '%s'", log_buf);
  MPI_Comm_get_attr(d, ka, &v, &flag);
  CHECK(flag && (long)v == 1001, "copied ka: %d %ld", flag, (long)v);
  MPI_Comm_get_attr(d, kb, &v, &flag);
  CHECK(flag && (long)v == 22, "MPI_COMM_DUP_FN copies the value: %d %ld", flag, (long)v);
  MPI_Comm_get_attr(d, kc, &v, &flag);
  CHECK(!flag, "declined copy: not attached");
  /* the original is untouched */
  MPI_Comm_get_attr(c, ka, &v, &flag);
  CHECK(flag && (long)v == 1, "original ka: %ld", (long)v);

  /* --- delete --- */
  log_buf[0] = 0;
  MPI_Comm_delete_attr(c, kc);
  CHECK(!strcmp(log_buf, "d3 "), "delete: '%s'", log_buf);
  MPI_Comm_get_attr(c, kc, &v, &flag);
  CHECK(!flag, "deleted attribute still there");

  /* --- a keyval freed while attached stays usable by the attribute --- */
  int ka_saved = ka;
  MPI_Comm_free_keyval(&ka);
  CHECK(ka == MPI_KEYVAL_INVALID, "free_keyval resets the handle");
  (void)ka_saved;

  /* --- free: delete callbacks, newest first --- */
  log_buf[0] = 0;
  MPI_Comm_free(&c);
  CHECK(!strcmp(log_buf, "d1 d22 "), "deletions at free: '%s'", log_buf);
  log_buf[0] = 0;
  MPI_Comm_free(&d);
  CHECK(!strcmp(log_buf, "d1001 d22 "), "deletions at free of the dup: '%s'", log_buf);

  /* --- MPI-1 names --- */
  int k1;
  MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k1, NULL);
  MPI_Attr_put(MPI_COMM_WORLD, k1, (void *)9);
  MPI_Attr_get(MPI_COMM_WORLD, k1, &v, &flag);
  CHECK(flag && (long)v == 9, "Attr_get: %d %ld", flag, (long)v);
  MPI_Comm d1;
  MPI_Comm_dup(MPI_COMM_WORLD, &d1);
  MPI_Attr_get(d1, k1, &v, &flag);
  CHECK(!flag, "MPI_NULL_COPY_FN: not copied");
  MPI_Comm_free(&d1);
  MPI_Attr_delete(MPI_COMM_WORLD, k1);
  MPI_Attr_get(MPI_COMM_WORLD, k1, &v, &flag);
  CHECK(!flag, "Attr_delete");
  MPI_Keyval_free(&k1);
  CHECK(k1 == MPI_KEYVAL_INVALID, "Keyval_free");

  /* --- errors, returned --- */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, (void *)1), cls;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_KEYVAL, "setting MPI_TAG_UB: class %d", cls);
  rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v, &flag);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_KEYVAL, "MPI_KEYVAL_INVALID: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  /* --- datatypes --- */
  int kt;
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete, &kt, &type_deleted);
  MPI_Type_set_attr(MPI_INT, kt, (void *)5);
  MPI_Type_get_attr(MPI_INT, kt, &v, &flag);
  CHECK(flag && (long)v == 5, "type attribute: %d %ld", flag, (long)v);
  MPI_Type_get_attr(MPI_DOUBLE, kt, &v, &flag);
  CHECK(!flag, "another type has none");
  MPI_Type_delete_attr(MPI_INT, kt);
  CHECK(type_deleted == 1, "type delete callback: %d", type_deleted);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_set_attr(pair, kt, (void *)6);
  MPI_Type_get_attr(pair, kt, &v, &flag);
  CHECK(flag && (long)v == 6, "derived type attribute: %d %ld", flag, (long)v);
  MPI_Type_delete_attr(pair, kt);
  MPI_Type_free(&pair);
  MPI_Type_free_keyval(&kt);

  /* --- MPI_COMM_SELF: deleted at MPI_Finalize --- */
  int ks;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_at_finalize, &ks, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, ks, (void *)(1000L + rank));
  MPI_Comm_free_keyval(&ks);

  int ok = all_ok(failures == 0);
  MPI_Finalize();
  if (rank < MAX_RANKS && !finalize_deleted[rank]) {
    fprintf(stderr,
            "attributes: rank %d: MPI_COMM_SELF's attribute not deleted at MPI_Finalize\n", rank);
    ok = 0;
  }
  if (rank == 0 && ok)
    printf("attributes: OK\n");
  return ok ? 0 : 1;
}
