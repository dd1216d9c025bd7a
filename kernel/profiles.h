/* Availability profiles: hosts' speeds and links' bandwidths that change over time, from
 * the platform's speed_file / availability_file / bandwidth_file and SPEED / BANDWIDTH
 * <trace_connect>s (src/plat_profile.h for the format, kernel/profiles.c for how). */
#ifndef SMPI_KERNEL_PROFILES_H
#define SMPI_KERNEL_PROFILES_H

#include <stddef.h>

#include "kernel/routing.h"
#include "src/platform.h"

/* After cpu_model_init and net_model_init, before eng_run: applies the events dated 0 and
 * arms a timer for the next event of each profile. Returns 0, or -1 with a message in err
 * (a value that makes no sense for its resource). */
int avail_start(const plat_platform *p, const route_table *rt, char *err, size_t errlen);
/* Called when a host goes down, before the flows from and to it fail: the MPI layer kills
 * the ranks on it. Set before avail_start. */
void avail_on_host_down(void (*hook)(size_t host));
/* Forgets the profiles (their timers die with the engine). */
void avail_stop(void);

#endif
