/* info: MPI_Info objects — set/get with truncation, replacement keeping the key's place,
 * get_nkeys/get_nthkey in insertion order, get_valuelen, delete, dup independence, free;
 * the error classes of bad keys, values and indices under MPI_ERRORS_RETURN; MPI_INFO_ENV
 * readable; Comm_set_info/Comm_get_info and Comm_dup_with_info. Any number of ranks >= 1;
 * no collective. */
#include <stdlib.h>
#include <string.h>

#define MPITEST_NAME "info"
#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Info info, copy;
  char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
  int n, flag, len;

  MPI_Info_create(&info);
  MPI_Info_get_nkeys(info, &n);
  CHECK(n == 0, "a new info has %d keys", n);
  MPI_Info_set(info, "zeta", "last");
  MPI_Info_set(info, "alpha", "first value");
  MPI_Info_set(info, "mid", "m");
  MPI_Info_set(info, "zeta", "replaced");
  MPI_Info_get_nkeys(info, &n);
  CHECK(n == 3, "3 keys, got %d", n);
  const char *order[] = {"zeta", "alpha", "mid"};
  for (int i = 0; i < 3; i++) {
    MPI_Info_get_nthkey(info, i, key);
    CHECK(!strcmp(key, order[i]), "key %d is '%s', expected '%s'", i, key, order[i]);
  }
  MPI_Info_get(info, "zeta", MPI_MAX_INFO_VAL, val, &flag);
  CHECK(flag && !strcmp(val, "replaced"), "zeta = '%s'", val);
  MPI_Info_get_valuelen(info, "alpha", &len, &flag);
  CHECK(flag && len == 11, "valuelen of alpha: %d", len);
  /* valuelen excludes the NUL: 5 characters requested, 5 given (MPI 3.1 section 9.2;
   * MPICH 4.0 fails with MPI_ERR_INFO_VALUE instead) */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  memset(val, 'x', sizeof val);
  int trc = MPI_Info_get(info, "alpha", 5, val, &flag);
  CHECK(class_of(trc) == MPI_ERR_INFO_VALUE ||
            (trc == MPI_SUCCESS && flag && !strcmp(val, "first")),
        "truncated value '%.8s' (rc %d)", val, trc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Info_get(info, "nope", MPI_MAX_INFO_VAL, val, &flag);
  CHECK(!flag, "absent key found");
  MPI_Info_get_valuelen(info, "nope", &len, &flag);
  CHECK(!flag, "absent key has a length");

  /* dup is independent */
  MPI_Info_dup(info, &copy);
  MPI_Info_delete(info, "alpha");
  MPI_Info_get_nkeys(info, &n);
  CHECK(n == 2, "after delete: %d keys", n);
  MPI_Info_get_nkeys(copy, &n);
  CHECK(n == 3, "the copy keeps 3 keys: %d", n);
  MPI_Info_get(copy, "alpha", MPI_MAX_INFO_VAL, val, &flag);
  CHECK(flag && !strcmp(val, "first value"), "copy's alpha = '%s'", val);
  MPI_Info_get_nthkey(info, 1, key);
  CHECK(!strcmp(key, "mid"), "order after delete: '%s'", key);

  /* errors, returned */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Info_delete(info, "alpha");
  CHECK(class_of(rc) == MPI_ERR_INFO_NOKEY, "delete absent: class %d", class_of(rc));
  rc = MPI_Info_set(info, "", "v");
  CHECK(class_of(rc) == MPI_ERR_INFO_KEY, "empty key: class %d", class_of(rc));
  char *long_key = malloc(MPI_MAX_INFO_KEY + 2);
  memset(long_key, 'k', MPI_MAX_INFO_KEY + 1);
  long_key[MPI_MAX_INFO_KEY + 1] = 0;
  rc = MPI_Info_set(info, long_key, "v");
  CHECK(class_of(rc) == MPI_ERR_INFO_KEY, "key too long: class %d", class_of(rc));
  free(long_key);
  char *long_val = malloc(MPI_MAX_INFO_VAL + 2);
  memset(long_val, 'v', MPI_MAX_INFO_VAL + 1);
  long_val[MPI_MAX_INFO_VAL + 1] = 0;
  rc = MPI_Info_set(info, "k", long_val);
  CHECK(class_of(rc) == MPI_ERR_INFO_VALUE, "value too long: class %d", class_of(rc));
  free(long_val);
  rc = MPI_Info_get_nthkey(info, 2, key);
  CHECK(class_of(rc) == MPI_ERR_ARG, "key number 2 of 2: class %d", class_of(rc));
  rc = MPI_Info_get_nkeys(MPI_INFO_NULL, &n);
  /* smpi: MPI_ERR_INFO; MPICH: MPI_ERR_ARG */
  CHECK(class_of(rc) == MPI_ERR_INFO || class_of(rc) == MPI_ERR_ARG, "MPI_INFO_NULL: class %d",
        class_of(rc));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  /* MPI_INFO_ENV can be read */
  MPI_Info_get_nkeys(MPI_INFO_ENV, &n);
  for (int i = 0; i < n; i++) {
    MPI_Info_get_nthkey(MPI_INFO_ENV, i, key);
    MPI_Info_get_valuelen(MPI_INFO_ENV, key, &len, &flag);
    CHECK(flag && len >= 0, "MPI_INFO_ENV key '%s'", key);
  }

  /* hints on communicators */
  MPI_Comm c;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, copy, &c);
  MPI_Info used;
  MPI_Comm_get_info(c, &used);
  CHECK(used != MPI_INFO_NULL, "Comm_get_info gives an info object");
  MPI_Info_get_nkeys(used, &n);
  CHECK(n >= 0, "keys of the info used: %d", n);
  MPI_Info_free(&used);
  MPI_Comm_set_info(c, info);
  MPI_Comm_get_info(c, &used);
  CHECK(used != MPI_INFO_NULL, "Comm_get_info after Comm_set_info");
  MPI_Info_free(&used);
  MPI_Comm_free(&c);

  MPI_Info_free(&info);
  CHECK(info == MPI_INFO_NULL, "Info_free resets the handle");
  MPI_Info_free(&copy);
  return mpitest_finalize();
}
