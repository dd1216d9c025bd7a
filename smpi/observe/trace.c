/* Tracing core: options, per-rank call records, and dispatch to the outputs.
 *
 * A call's life as the outputs see it (rank 0 sending 800 bytes to rank 1):
 *
 *   t=0.998 burst of 2e6 flops injected -> Paje "computing" state [0.998, 1.0], TI "compute 2e+06"
 *   t=1.0  smpi_trace_call_begin        -> Paje push PMPI_Send (deferred with display sizes)
 *          smpi_trace_req_start         -> size known: 100 elements; the call record keeps
 *                                          the request for the TI line
 *          smpi_trace_msg_post          -> Paje start link "1_2_7_<n>", JSON flow start
 *   t=1.2  smpi_trace_call_end          -> Paje pop, JSON slice, TI "0 send 1 7 100 0",
 *                                          profile counters
 *   t=1.3  smpi_trace_msg_deliver       -> Paje end link on rank 1, JSON flow end
 *
 * Everything is keyed by world rank. Only outermost calls are recorded (call_depth 1):
 * what a call does through other MPI functions belongs to it. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/engine.h"
#include "smpi/mpi/comm.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/p2p_private.h"
#include "smpi/observe/trace_private.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/mem.h"

trace_state tracer;

/* message -> its open link, from its post to its delivery (traced messages only) */
typedef struct open_link {
  uint64_t key;
  int src, dst, tag;
} open_link;
static smpi_u64map links;
/* call name pointer -> id + 1 */
static smpi_u64map name_ids;

static const cfg_key trace_keys[] = {
    CFG_KEY_BOOL("tracing", false,
                 "Write a trace of the simulation (smpirun -trace): Paje by default, see "
                 "tracing/format and tracing/smpi/format"),
    CFG_KEY_STRING("tracing/filename", "smpi_simgrid.trace", NULL,
                   "Trace file; with the default name, the JSON format writes "
                   "smpi_simgrid.json and the TI format smpi_simgrid.txt"),
    CFG_KEY_BOOL("tracing/smpi", false,
                 "Trace the MPI calls (implied by tracing:yes unless set to no)"),
    CFG_KEY_BOOL("tracing/smpi/computing", true,
                 "Show the computations between MPI calls as 'computing' states (SimGrid's "
                 "default is no)"),
    CFG_KEY_BOOL("tracing/smpi/display-sizes", false,
                 "Add sizes to states (elements of the call) and links (bytes) in Paje traces"),
    CFG_KEY_BOOL("tracing/smpi/group", false,
                 "Paje: group the rank containers under one container per host"),
    CFG_KEY_BOOL("tracing/smpi/internals", false,
                 "Also trace the point-to-point messages that collectives send internally"),
    CFG_KEY_BOOL("tracing/smpi/sleeping", false,
                 "Accepted for SimGrid command lines (sleeps are not traced separately)"),
    CFG_KEY_UINT("tracing/precision", 6,
                 "Digits after the decimal point of the timestamps of Paje traces"),
    CFG_KEY_STRING("tracing/comment", "", NULL, "A comment line at the top of the trace file"),
    CFG_KEY_STRING("tracing/comment-file", "", NULL,
                   "A file whose lines are added as comments at the top of the trace file"),
    CFG_KEY_STRING("tracing/smpi/format", "Paje", NULL,
                   "Paje, or TI: time-independent trace for smpirun -replay (smpirun "
                   "-trace-ti)"),
    CFG_KEY_BOOL("tracing/smpi/format/ti-one-file", false,
                 "TI: write the actions of all ranks in a single file"),
    CFG_KEY_STRING("tracing/format", "paje", NULL,
                   "Format of timed traces: paje (Paje, for pajeng/ViTE/smpi-gantt) or json "
                   "(Chrome trace events, for Perfetto and chrome://tracing)"),
    CFG_KEY_BOOL("tracing/platform", false,
                 "Paje: one container per host and per link with their speed, core count, "
                 "bandwidth and latency (implied by tracing/categorized and uncategorized)"),
    CFG_KEY_BOOL("tracing/categorized", false,
                 "Paje: per tracing category (TRACE_category, TRACE_smpi_set_category), the "
                 "flop/s used on each host (p<category>) and bytes/s on each link "
                 "(b<category>)"),
    CFG_KEY_BOOL("tracing/uncategorized", false,
                 "Paje: the flop/s used on each host (speed_used) and bytes/s on each link "
                 "(bandwidth_used), all activities together"),
    CFG_KEY_BOOL("smpi/profile", false,
                 "Print a per-rank profile at the end (stderr): time in computation and in "
                 "each MPI call, calls, messages and bytes sent, message-size histograms"),
    CFG_KEY_STRING("smpi/profile-file", "", NULL,
                   "Also write the profile as CSV to this file (one row per rank and call)"),
};

