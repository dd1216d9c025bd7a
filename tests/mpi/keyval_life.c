/* keyval_life: a keyval freed while attributes still use it (MPI 3.1 section 6.7.2: "the
 * actual free does not transpire until after all references ... have been freed"): on a
 * communicator, a datatype and a window, the attribute stays readable through the handle
 * the program kept, is copied by MPI_Comm_dup / MPI_Type_dup with the keyval's copy
 * callback, is deleted by MPI_*_delete_attr (and MPI_Attr_delete) with its delete callback,
 * and the remaining copies are deleted at MPI_*_free; freeing the keyval twice is an
 * error. Any number of ranks (the suite uses 2). Plain MPI: the test runs it under MPICH. */
#define MPITEST_NAME "keyval_life"
#include "mpitest.h"

#include <stdint.h>

/* callbacks count into the counters given as extra_state */
typedef struct counts {
  int copies, deletes;
} counts;

static int comm_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
  (void)c, (void)k;
  ((counts *)extra)->copies++;
  *(void **)out = (void *)((intptr_t)in + 1);
  *flag = 1;
  return MPI_SUCCESS;
}

static int comm_del(MPI_Comm c, int k, void *val, void *extra)
{
  (void)c, (void)k, (void)val;
  ((counts *)extra)->deletes++;
  return MPI_SUCCESS;
}

static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
  (void)t, (void)k;
  ((counts *)extra)->copies++;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

static int type_del(MPI_Datatype t, int k, void *val, void *extra)
{
  (void)t, (void)k, (void)val;
  ((counts *)extra)->deletes++;
  return MPI_SUCCESS;
}

static int win_del(MPI_Win w, int k, void *val, void *extra)
{
  (void)w, (void)k, (void)val;
  ((counts *)extra)->deletes++;
  return MPI_SUCCESS;
}

static void on_comm(void)
{
  counts n = {0, 0};
  MPI_Comm c, d, e;
  int key, kept, flag = 0;
  void *val = NULL;
  MPI_Comm_dup(MPI_COMM_SELF, &c);
  MPI_Comm_create_keyval(comm_copy, comm_del, &key, &n);
  kept = key;
  MPI_Comm_set_attr(c, key, (void *)10);
  CHECK_CLASS(MPI_Comm_free_keyval(&key), MPI_SUCCESS, "free_keyval in use");
  CHECK(key == MPI_KEYVAL_INVALID, "free_keyval leaves %d", key);
  CHECK_CLASS(MPI_Comm_get_attr(c, kept, &val, &flag), MPI_SUCCESS, "get after free_keyval");
  CHECK(flag && val == (void *)10, "get after free_keyval: flag %d, value %p", flag, val);
  MPI_Comm_dup(c, &d); /* copied by the callback: value 11 */
  MPI_Comm_dup(c, &e); /* and again */
  CHECK(n.copies == 2, "copies %d", n.copies);
  flag = 0;
  MPI_Comm_get_attr(d, kept, &val, &flag);
  CHECK(flag && val == (void *)11, "copy: flag %d, value %p", flag, val);
  CHECK_CLASS(MPI_Comm_delete_attr(c, kept), MPI_SUCCESS, "delete_attr after free_keyval");
  CHECK(n.deletes == 1, "deletes after delete_attr: %d", n.deletes);
  MPI_Comm_get_attr(c, kept, &val, &flag);
  CHECK(!flag, "deleted attribute still found");
  CHECK_CLASS(MPI_Attr_delete(d, kept), MPI_SUCCESS, "MPI_Attr_delete after free_keyval");
  CHECK(n.deletes == 2, "deletes after MPI_Attr_delete: %d", n.deletes);
  MPI_Comm_free(&e); /* the last attribute goes with its communicator */
  CHECK(n.deletes == 3, "deletes after Comm_free: %d", n.deletes);
  key = kept;
  MPI_Comm_free(&c);
  MPI_Comm_free(&d);
  CHECK(n.deletes == 3, "deletes at the end: %d", n.deletes);
}

static void on_type(void)
{
  counts n = {0, 0};
  MPI_Datatype t, u;
  int key, kept, flag = 0;
  void *val = NULL;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_create_keyval(type_copy, type_del, &key, &n);
  kept = key;
  MPI_Type_set_attr(t, key, (void *)20);
  CHECK_CLASS(MPI_Type_free_keyval(&key), MPI_SUCCESS, "type free_keyval in use");
  CHECK_CLASS(MPI_Type_free_keyval(&key), MPI_ERR_KEYVAL, "type free_keyval twice");
  MPI_Type_get_attr(t, kept, &val, &flag);
  CHECK(flag && val == (void *)20, "type get after free_keyval: flag %d", flag);
  MPI_Type_dup(t, &u);
  CHECK(n.copies == 1, "type copies %d", n.copies);
  CHECK_CLASS(MPI_Type_delete_attr(t, kept), MPI_SUCCESS, "type delete_attr after free");
  CHECK(n.deletes == 1, "type deletes %d", n.deletes);
  MPI_Type_free(&u);
  CHECK(n.deletes == 2, "type deletes after Type_free %d", n.deletes);
  MPI_Type_free(&t);
}

static void on_win(void)
{
  counts n = {0, 0};
  MPI_Win w;
  int key, kept, flag = 0, buf[4];
  void *val = NULL;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, &key, &n);
  kept = key;
  MPI_Win_set_attr(w, key, (void *)30);
  CHECK_CLASS(MPI_Win_free_keyval(&key), MPI_SUCCESS, "win free_keyval in use");
  MPI_Win_get_attr(w, kept, &val, &flag);
  CHECK(flag && val == (void *)30, "win get after free_keyval: flag %d", flag);
  MPI_Win_free(&w);
  CHECK(n.deletes == 1, "win deletes after Win_free %d", n.deletes);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  on_comm();
  on_type();
  on_win();
  return mpitest_finalize();
}
