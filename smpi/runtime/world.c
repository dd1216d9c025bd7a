/* The world of one simulation: its ranks, the rank running now, and the end of the job.
 *
 * Everything else of the MPI layer reads it; launch/launch.c fills it once (ranks, hosts,
 * the measurement settings) before the simulation starts. Nothing here knows of MPI
 * objects: this folder is the bottom of the MPI layer (docs/architecture.md). */
#include "smpi/runtime/world.h"

#include <dlfcn.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "src/log.h"

LOG_NEW_CATEGORY(smpi, "the MPI layer");
LOG_NEW_SUBCATEGORY(smpi_runtime, smpi, "MPI runtime: launch, ranks, CPU bursts");

smpi_world smpi_w;

smpi_rank *smpi_running;

void smpi_spawn_helper(const char *name, void (*fn)(void *arg), void *arg)
{
  smpi_rank *me = smpi_self();
  ASSERT(me);
  eng_actor *h = eng_actor_create(name, fn, arg);
  eng_actor_set_data(h, me);
  eng_yield();
}

void (*smpi_on_abort)(void);

int smpi_host_clock_gettime(clockid_t id, struct timespec *ts)
{
  static int (*real)(clockid_t, struct timespec *);
  if (__builtin_expect(!real, 0)) {
    *(void **)&real = dlsym(RTLD_NEXT, "clock_gettime");
    if (!real)
      return (int)syscall(SYS_clock_gettime, id, ts);
  }
  return real(id, ts);
}

_Noreturn void smpi_abort_job(int code)
{
  if (smpi_on_abort)
    smpi_on_abort();
  fflush(NULL);
  /* not _exit(), which ends only the calling rank (smpi/launch/rank_exit.c) */
  syscall(SYS_exit_group, code);
  __builtin_unreachable();
}
