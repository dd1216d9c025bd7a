/* SimGrid's host and energy calls for MPI programs (include/smpi/simgrid/host.h and
 * plugins/energy.h): a rank reads its host's pstates and energy, and switches pstate. An
 * sg_host_t points into hosts[] below, one small struct per host made on first use. */
#include "smpi/simgrid/plugins/energy.h"

#include <stdio.h>
#include <stdlib.h>

#include "kernel/cpu.h"
#include "kernel/energy.h"
#include "kernel/routing.h"
#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/mem.h"

struct s4u_Host {
  size_t index;   /* host index of the routing table */
  char name[256]; /* for sg_host_get_name */
};

static struct host_api_state {
  s4u_Host *hosts; /* [route_host_count], made on first use */
  size_t nhosts;
} host_api;

static s4u_Host *host_at(size_t index)
{
  if (!host_api.hosts) {
    host_api.nhosts = route_host_count(smpi_w.routes);
    host_api.hosts = xcalloc(host_api.nhosts, sizeof *host_api.hosts);
    for (size_t i = 0; i < host_api.nhosts; i++) {
      host_api.hosts[i].index = i;
      route_host_name(smpi_w.routes, i, host_api.hosts[i].name, sizeof host_api.hosts[i].name);
    }
  }
  return &host_api.hosts[index];
}

static void plat_desc(const_sg_host_t h, plat_host_desc *d)
{
  route_host_desc(smpi_w.routes, h->index, d);
}

/* A call of the program with an impossible argument: SimGrid stops with an assertion;
 * here, a message naming the call and the job's end. */
_Noreturn static void misuse(const char *call, const char *what, unsigned long v, size_t n)
{
  smpi_rank *me = smpi_self();
  fprintf(stderr, "smpi: rank %d: %s: %s %lu does not exist (the host has %zu, from 0)\n",
          me ? me->rank : -1, call, what, v, n);
  smpi_abort_job(1);
}

SMPI_PUBLIC sg_host_t sg_host_self(void)
{
  smpi_rank *me = smpi_self();
  return me ? host_at(me->host) : NULL;
}

SMPI_PUBLIC const char *sg_host_get_name(const_sg_host_t host) { return host->name; }
SMPI_PUBLIC const char *sg_host_self_get_name(void) { return sg_host_self()->name; }

SMPI_PUBLIC double sg_host_get_speed(const_sg_host_t host) { return cpu_host_speed(host->index); }
SMPI_PUBLIC int sg_host_core_count(const_sg_host_t host) { return cpu_host_cores(host->index); }

SMPI_PUBLIC unsigned long sg_host_get_nb_pstates(const_sg_host_t host)
{
  plat_host_desc d;
  plat_desc(host, &d);
  return (unsigned long)d.npstates;
}

SMPI_PUBLIC unsigned long sg_host_get_pstate(const_sg_host_t host)
{
  return (unsigned long)cpu_host_pstate(host->index);
}

SMPI_PUBLIC double sg_host_get_pstate_speed(const_sg_host_t host, unsigned long pstate_index)
{
  plat_host_desc d;
  plat_desc(host, &d);
  if (pstate_index >= d.npstates)
    misuse("sg_host_get_pstate_speed", "pstate", pstate_index, d.npstates);
  return d.speeds[pstate_index];
}

SMPI_PUBLIC void sg_host_set_pstate(sg_host_t host, unsigned long pstate)
{
  plat_host_desc d;
  plat_desc(host, &d);
  if (pstate >= d.npstates)
    misuse("sg_host_set_pstate", "pstate", pstate, d.npstates);
  if (!(d.speeds[pstate] > 0)) { /* the calling rank runs there: it could never compute */
    fprintf(stderr,
            "smpi: rank %d: sg_host_set_pstate: pstate %lu of host '%s' has a speed of 0 "
            "flop/s, and this rank runs there\n",
            smpi_self() ? smpi_self()->rank : -1, pstate, host->name);
    smpi_abort_job(1);
  }
  /* the computation so far ran at the old speed: end the burst before switching */
  smpi_enter_call();
  cpu_host_set_pstate(host->index, pstate);
  smpi_leave_call();
}

SMPI_PUBLIC void sg_host_energy_plugin_init(void)
{
  if (energy_enabled())
    return;
  /* SimGrid wants it before the platform is loaded; here, the key must be set at launch */
  fprintf(stderr, "smpi: sg_host_energy_plugin_init: the energy is only counted with "
                  "--cfg=plugin:host_energy on smpirun's command line (or in the platform's "
                  "<config>); this call alone does not start it\n");
}

SMPI_PUBLIC void sg_host_energy_update_all(void) {}

SMPI_PUBLIC double sg_host_get_consumed_energy(const_sg_host_t host)
{
  return energy_host_joules(host->index);
}

SMPI_PUBLIC double sg_host_get_current_consumption(const_sg_host_t host)
{
  return energy_host_watts(host->index);
}

static double range(const_sg_host_t host, int pstate, int which)
{
  double v[3] = {0, 0, 0};
  if (pstate < 0 || !energy_host_range(host->index, (size_t)pstate, &v[0], &v[1], &v[2]))
    return 0;
  return v[which];
}

SMPI_PUBLIC double sg_host_get_idle_consumption(const_sg_host_t host)
{
  return range(host, (int)cpu_host_pstate(host->index), 0);
}
SMPI_PUBLIC double sg_host_get_idle_consumption_at(const_sg_host_t host, int pstate)
{
  return range(host, pstate, 0);
}
SMPI_PUBLIC double sg_host_get_wattmin_at(const_sg_host_t host, int pstate)
{
  return range(host, pstate, 1);
}
SMPI_PUBLIC double sg_host_get_wattmax_at(const_sg_host_t host, int pstate)
{
  return range(host, pstate, 2);
}
