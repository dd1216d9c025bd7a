/* The network model (SimGrid's CM02 family: CM02, LV08, SMPI; and Constant).
 *
 * A message of s bytes from host a to host b (network/model CM02, LV08 or SMPI):
 *
 *   route      = links a -> b (routing.h), lat = sum of their latencies (raw)
 *   latency    = lat x lat_factor(s), paid first; the flow takes no bandwidth meanwhile
 *   flow       = one max-min variable: coefficient 1 on each link of the route and, with
 *                network/crosstraffic, 0.05 on each link of the reverse route b -> a (a link
 *                on both: SHARED adds 1 + 0.05, FATPIPE keeps the max, 1)
 *   penalty    = lat + sum over the route of weight_S / link bandwidth  (the flow's share of
 *                a bottleneck is inversely proportional to it); 1 when there is no latency
 *                phase (lat x lat_factor == 0), as in SimGrid
 *   bound      = TCP_gamma / (2 x lat) on the share (none if lat == 0)
 *   speed      = share x bw_factor(s): the factor applies after sharing, the flow still holds
 *                its whole share of the links, and nothing caps a factor above 1
 *
 * Factors: SMPI uses the piecewise smpi/bw-factor and smpi/lat-factor (kernel/factors.h;
 * network/bandwidth-factor and network/latency-factor are ignored, as in SimGrid); CM02 and
 * LV08 use the constants network/bandwidth-factor and network/latency-factor (defaults CM02
 * 1 and 1, LV08 0.97 and 13.01). weight_S: network/weight-S, default by model (SMPI 8775,
 * LV08 20537, CM02 0).
 *
 * Constant: every message takes network/latency-factor seconds (SimGrid 3.32: 13.01 unless
 * set; its documentation says "one second"), whatever its size, route and the other traffic;
 * no route is needed.
 *
 * One network model per simulated world (a singleton, like the engine). Link constraints are
 * created the first time a flow crosses the link (a 100 000-host cluster must not cost
 * 300 000 constraints up front). */
#ifndef SMPI_KERNEL_NETWORK_H
#define SMPI_KERNEL_NETWORK_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/activity.h"
#include "kernel/routing.h"

typedef enum {
  NET_MODEL_SMPI,
  NET_MODEL_CM02,
  NET_MODEL_LV08,
  NET_MODEL_CONSTANT
} net_model_kind;

/* Declares network/model, network/TCP-gamma, network/weight-S, network/crosstraffic,
 * network/bandwidth-factor, network/latency-factor, smpi/bw-factor, smpi/lat-factor
 * (idempotent). Call it before parsing --cfg options. */
void net_declare_config(void);

/* After eng_init; reads the configuration (it is not re-read later). rt must outlive the
 * model. Returns 0, or -1 with a message naming the bad key in err. */
int net_model_init(const route_table *rt, char *err, size_t errlen);
void net_model_shutdown(void); /* running actions are dropped */
bool net_model_initialized(void);
net_model_kind net_model_get_kind(void);

/* Starts a message of bytes (>= 0) from host src to host dst (src == dst: the loopback).
 * Returns NULL with a message in err if there is no route (or no reverse route while
 * network/crosstraffic is on). fn (may be NULL, e.g. to act_wait the action) runs when it
 * ends. Free the returned action with act_action_free. */
act_action *net_comm_start(size_t src, size_t dst, double bytes, act_finish_fn fn, void *data,
                           char *err, size_t errlen);

/* The factors the model applies to a message of bytes (1 for Constant). */
double net_bw_factor(double bytes);
double net_lat_factor(double bytes);

/* For tests and benchmarks. */
act_model *net_act_model(void);
size_t net_constraint_count(void); /* links crossed so far */
/* Route cache misses since init: routes looked up, and entries made from the reverse pair's */
void net_route_cache_stats(size_t *computed, size_t *mirrored);

/* A latency profile's event (kernel/profiles.c): messages starting from now on see this
 * latency (s) on the link. */
void net_link_set_latency(uint32_t link, double latency);
/* A bandwidth profile's event (kernel/profiles.c): link now carries bandwidth B/s. */
void net_link_set_bandwidth(uint32_t link, double bandwidth);

/* State profiles (kernel/profiles.c): a host or link goes down or up. Going down fails
 * every flow under way from or to the host, or crossing the link: they end in ACT_FAILED,
 * with net_failure() saying why. SimGrid's rule: a flow started while a host or link of its
 * path is down fails too; the caller asks net_path_down first. */
void net_host_set_up(size_t host, bool up);
void net_link_set_up(uint32_t link, bool up);
bool net_host_is_up(size_t host);
/* True, with why ("host 'B' is down", "link 'L' is down"), if src -> dst cannot be used now. */
bool net_path_down(size_t src, size_t dst, char *why, size_t len);
/* Why the last flow failed by net_host_set_up / net_link_set_up. */
const char *net_failure(void);

/* Usage of the link over its bandwidth (the flows' shares, cross-traffic included), as of
 * the last solve: what the link energy model integrates (kernel/energy.c). */
double net_link_load(uint32_t link);
/* fn(tag, bytes/s, arg) for each flow crossing link now (act_constraint_foreach_use) */
void net_link_foreach_use(uint32_t link, void (*fn)(uint16_t tag, double used, void *arg),
                          void *arg);

#endif
