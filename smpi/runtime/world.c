/* The world of one simulation: its ranks, the rank running now, and the end of the job.
 *
 * Everything else of the MPI layer reads it; launch/launch.c fills it once (ranks, hosts,
 * the measurement settings) before the simulation starts. Nothing here knows of MPI
 * objects: this folder is the bottom of the MPI layer (docs/architecture.md). */
#include "smpi/runtime/world.h"

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

_Noreturn void smpi_abort_job(int code)
{
  fflush(NULL);
  /* not _exit(), which ends only the calling rank (smpi/launch/rank_exit.c) */
  syscall(SYS_exit_group, code);
  __builtin_unreachable();
}
