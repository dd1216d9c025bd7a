/* SimGrid's energy plugins: the energy each host consumed (--cfg=plugin:host_energy, host
 * properties wattage_per_state and wattage_off), integrated over the run from the hosts'
 * CPU load and pstate, and each link's (plugin:link_energy, link property wattage_range
 * "idle:busy"); the model is in kernel/energy.c. */
#ifndef SMPI_KERNEL_ENERGY_H
#define SMPI_KERNEL_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel/routing.h"

/* Declares "plugin" (SimGrid's key: which plugins to load). Idempotent. */
void energy_declare_config(void);
/* After cpu_model_init (its solve must come first in the engine's model list): reads the
 * hosts' wattage properties when plugin:host_energy is on. Returns 0, or -1 with a message
 * ("host 'h': wattage_per_state ...") in err. */
int energy_start(const plat_platform *p, const route_table *rt, char *err, size_t errlen);
bool energy_enabled(void); /* host_energy */
/* Joules a host consumed from 0 to now (0 when the plugin is off). */
double energy_host_joules(size_t host);
/* Watts the host draws now (its pstate and load as of the last solve). */
double energy_host_watts(size_t host);
/* SimGrid's end-of-run report: the total, then each host by name. */
void energy_report(FILE *out);
/* The host's wattage in a pstate: idle, epsilon (the draw as the load leaves 0), max (all
 * cores busy), W; false when the plugin is off or the host has no wattage_per_state. */
bool energy_host_range(size_t host, size_t pstate, double *idle, double *epsilon, double *max);
void energy_stop(void);

#endif
