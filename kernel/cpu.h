/* The CPU model (SimGrid's Cas01): computations as max-min actions on host constraints.
 *
 * A host has a speed (flop/s of one core, at its current pstate) and a number of cores. Its
 * constraint has capacity speed x cores (SHARED); every execution is bounded by one core's
 * speed and has sharing penalty 1. So on an idle host f flops end after f / speed, two
 * executions on a 1-core host share it equally, and on a 2-core host they do not slow each
 * other down until there are more of them than cores.
 *
 * One CPU model per simulated world (a singleton, like the engine). Constraints are created
 * the first time a host computes, so a 100 000-host platform costs one pointer per host. */
#ifndef SMPI_KERNEL_CPU_H
#define SMPI_KERNEL_CPU_H

#include <stddef.h>

#include "kernel/activity.h"
#include "kernel/routing.h"

/* Idempotent; cpu/model and host/model accept only the defaults (Cas01, default). */
void cpu_declare_config(void);

/* After eng_init. rt must outlive the model. Returns 0, or -1 with a message in err. */
int cpu_model_init(const route_table *rt, char *err, size_t errlen);
void cpu_model_shutdown(void); /* before or after eng_shutdown; running actions are dropped */
bool cpu_model_initialized(void);

/* Starts an execution of flops (>= 0) on host. bound > 0 caps its speed (flop/s) below one
 * core's speed (a larger bound changes nothing, as in SimGrid); bound <= 0: no extra cap.
 * fn (may be NULL, e.g. to act_wait the action) runs when it ends. Free the returned action
 * with act_action_free. */
act_action *cpu_exec_start(size_t host, double flops, double bound, act_finish_fn fn, void *data);

double cpu_host_speed(size_t host); /* flop/s of one core at the current pstate */
int cpu_host_cores(size_t host);
size_t cpu_host_count(void);

/* For tests and benchmarks. */
act_model *cpu_act_model(void);
size_t cpu_constraint_count(void); /* hosts that have computed so far */

/* A speed profile's event (kernel/profiles.c): the host now computes at scale x its peak
 * speed (SimGrid's speed_file / availability_file values). */
void cpu_host_set_scale(size_t host, double scale);

/* Performance states (SimGrid's pstates, <host speed="1Gf,500Mf" pstate="0">): the current
 * one, and a switch to another (pstate < the host's count; its speed must be > 0 if an
 * execution runs there). Running executions continue at the new speed. */
size_t cpu_host_pstate(size_t host);
void cpu_host_set_pstate(size_t host, size_t pstate);
/* Fraction of the host's current capacity (all cores) in use, 0 .. 1, as of the last solve:
 * what the energy model integrates (kernel/energy.c). */
double cpu_host_load(size_t host);
/* fn(tag, flop/s, arg) for each execution on host now (act_constraint_foreach_use) */
void cpu_host_foreach_use(size_t host, void (*fn)(uint16_t tag, double used, void *arg),
                          void *arg);

#endif