void smpi_trace_declare_config(void) { cfg_declare_keys(trace_keys, CFG_NKEYS(trace_keys)); }

int trace_call_id(const char *name)
{
  void *v = smpi_u64map_get(&name_ids, (uint64_t)(uintptr_t)name);
  if (v)
    return (int)(intptr_t)v - 1;
  /* the same name may come from two pointers (MPI_Init and MPI_Init_thread share nothing,
   * but a name string can be duplicated across objects) */
  for (int i = 0; i < tracer.nnames; i++)
    if (!strcmp(tracer.names[i], name)) {
      smpi_u64map_put(&name_ids, (uint64_t)(uintptr_t)name, (void *)(intptr_t)(i + 1));
      return i;
    }
  XGROW(tracer.names, tracer.capnames, (size_t)tracer.nnames + 1);
  tracer.names[tracer.nnames] = name;
  smpi_u64map_put(&name_ids, (uint64_t)(uintptr_t)name, (void *)(intptr_t)(tracer.nnames + 1));
  return tracer.nnames++;
}

static bool same_word(const char *a, const char *b)
{
  while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
    a++, b++;
  return !*a && !*b;
}

int smpi_trace_init(char *err, size_t errlen)
{
  bool tracing = cfg_get_bool("tracing");
  bool smpi = cfg_get_bool("tracing/smpi") || (tracing && cfg_is_default("tracing/smpi"));
  tracer.profile = cfg_get_bool("smpi/profile");
  const char *sfmt = cfg_get_string("tracing/smpi/format");
  const char *fmt = cfg_get_string("tracing/format");
  bool ti = same_word(sfmt, "TI");
  if (!ti && !same_word(sfmt, "Paje")) {
    snprintf(err, errlen, "invalid value '%s' for 'tracing/smpi/format' (one of: Paje, TI)",
             sfmt);
    return -1;
  }
  bool json = same_word(fmt, "json");
  if (!json && !same_word(fmt, "paje")) {
    snprintf(err, errlen, "invalid value '%s' for 'tracing/format' (one of: paje, json)", fmt);
    return -1;
  }
  tracer.precision = (int)cfg_get_int("tracing/precision");
  if (tracer.precision < 0 || tracer.precision > 15) {
    snprintf(err, errlen, "invalid value %d for 'tracing/precision' (0 to 15 digits)",
             tracer.precision);
    return -1;
  }
  tracer.resolution = 0.5 * pow(10, -tracer.precision);
  if (tracing && smpi) {
    tracer.ti = ti;
    tracer.json = !ti && json;
    tracer.paje = !ti && !json;
  }
  if (!tracer.paje && !tracer.json && !tracer.ti && !tracer.profile)
    return 0;
  tracer.computing = cfg_get_bool("tracing/smpi/computing");
  tracer.sizes = cfg_get_bool("tracing/smpi/display-sizes");
  tracer.group = cfg_get_bool("tracing/smpi/group");
  tracer.internals = cfg_get_bool("tracing/smpi/internals");
  if (tracer.paje) {
    tracer.categorized = cfg_get_bool("tracing/categorized");
    tracer.uncategorized = cfg_get_bool("tracing/uncategorized");
    tracer.platform = cfg_get_bool("tracing/platform") || tracer.categorized ||
                      tracer.uncategorized;
  }
  tracer.np = smpi_w.np;
  tracer.ranks = xcalloc((size_t)tracer.np, sizeof *tracer.ranks);
  for (int r = 0; r < tracer.np; r++) {
    tracer.ranks[r].size = -1;
    tracer.ranks[r].wait_n = -1;
  }
  smpi_u64map_init(&links);
  smpi_u64map_init(&name_ids);
  const char *name = cfg_get_string("tracing/filename");
  if (cfg_is_default("tracing/filename") && (tracer.ti || tracer.json)) {
    /* the default name with the format's extension (smpi_simgrid.trace -> .txt, .json) */
    const char *dot = strrchr(name, '.');
    int stem = dot ? (int)(dot - name) : (int)strlen(name);
    tracer.filename = xasprintf("%.*s%s", stem, name, tracer.ti ? ".txt" : ".json");
  } else {
    tracer.filename = xstrdup(name);
  }
  int rc = 0;
  if (tracer.paje)
    rc = paje_open(tracer.filename, err, errlen);
  else if (tracer.json)
    rc = json_open(tracer.filename, err, errlen);
  else if (tracer.ti)
    rc = ti_open(tracer.filename, cfg_get_bool("tracing/smpi/format/ti-one-file"), err, errlen);
  if (rc)
    return rc;
  if (tracer.platform)
    trace_platform_start();
  smpi_observer_install(&(smpi_observer){
      .call_begin = smpi_trace_call_begin,
      .call_end = smpi_trace_call_end,
      .compute_begin = smpi_trace_compute_begin,
      .compute_end = smpi_trace_compute_end,
      .ti_compute = smpi_trace_ti_compute,
      .req_start = smpi_trace_req_start,
      .req_seen = smpi_trace_req_seen,
      .wait_count = smpi_trace_wait_count,
      .msg_post = smpi_trace_msg_post,
      .msg_deliver = smpi_trace_msg_deliver,
      .msg_drop = smpi_trace_msg_drop,
      .coll = smpi_trace_coll,
      .io = smpi_trace_io,
  });
  return 0;
}

