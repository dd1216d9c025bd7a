/* The host part of SimGrid 3.32's <simgrid/plugins/energy.h>: the energy consumed by a
 * host, from its wattage_per_state property, with --cfg=plugin:host_energy (or
 * sg_host_energy_plugin_init before anything runs). Same names as SimGrid's; implemented in
 * smpi/emulation/host_api.c over kernel/energy.c. */
#ifndef SMPI_SIMGRID_PLUGINS_ENERGY_H
#define SMPI_SIMGRID_PLUGINS_ENERGY_H

#include "../host.h"

#ifdef __cplusplus
extern "C" {
#endif

SMPI_PUBLIC void sg_host_energy_plugin_init(void);
SMPI_PUBLIC void sg_host_energy_update_all(void);
/* Joules since the start of the simulation */
SMPI_PUBLIC double sg_host_get_consumed_energy(const_sg_host_t host);
/* Watts drawn now */
SMPI_PUBLIC double sg_host_get_current_consumption(const_sg_host_t host);
SMPI_PUBLIC double sg_host_get_idle_consumption(const_sg_host_t host);
SMPI_PUBLIC double sg_host_get_idle_consumption_at(const_sg_host_t host, int pstate);
SMPI_PUBLIC double sg_host_get_wattmin_at(const_sg_host_t host, int pstate);
SMPI_PUBLIC double sg_host_get_wattmax_at(const_sg_host_t host, int pstate);

#ifdef __cplusplus
}
#endif

#endif
