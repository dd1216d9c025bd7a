/* info.c: MPI_Info objects — ordered (key, value) lists.
 *
 * Keys keep the order of their first MPI_Info_set (MPI_Info_get_nthkey enumerates them in
 * that order, as MPICH does); setting an existing key replaces its value in place. Lists
 * are short (a few hints), so lookups are linear. Info objects are not tied to a rank: an
 * info handle can be used by any rank that has it. MPI_INFO_ENV describes the job and is
 * read-only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smpi/bindings/call.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/runtime/world.h"
#include "src/mem.h"

typedef struct info_entry {
  char *key, *val;
} info_entry;

typedef struct smpi_info {
  info_entry *e;
  size_t n, cap;
} smpi_info;

static smpi_info env_info;

static void info_set(smpi_info *i, const char *key, const char *val)
{
  for (size_t k = 0; k < i->n; k++)
    if (!strcmp(i->e[k].key, key)) {
      free(i->e[k].val);
      i->e[k].val = xstrdup(val);
      return;
    }
  XGROW(i->e, i->cap, i->n + 1);
  i->e[i->n++] = (info_entry){xstrdup(key), xstrdup(val)};
}

static info_entry *info_find(smpi_info *i, const char *key)
{
  for (size_t k = 0; k < i->n; k++)
    if (!strcmp(i->e[k].key, key))
      return &i->e[k];
  return NULL;
}

static void info_clear(smpi_info *i)
{
  for (size_t k = 0; k < i->n; k++) {
    free(i->e[k].key);
    free(i->e[k].val);
  }
  free(i->e);
  memset(i, 0, sizeof *i);
}

void smpi_info_setup_predefined(void)
{
  info_clear(&env_info);
  /* the keys of MPI 3.1 section 9.1.1 that mean something here */
  info_set(&env_info, "command", program_invocation_name ? program_invocation_name : "");
  char n[32];
  snprintf(n, sizeof n, "%d", smpi_w.np);
  info_set(&env_info, "maxprocs", n);
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd))
    info_set(&env_info, "wdir", cwd);
  info_set(&env_info, "thread_level", "MPI_THREAD_FUNNELED");
  smpi_handle_set_predefined(MPI_INFO_ENV, &env_info);
}

static smpi_info *info_get(MPI_Info h) { return smpi_handle_get(h, SMPI_KIND_INFO); }

bool smpi_info_valid(MPI_Info h) { return info_get(h) != NULL; }

MPI_Info smpi_info_new_handle(void)
{
  return smpi_handle_new(SMPI_KIND_INFO, xcalloc(1, sizeof(smpi_info)));
}

MPI_Info smpi_info_dup_handle(MPI_Info h)
{
  smpi_info *i = info_get(h);
  if (!i)
    return MPI_INFO_NULL;
  smpi_info *n = xcalloc(1, sizeof *n);
  for (size_t k = 0; k < i->n; k++)
    info_set(n, i->e[k].key, i->e[k].val);
  return smpi_handle_new(SMPI_KIND_INFO, n);
}

void smpi_info_free_handle(MPI_Info h)
{
  smpi_info *i = info_get(h);
  if (!i || h == MPI_INFO_ENV)
    return;
  info_clear(i);
  free(i);
  smpi_handle_free(h);
}

/* ---- MPI functions ---- */

static int check_key(const char *key)
{
  if (!key)
    return MPI_ERR_INFO_KEY;
  size_t n = strnlen(key, MPI_MAX_INFO_KEY + 1);
  return n == 0 || n > MPI_MAX_INFO_KEY ? MPI_ERR_INFO_KEY : MPI_SUCCESS;
}

#define GET_INFO(h)                                                                      \
  ({                                                                                     \
    smpi_info *i_ = info_get(h);                                                         \
    if (!i_)                                                                             \
      SMPI_FAIL(MPI_COMM_WORLD, MPI_ERR_INFO);                                           \
    i_;                                                                                  \
  })

int PMPI_Info_create(MPI_Info *info)
{
  SMPI_ENTER("MPI_Info_create");
  SMPI_CHECK(info, MPI_COMM_WORLD, MPI_ERR_ARG);
  *info = smpi_info_new_handle();
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
  SMPI_ENTER("MPI_Info_set");
  smpi_info *i = GET_INFO(info);
  SMPI_CHECK(info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_CHECK(value && strnlen(value, MPI_MAX_INFO_VAL + 1) <= MPI_MAX_INFO_VAL, MPI_COMM_WORLD,
             MPI_ERR_INFO_VALUE);
  info_set(i, key, value);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_delete(MPI_Info info, const char *key)
{
  SMPI_ENTER("MPI_Info_delete");
  smpi_info *i = GET_INFO(info);
  SMPI_CHECK(info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  info_entry *e = info_find(i, key);
  SMPI_CHECK(e, MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY);
  free(e->key);
  free(e->val);
  memmove(e, e + 1, (size_t)(i->e + i->n - (e + 1)) * sizeof *e);
  i->n--;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
  SMPI_ENTER("MPI_Info_get");
  smpi_info *i = GET_INFO(info);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_CHECK(valuelen >= 0 && flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  info_entry *e = info_find(i, key);
  *flag = e != NULL;
  if (e) {
    SMPI_CHECK(value, MPI_COMM_WORLD, MPI_ERR_ARG);
    /* valuelen excludes the terminating NUL (MPI 3.1 section 9.2): longer values are
     * truncated */
    size_t n = strlen(e->val);
    if (n > (size_t)valuelen)
      n = (size_t)valuelen;
    memcpy(value, e->val, n);
    value[n] = 0;
  }
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
  SMPI_ENTER("MPI_Info_get_valuelen");
  smpi_info *i = GET_INFO(info);
  int rc = check_key(key);
  SMPI_CHECK(rc == MPI_SUCCESS, MPI_COMM_WORLD, rc);
  SMPI_CHECK(valuelen && flag, MPI_COMM_WORLD, MPI_ERR_ARG);
  info_entry *e = info_find(i, key);
  *flag = e != NULL;
  if (e)
    *valuelen = (int)strlen(e->val);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
  SMPI_ENTER("MPI_Info_get_nkeys");
  smpi_info *i = GET_INFO(info);
  SMPI_CHECK(nkeys, MPI_COMM_WORLD, MPI_ERR_ARG);
  *nkeys = (int)i->n;
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
  SMPI_ENTER("MPI_Info_get_nthkey");
  smpi_info *i = GET_INFO(info);
  SMPI_CHECK(key, MPI_COMM_WORLD, MPI_ERR_ARG);
  if (n < 0 || (size_t)n >= i->n)
    SMPI_RETURN(smpi_comm_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, smpi_fname_,
                                 "key number %d of an info object with %zu keys", n, i->n));
  strcpy(key, i->e[n].key);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
  SMPI_ENTER("MPI_Info_dup");
  GET_INFO(info);
  SMPI_CHECK(newinfo, MPI_COMM_WORLD, MPI_ERR_ARG);
  *newinfo = smpi_info_dup_handle(info);
  SMPI_RETURN(MPI_SUCCESS);
}

int PMPI_Info_free(MPI_Info *info)
{
  SMPI_ENTER("MPI_Info_free");
  SMPI_CHECK(info, MPI_COMM_WORLD, MPI_ERR_ARG);
  GET_INFO(*info);
  SMPI_CHECK(*info != MPI_INFO_ENV, MPI_COMM_WORLD, MPI_ERR_INFO);
  smpi_info_free_handle(*info);
  *info = MPI_INFO_NULL;
  SMPI_RETURN(MPI_SUCCESS);
}