static void link_end(open_link *l, double now);

static int by_key(const void *a, const void *b)
{
  uint64_t x = (*(open_link *const *)a)->key, y = (*(open_link *const *)b)->key;
  return x < y ? -1 : x > y;
}

void smpi_trace_finish(void)
{
  if (!smpi_observed)
    return;
  double now = eng_now();
  /* messages nobody received: their links end with the simulation (in key order, so the
   * file does not depend on the hash table's layout) */
  size_t nopen = 0;
  open_link **open = xmalloc((links.count + 1) * sizeof *open);
  for (size_t i = 0; i < links.cap; i++)
    if (links.used[i])
      open[nopen++] = links.vals[i];
  qsort(open, nopen, sizeof *open, by_key);
  for (size_t i = 0; i < nopen; i++)
    link_end(open[i], now);
  free(open);
  smpi_u64map_destroy(&links);
  for (int r = 0; r < tracer.np; r++) {
    trace_rank *t = &tracer.ranks[r];
    if (t->t_end == 0)
      t->t_end = now;
    if (tracer.paje && !t->ended)
      paje_rank_end(r, now);
  }
  if (tracer.platform)
    trace_platform_stop();
  if (tracer.paje)
    paje_close(now);
  if (tracer.json)
    json_close();
  if (tracer.ti)
    ti_close();
  if (tracer.profile)
    prof_report(now);
  smpi_observer_remove();
}

/* ---- calls ---- */

void smpi_trace_call_begin(smpi_rank *me, const char *fname)
{
  if (me->call_depth != 1)
    return;
  trace_rank *t = &tracer.ranks[me->rank];
  t->call = fname;
  t->call_id = tracer.profile ? trace_call_id(fname) : 0;
  t->t0 = eng_now();
  t->size = -1;
  t->nreq = 0;
  t->have_seen = false;
  t->wait_n = -1;
  t->coll_written = false;
  if (!strncmp(fname, "MPI_Init", 8)) {
    t->t_init = t->t0;
    if (tracer.ti)
      ti_init(me->rank);
  }
  if (tracer.paje)
    paje_call_begin(me->rank, t->t0);
}

