/* The kernel's part of the world of one simulation: the engine (clock, actors, timers),
 * the CPU model and the network model, in one object, kworld.
 *
 *   kworld.engine   engine.c    eng_init .. eng_shutdown      the clock, run queue, timers
 *   kworld.cpu      cpu.c       cpu_model_init .. _shutdown   hosts' constraints
 *   kworld.net      network.c   net_model_init .. _shutdown   links, factors, route cache
 *
 * Each module reads and writes only its own part; the rest of the simulator reaches them
 * through the modules' functions (engine.h, cpu.h, network.h), never through this header.
 * The MPI layer's part of the world is smpi/runtime/world.h (docs/architecture.md). */
#ifndef SMPI_KERNEL_WORLD_H
#define SMPI_KERNEL_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/activity.h"
#include "kernel/context.h"
#include "kernel/engine.h"
#include "kernel/factors.h"
#include "kernel/lmm.h"
#include "kernel/network.h"
#include "kernel/route_cache.h"
#include "kernel/routing.h"
#include "src/heap.h"
#include "src/list.h"

/* ---- engine.c ---- */
typedef struct eng_state {
  bool initialized;
  bool direct_switch; /* contexts/direct-switch */
  bool inline_steps;  /* contexts/inline-steps */
  double now;
  double prec_timing;
  double prec_work;
  eng_actor *self;
  list_node alive;
  list_node dead;
  list_node runq;
  size_t alive_count;
  unsigned long next_pid;
  heap timers;
  list_node models;
  /* contexts of reaped actors not destroyed yet (see reap_dead) */
  ctx **graveyard;
  size_t ngrave, grave_cap;
  void (*on_end)(eng_actor *a);
  void (*on_switch)(eng_actor *to);
  eng_stats stats;
} eng_state;

/* ---- cpu.c ---- */
typedef struct cpu_host {
  lmm_constraint *cnst; /* NULL until the host first computes */
  double speed;         /* valid once cnst is set */
  int cores;
  bool scaled;     /* a speed profile set scale (kernel/profiles.c); else the scale is 1 */
  double scale;    /* fraction of the peak speed available now */
  bool pstate_set; /* cpu_host_set_pstate was called; else the platform's pstate */
  size_t pstate;   /* valid if pstate_set */
} cpu_host;

typedef struct cpu_state {
  bool initialized;
  act_model model;
  const route_table *rt;
  cpu_host *hosts; /* xcalloc_lazy: the pages of untouched entries cost nothing */
  size_t nhosts;
  size_t nconstraints;
} cpu_state;

/* ---- network.c ---- */
typedef struct net_link {
  lmm_constraint *cnst; /* NULL until a flow first crosses the link */
  double bandwidth; /* B/s set by a bandwidth profile (kernel/profiles.c), 0: the platform's */
  double lat_delta; /* s, a latency profile's value - the platform's latency (else 0) */
  uint32_t stamp;   /* == kworld.net.stamp: already an element of the flow being built */
  uint32_t pos;     /* its index in kworld.net.el_* then */
  bool down;        /* a state profile turned it off (kernel/profiles.c) */
} net_link;

typedef struct net_state {
  bool initialized;
  act_model model;
  const route_table *rt;
  net_model_kind kind;
  /* factors: piecewise (SMPI) or constant (CM02, LV08) */
  bool piecewise;
  fac_func bw_factor, lat_factor;
  double bw_const, lat_const;
  double constant_delay; /* Constant model */
  double weight_s;
  double tcp_gamma;
  bool crosstraffic;
  bool lat_profiled; /* a latency profile changed a link: routes add the links' lat_delta */
  /* state profiles: hosts and links that are off; set once one has been turned off, so
   * that runs without them never look */
  bool failures;
  /* network/model:IB: the flows under way, for their degree-based penalties (network.c) */
  bool ib;
  double ib_be, ib_bs, ib_gr; /* smpi/IB-penalty-factors: betae;betas;gammar */
  struct net_ib_flow *ib_flows;
  size_t ib_n, ib_cap;
  bool *host_down;   /* [route_host_count], or NULL */
  char failure[512]; /* why the last flow failed */
  /* links, lazily given a constraint */
  net_link *links;
  size_t nlinks;
  size_t nconstraints;
  /* scratch, reused by every message */
  route_path fwd, back;
  uint32_t stamp;
  uint32_t *el_link;
  double *el_coef;
  size_t el_cap;
  route_cache rc; /* (src, dst) -> elements and penalty (kernel/route_cache.h) */
  /* the factors of the last message size: most messages of a run have the size of the one
   * before (rings, shifts, collectives), and a piecewise lookup is a binary search */
  double fac_bytes; /* -1: none yet */
  double fac_lat, fac_bw;
} net_state;

typedef struct kernel_world {
  eng_state engine;
  cpu_state cpu;
  net_state net;
} kernel_world;

extern kernel_world kworld;

#endif
