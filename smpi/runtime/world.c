/* The world of one simulation: its ranks, the rank running now, and the end of the job.
 *
 * Everything else of the MPI layer reads it; launch/launch.c fills it once (ranks, hosts,
 * the measurement settings) before the simulation starts. Nothing here knows of MPI
 * objects: this folder is the bottom of the MPI layer (docs/architecture.md). */
#include "smpi/runtime/world.h"

#include <stdio.h>
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

_Noreturn void smpi_abort_job(int code)
{
  if (smpi_on_abort)
    smpi_on_abort();
  fflush(NULL);
  _exit(code);
}