void smpi_trace_call_end(smpi_rank *me)
{
  if (me->call_depth != 1)
    return;
  trace_rank *t = &tracer.ranks[me->rank];
  if (!t->call)
    return;
  double now = eng_now();
  if (tracer.paje)
    paje_call_end(me->rank, now);
  if (tracer.json)
    json_slice(me->rank, t->call, "MPI", t->t0, now, t->size);
  if (tracer.ti)
    ti_call_end(me->rank, t);
  if (tracer.profile)
    prof_call_end(t, now);
  if (me->phase == SMPI_RANK_FINALIZED && !t->ended) {
    t->t_end = now;
    if (tracer.paje)
      paje_rank_end(me->rank, now);
    t->ended = true;
  }
  t->call = NULL;
}

/* Computations before MPI_Init (the program's start) and after MPI_Finalize are not the
 * MPI job's: SimGrid does not record them either. */
static smpi_rank *computing_rank(void)
{
  smpi_rank *me = smpi_self();
  return me && me->phase == SMPI_RANK_INITIALIZED ? me : NULL;
}

void smpi_trace_compute_begin(double flops)
{
  smpi_rank *me = computing_rank();
  if (!me)
    return;
  trace_rank *t = &tracer.ranks[me->rank];
  t->comp_t0 = eng_now();
  /* A computation shorter than the timestamps' resolution would be a zero-length state:
   * invisible, and pajeng loses the next zero-length state at the same date. The CPU may
   * be shared, so the real duration is at least flops / speed. */
  t->comp_drawn = tracer.paje && tracer.computing &&
                  flops / cpu_host_speed(me->host) >= tracer.resolution;
  if (t->comp_drawn)
    paje_compute_begin(me->rank, t->comp_t0, flops);
  if (tracer.ti)
    ti_compute(me->rank, flops);
}

void smpi_trace_compute_end(double flops)
{
  smpi_rank *me = computing_rank();
  if (!me)
    return;
  double now = eng_now();
  trace_rank *t = &tracer.ranks[me->rank];
  if (t->comp_drawn)
    paje_compute_end(me->rank, now);
  if (tracer.json && tracer.computing)
    json_compute(me->rank, t->comp_t0, now, flops);
  t->comp_time += now - t->comp_t0;
  t->comp_flops += flops;
  t->comp_count++;
}

void smpi_trace_ti_compute(double flops)
{
  smpi_rank *me = computing_rank();
  if (me && tracer.ti && flops > 0)
    ti_compute(me->rank, flops);
}

/* ---- point-to-point ---- */

void smpi_trace_req_start(const smpi_req *r)
{
  if (r->coll || (r->kind != REQ_SEND && r->kind != REQ_RECV))
    return;
  trace_rank *t = &tracer.ranks[r->owner];
  if (!t->call)
    return;
  if (t->nreq < 2) {
    trace_req *q = &t->req[t->nreq++];
    q->send = r->kind == REQ_SEND;
    q->tag = r->tag;
    q->count = (long)r->count;
    q->dt = r->dt;
    q->bytes = r->bytes;
    q->persistent = r->persistent;
    if (r->peer == MPI_PROC_NULL)
      q->peer = -1;
    else if (r->peer == MPI_ANY_SOURCE)
      q->peer = MPI_ANY_SOURCE;
    else
      q->peer = q->send ? r->peer_world : smpi_comm_world_rank(r->comm, r->peer);
  }
  if (t->size < 0) {
    t->size = (long long)r->count;
    if (tracer.paje)
      paje_call_size(r->owner);
  }
}

void smpi_trace_req_seen(const smpi_req *r)
{
  if (r->coll || (r->kind != REQ_SEND && r->kind != REQ_RECV))
    return;
  trace_rank *t = &tracer.ranks[r->owner];
  if (!t->call || t->have_seen)
    return;
  t->have_seen = true;
  int peer = r->peer;
  if (peer >= 0)
    peer = r->kind == REQ_SEND ? r->peer_world : smpi_comm_world_rank(r->comm, peer);
  if (r->kind == REQ_SEND) {
    t->seen_src = r->owner;
    t->seen_dst = peer;
  } else {
    t->seen_src = peer;
    t->seen_dst = r->owner;
  }
  t->seen_tag = r->tag;
}

