/* What the tracing core (trace.c) shares with its back ends: per-rank state and the
 * output functions of each format. Only smpi/trace*.c and smpi/observe/profile.c include it. */
#ifndef SMPI_SMPI_TRACE_PRIVATE_H
#define SMPI_SMPI_TRACE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "smpi/observe/trace.h"

/* One point-to-point request a call started (for its TI line). */
typedef struct trace_req {
  bool send;
  int peer; /* world rank; TI_ANY_SOURCE when any; -1 for MPI_PROC_NULL */
  int tag;
  long count;
  const struct smpi_dt *dt;
  size_t bytes;
  bool persistent;
} trace_req;

/* Per-call profile counters of one rank. */
typedef struct prof_call {
  unsigned long calls;
  double time;        /* simulated seconds inside the call */
  unsigned long msgs; /* messages it sent */
  unsigned long long bytes;
  uint32_t *hist; /* PROF_BUCKETS counts of message sizes, allocated at first use */
  unsigned long long io_read, io_written; /* MPI-IO data bytes of the rank */
} prof_call;
#define PROF_BUCKETS 48 /* bucket 0: 0 bytes; bucket k: [2^(k-1), 2^k - 1] bytes */

typedef struct trace_rank {
  const char *call;  /* outermost MPI call in progress, NULL between calls */
  int call_id;       /* its interned id (profile) */
  double t0;         /* when it began (after the CPU burst before it) */
  double comp_t0;    /* start of the computation in progress */
  bool comp_drawn;   /* it has a Paje state */
  long long size;    /* what the state shows with display-sizes, -1: NA */
  bool push_pending; /* Paje: its state is not written yet (waits for its size) */
  bool ended;        /* container destroyed (Finalize) */
  /* what the call did, for its TI line (written when the call ends) */
  trace_req req[2];
  int nreq;
  bool have_seen;
  int seen_src, seen_dst, seen_tag;
  long wait_n; /* requests a Waitall/Waitany was given, -1 if none */
  bool coll_written;
  /* profile */
  double t_init, t_end;
  double comp_time, comp_flops;
  unsigned long comp_count;
  prof_call *calls; /* indexed by call id */
  int ncalls;
} trace_rank;

typedef struct trace_state {
  int np;
  trace_rank *ranks;
  bool paje, json, ti, profile;
  bool computing, sizes, group, internals;
  bool platform, categorized, uncategorized; /* trace_platform.c (Paje only) */
  int precision;
  double resolution; /* half the last digit of Paje timestamps, seconds */
  char *filename;
  const char **names; /* call id -> name ("MPI_Send") */
  int nnames;
  size_t capnames;
  uint64_t link_seq; /* message keys */
} trace_state;

extern trace_state tracer;

int trace_call_id(const char *name);

/* trace_platform.c: host/link utilization per category */
void trace_platform_start(void); /* after the outputs are open */
void trace_platform_stop(void);  /* before they close */
uint16_t trace_category_declare(const char *name, const char *color); /* 0: not traced */
/* the routing's own links (the loopback of hosts): no container, as in SimGrid's traces */
static inline bool trace_link_hidden(const char *name) { return !strncmp(name, "__", 2); }

/* ---- Paje (trace_paje.c) ---- */
int paje_open(const char *path, char *err, size_t errlen);
void paje_category(uint16_t id, const char *name, const char *color);
/* rate of category slot (0: all) on host or link i over [t0, t1]; first: set it to 0 first */
void paje_resource_use(bool host, size_t i, uint16_t slot, bool first, double rate, double t0,
                       double t1);
void paje_flush_pending(void); /* states waiting for their size, in time order */
void paje_call_begin(int rank, double t);
void paje_call_size(int rank); /* the size of the pending state is now known */
void paje_call_end(int rank, double t);
void paje_compute_begin(int rank, double t, double flops);
void paje_compute_end(int rank, double t);
void paje_link_start(int src, double t, uint64_t key, int tag, int dst, size_t bytes);
void paje_link_end(int src, int dst, double t, uint64_t key, int tag);
void paje_rank_end(int rank, double t);
void paje_close(double t);

/* ---- Chrome trace-event JSON (trace_json.c) ---- */
int json_open(const char *path, char *err, size_t errlen);
void json_slice(int rank, const char *name, const char *cat, double t0, double t1,
                long long size);
void json_compute(int rank, double t0, double t1, double flops);
void json_flow_start(int src, double t, uint64_t id, int dst, int tag, size_t bytes);
void json_flow_end(int dst, double t, uint64_t id, bool in_slice);
void json_close(void);

/* ---- time-independent traces (trace_ti.c) ---- */
int ti_open(const char *path, bool one_file, char *err, size_t errlen);
void ti_init(int rank);
void ti_compute(int rank, double flops);
void ti_call_end(int rank, trace_rank *t);
void ti_coll(int rank, const smpi_trace_coll_args *a);
void ti_io(int rank, const smpi_trace_io_args *a);
void ti_close(void);

/* ---- profile (profile.c) ---- */
void prof_call_end(trace_rank *t, double now);
void prof_message(trace_rank *t, size_t bytes);
void prof_io(trace_rank *t, bool write, long long bytes);
void prof_report(double end);

#endif
