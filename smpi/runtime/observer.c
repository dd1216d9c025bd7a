/* The observer table (observer.h): filled by observe/ when tracing or the profile is on. */
#include "smpi/runtime/observer.h"

bool smpi_observed;
smpi_observer smpi_obs;

void smpi_observer_install(const smpi_observer *obs)
{
  smpi_obs = *obs;
  smpi_observed = true;
}

void smpi_observer_remove(void) { smpi_observed = false; }