void smpi_trace_wait_count(size_t n)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return;
  trace_rank *t = &tracer.ranks[me->rank];
  if (!t->call || t->wait_n >= 0)
    return;
  t->wait_n = (long)n;
  if (t->size < 0) { /* what SimGrid shows for MPI_Waitall: the number of requests */
    t->size = (long long)n;
    if (tracer.paje)
      paje_call_size(me->rank);
  }
}

void smpi_trace_msg_post(const p2p_msg *m, bool coll)
{
  trace_rank *t = &tracer.ranks[m->src_world];
  if (tracer.profile)
    prof_message(t, m->bytes);
  if (!tracer.paje && !tracer.json)
    return;
  if (coll && !tracer.internals)
    return;
  uint64_t key = ++tracer.link_seq;
  open_link *l = xmalloc(sizeof *l);
  *l = (open_link){key, m->src_world, m->dst_world, m->tag};
  smpi_u64map_put(&links, (uint64_t)(uintptr_t)m, l);
  double now = eng_now();
  if (tracer.paje)
    paje_link_start(m->src_world, now, key, m->tag, m->dst_world, m->bytes);
  if (tracer.json)
    json_flow_start(m->src_world, now, key, m->dst_world, m->tag, m->bytes);
}

static void link_end(open_link *l, double now)
{
  if (tracer.paje)
    paje_link_end(l->src, l->dst, now, l->key, l->tag);
  if (tracer.json)
    json_flow_end(l->dst, now, l->key, tracer.ranks[l->dst].call != NULL);
  free(l);
}

void smpi_trace_msg_deliver(const p2p_msg *m)
{
  if (!tracer.paje && !tracer.json)
    return;
  open_link *l = smpi_u64map_remove(&links, (uint64_t)(uintptr_t)m);
  if (l)
    link_end(l, eng_now());
}

/* A message destroyed without being delivered (cancelled, or withdrawn at MPI_Finalize):
 * its link ends now, at its destination, so that the trace has no dangling link. */
void smpi_trace_msg_drop(const p2p_msg *m) { smpi_trace_msg_deliver(m); }

/* ---- collectives ---- */

void smpi_trace_io(const smpi_trace_io_args *a)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return;
  if (tracer.ti)
    ti_io(me->rank, a);
  if (tracer.profile)
    prof_io(&tracer.ranks[me->rank], !strncmp(a->verb, "file_write", 10), a->bytes);
}

void smpi_trace_coll(const smpi_trace_coll_args *a)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return;
  trace_rank *t = &tracer.ranks[me->rank];
  /* a collective run on behalf of another call (communicator creation...) is not the
   * user's collective; MPI_Ibcast starts a Bcast (SimGrid's TI verb: ibcast) */
  if (!t->call || t->coll_written)
    return;
  bool nb = false;
  if (strcmp(t->call, a->mpi_name)) {
    nb = !strncmp(t->call, "MPI_I", 5) && same_word(t->call + 5, a->mpi_name + 4);
    if (!nb)
      return;
  }
  t->coll_written = true;
  if (t->size < 0) {
    /* what this rank sends (the total of an alltoallv), else what it receives */
    long long s = a->send;
    if (s < 0 && a->scounts) {
      s = 0;
      for (int i = 0; i < a->nranks; i++)
        s += a->scounts[i];
    }
    if (s < 0)
      s = a->recv;
    t->size = s;
    if (tracer.paje)
      paje_call_size(me->rank);
  }
  if (tracer.ti) {
    smpi_trace_coll_args b = *a;
    char verb[64];
    if (nb) {
      snprintf(verb, sizeof verb, "i%s", a->verb);
      b.verb = verb;
    }
    ti_coll(me->rank, &b);
  }
}

/* ---- categories (SimGrid's TRACE_category, TRACE_smpi_set_category) ---- */

void smpi_trace_category(const char *name, const char *color)
{
  if (tracer.categorized)
    trace_category_declare(name, color);
}

void smpi_trace_set_category(const char *name)
{
  smpi_rank *me = smpi_self();
  if (!me || !tracer.categorized)
    return;
  /* SimGrid declares a category it has not seen, with a random colour */
  me->trace_category = name && *name ? trace_category_declare(name, NULL) : 0;
}
