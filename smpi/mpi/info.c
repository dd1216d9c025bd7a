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

#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/handle.h"
#include "smpi/runtime/world.h"
#include "src/invariant.h"
#include "src/mem.h"

typedef struct info_entry {
  char *key, *val;
} info_entry;

struct smpi_info {
  info_entry *e;
  size_t n, cap;
};

static smpi_info env_info;

void smpi_info_set(smpi_info *i, const char *key, const char *val)
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

static info_entry *info_find(const smpi_info *i, const char *key)
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
  smpi_info_set(&env_info, "command", program_invocation_name ? program_invocation_name : "");
  char n[32];
  snprintf(n, sizeof n, "%d", smpi_w.np);
  smpi_info_set(&env_info, "maxprocs", n);
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd))
    smpi_info_set(&env_info, "wdir", cwd);
  smpi_info_set(&env_info, "thread_level", "MPI_THREAD_FUNNELED");
  smpi_handle_set_predefined(MPI_INFO_ENV, &env_info);
}

smpi_info *smpi_info_get(MPI_Info h) { return smpi_handle_get(h, SMPI_KIND_INFO); }

bool smpi_info_valid(MPI_Info h) { return smpi_info_get(h) != NULL; }

MPI_Info smpi_info_new_handle(void)
{
  return smpi_handle_new(SMPI_KIND_INFO, xcalloc(1, sizeof(smpi_info)));
}

MPI_Info smpi_info_dup_handle(MPI_Info h)
{
  smpi_info *i = smpi_info_get(h);
  if (!i)
    return MPI_INFO_NULL;
  smpi_info *n = xcalloc(1, sizeof *n);
  for (size_t k = 0; k < i->n; k++)
    smpi_info_set(n, i->e[k].key, i->e[k].val);
  return smpi_handle_new(SMPI_KIND_INFO, n);
}

void smpi_info_free_handle(MPI_Info h)
{
  smpi_info *i = smpi_info_get(h);
  if (!i || h == MPI_INFO_ENV)
    return;
  info_clear(i);
  free(i);
  smpi_handle_free(h);
}

/* ---- what the MPI functions do (smpi/bindings/info.c) ---- */

int smpi_info_delete(smpi_info *i, const char *key)
{
  info_entry *e = info_find(i, key);
  if (!e)
    return MPI_ERR_INFO_NOKEY;
  free(e->key);
  free(e->val);
  memmove(e, e + 1, (size_t)(i->e + i->n - (e + 1)) * sizeof *e);
  i->n--;
  return MPI_SUCCESS;
}

int smpi_info_value(const smpi_info *i, const char *key, int valuelen, char *value, int *flag)
{
  const info_entry *e = info_find(i, key);
  *flag = e != NULL;
  if (e) {
    if (!value)
      return MPI_ERR_ARG;
    /* valuelen excludes the terminating NUL (MPI 3.1 section 9.2): longer values are
     * truncated */
    size_t n = strlen(e->val);
    if (n > (size_t)valuelen)
      n = (size_t)valuelen;
    memcpy(value, e->val, n);
    value[n] = 0;
  }
  return MPI_SUCCESS;
}

void smpi_info_valuelen(const smpi_info *i, const char *key, int *valuelen, int *flag)
{
  const info_entry *e = info_find(i, key);
  *flag = e != NULL;
  if (e)
    *valuelen = (int)strlen(e->val);
}

int smpi_info_nkeys(const smpi_info *i) { return (int)i->n; }

void smpi_info_nthkey(const smpi_info *i, int n, char *key)
{
  ASSERT(n >= 0 && (size_t)n < i->n);
  strcpy(key, i->e[n].key);
}
