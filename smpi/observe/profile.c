/* The per-rank profile (smpi/profile:yes), in the spirit of mpiP: where each rank's
 * simulated time went (computation, each MPI call), how many messages and bytes each call
 * sent, and the sizes of those messages in power-of-two buckets. Printed on stderr at the
 * end; smpi/profile-file writes the same numbers as CSV:
 *
 *   rank,call,calls,time_s,messages,bytes_sent,size_histogram
 *   0,(app),1,0.0105,0,0,
 *   0,(computation),12,0.0042,0,0,
 *   0,MPI_Send,10,0.0031,10,8000,512-1023:10
 *
 * "(app)" is the time from MPI_Init to the end of MPI_Finalize (or of the simulation);
 * messages are counted on the sender, in the call that posted them (collectives count the
 * messages of their algorithm). Times are simulated seconds. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/energy.h"
#include "kernel/routing.h"
#include "smpi/observe/trace_private.h"
#include "smpi/runtime/world.h"
#include "src/cfg.h"
#include "src/mem.h"

static prof_call *call_of(trace_rank *t, int id)
{
  if (id >= t->ncalls) {
    size_t cap = (size_t)t->ncalls;
    XGROW(t->calls, cap, (size_t)id + 1);
    memset(t->calls + t->ncalls, 0, (cap - (size_t)t->ncalls) * sizeof *t->calls);
    /* ncalls counts call names, not capacity: the report indexes the name table with it */
    t->ncalls = id + 1;
  }
  return &t->calls[id];
}

static int bucket_of(size_t bytes)
{
  int k = 0;
  while (bytes) {
    k++;
    bytes >>= 1;
  }
  return k < PROF_BUCKETS ? k : PROF_BUCKETS - 1;
}

static void bucket_range(int k, unsigned long long *lo, unsigned long long *hi)
{
  *lo = k == 0 ? 0 : 1ull << (k - 1);
  *hi = k == 0 ? 0 : (1ull << k) - 1;
}

void prof_call_end(trace_rank *t, double now)
{
  prof_call *c = call_of(t, t->call_id);
  c->calls++;
  c->time += now - t->t0;
}

void prof_message(trace_rank *t, size_t bytes)
{
  int id = t->call ? t->call_id : trace_call_id("(outside MPI calls)");
  prof_call *c = call_of(t, id);
  c->msgs++;
  c->bytes += bytes;
  if (!c->hist)
    c->hist = xcalloc(PROF_BUCKETS, sizeof *c->hist);
  c->hist[bucket_of(bytes)]++;
}

void prof_io(trace_rank *t, bool write, long long bytes)
{
  if (!t->call || bytes <= 0)
    return;
  prof_call *c = call_of(t, t->call_id);
  *(write ? &c->io_written : &c->io_read) += (unsigned long long)bytes;
}

static void write_csv(const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "smpi: cannot create the profile file '%s': %s (check smpi/profile-file)\n",
            path, strerror(errno));
    return;
  }
  fprintf(f, "rank,call,calls,time_s,messages,bytes_sent,size_histogram\n");
  for (int r = 0; r < tracer.np; r++) {
    trace_rank *t = &tracer.ranks[r];
    fprintf(f, "%d,(app),1,%.9g,0,0,\n", r, t->t_end - t->t_init);
    fprintf(f, "%d,(computation),%lu,%.9g,0,0,\n", r, t->comp_count, t->comp_time);
    for (int i = 0; i < t->ncalls; i++) {
      prof_call *c = &t->calls[i];
      if (!c->calls && !c->msgs)
        continue;
      fprintf(f, "%d,%s,%lu,%.9g,%lu,%llu,", r, tracer.names[i], c->calls, c->time, c->msgs,
              c->bytes);
      bool first = true;
      for (int k = 0; c->hist && k < PROF_BUCKETS; k++)
        if (c->hist[k]) {
          unsigned long long lo, hi;
          bucket_range(k, &lo, &hi);
          fprintf(f, "%s%llu-%llu:%u", first ? "" : ";", lo, hi, c->hist[k]);
          first = false;
        }
      fputc('\n', f);
    }
  }
  if (fclose(f) != 0)
    fprintf(stderr, "smpi: error while writing the profile file '%s': %s\n", path,
            strerror(errno));
}

typedef struct agg {
  unsigned long calls, msgs;
  unsigned long long bytes;
  double time, tmin, tmax;
  unsigned long long hist[PROF_BUCKETS];
  unsigned long long io_read, io_written;
} agg;

/* qsort has no context argument: the aggregate table being sorted */
static const agg *sort_ctx;
static int cmp_time(const void *a, const void *b)
{
  double x = sort_ctx[*(const int *)a].time, y = sort_ctx[*(const int *)b].time;
  return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

void prof_report(double end)
{
  FILE *o = stderr;
  int nn = tracer.nnames;
  agg *g = xcalloc((size_t)nn + 1, sizeof *g);
  double app = 0, mpi = 0, comp = 0;
  for (int r = 0; r < tracer.np; r++) {
    trace_rank *t = &tracer.ranks[r];
    app += t->t_end - t->t_init;
    comp += t->comp_time;
    for (int i = 0; i < t->ncalls; i++) {
      prof_call *c = &t->calls[i];
      agg *a = &g[i];
      if (c->calls && (a->calls == 0 || c->time < a->tmin))
        a->tmin = c->time;
      if (c->time > a->tmax)
        a->tmax = c->time;
      a->calls += c->calls;
      a->time += c->time;
      a->msgs += c->msgs;
      a->bytes += c->bytes;
      a->io_read += c->io_read;
      a->io_written += c->io_written;
      mpi += c->time;
      for (int k = 0; c->hist && k < PROF_BUCKETS; k++)
        a->hist[k] += c->hist[k];
    }
  }
  fflush(stdout);
  fprintf(o, "\n@ smpi profile: %d rank%s, simulated time %.9g s\n", tracer.np,
          tracer.np == 1 ? "" : "s", end);
  fprintf(o, "@ time per rank (simulated seconds; app = MPI_Init to the end of MPI_Finalize)\n");
  fprintf(o, "%6s %14s %14s %7s %14s %7s\n", "rank", "app", "MPI", "MPI%", "computation",
          "comp%");
  bool all = tracer.np <= 256;
  for (int r = 0; r < tracer.np && all; r++) {
    trace_rank *t = &tracer.ranks[r];
    double a = t->t_end - t->t_init, m = 0;
    for (int i = 0; i < t->ncalls; i++)
      m += t->calls[i].time;
    fprintf(o, "%6d %14.9g %14.9g %7.2f %14.9g %7.2f\n", r, a, m, a > 0 ? 100 * m / a : 0,
            t->comp_time, a > 0 ? 100 * t->comp_time / a : 0);
  }
  if (!all)
    fprintf(o, "%6s (%d ranks: per-rank lines in smpi/profile-file)\n", "", tracer.np);
  fprintf(o, "%6s %14.9g %14.9g %7.2f %14.9g %7.2f\n", "*", app, mpi,
          app > 0 ? 100 * mpi / app : 0, comp, app > 0 ? 100 * comp / app : 0);

  int *order = xmalloc(((size_t)nn + 1) * sizeof *order);
  int n = 0;
  for (int i = 0; i < nn; i++)
    if (g[i].calls || g[i].msgs)
      order[n++] = i;
  sort_ctx = g;
  qsort(order, (size_t)n, sizeof *order, cmp_time);
  fprintf(o, "@ MPI calls, all ranks, by time\n");
  fprintf(o, "%-24s %10s %14s %7s %14s %14s %10s %14s\n", "call", "calls", "time (s)", "%MPI",
          "min/rank (s)", "max/rank (s)", "messages", "bytes sent");
  for (int j = 0; j < n; j++) {
    agg *a = &g[order[j]];
    fprintf(o, "%-24s %10lu %14.9g %7.2f %14.9g %14.9g %10lu %14llu\n", tracer.names[order[j]],
            a->calls, a->time, mpi > 0 ? 100 * a->time / mpi : 0, a->tmin, a->tmax, a->msgs,
            a->bytes);
  }
  fprintf(o, "@ sizes of the messages sent, per call, all ranks (bytes, power-of-two buckets)\n");
  fprintf(o, "%-24s %25s %10s\n", "call", "size", "messages");
  for (int j = 0; j < n; j++) {
    agg *a = &g[order[j]];
    for (int k = 0; k < PROF_BUCKETS; k++)
      if (a->hist[k]) {
        unsigned long long lo, hi;
        bucket_range(k, &lo, &hi);
        char range[64];
        snprintf(range, sizeof range, "%llu - %llu", lo, hi);
        fprintf(o, "%-24s %25s %10llu\n", tracer.names[order[j]], range, a->hist[k]);
      }
  }
  /* only when the program did MPI-IO: the other profiles keep their exact format */
  bool io = false;
  for (int j = 0; j < n; j++)
    io = io || g[order[j]].io_read || g[order[j]].io_written;
  if (io) {
    fprintf(o, "@ MPI-IO data, all ranks (MB/s: bytes over the slowest rank's time in the "
               "call, MB = 1e6 bytes)\n");
    fprintf(o, "%-24s %16s %16s %14s %12s\n", "call", "bytes read", "bytes written",
            "max/rank (s)", "MB/s");
    for (int j = 0; j < n; j++) {
      agg *a = &g[order[j]];
      if (!a->io_read && !a->io_written)
        continue;
      double mbs = a->tmax > 0 ? (double)(a->io_read + a->io_written) / a->tmax / 1e6 : 0;
      fprintf(o, "%-24s %16llu %16llu %14.9g %12.2f\n", tracer.names[order[j]], a->io_read,
              a->io_written, a->tmax, mbs);
    }
  }
  if (energy_enabled()) { /* plugin:host_energy: the hosts the ranks ran on */
    fprintf(o, "@ energy of the hosts running ranks (plugin:host_energy; all hosts: the "
               "end-of-run lines)\n");
    fprintf(o, "%-24s %8s %16s\n", "host", "ranks", "energy (J)");
    double total = 0;
    for (size_t h = 0; h < route_host_count(smpi_w.routes); h++) {
      int nr = 0;
      for (int r = 0; r < smpi_w.np; r++)
        nr += smpi_w.ranks[r].host == h;
      if (!nr)
        continue;
      char name[256];
      route_host_name(smpi_w.routes, h, name, sizeof name);
      double j = energy_host_joules(h);
      total += j;
      fprintf(o, "%-24s %8d %16.6f\n", name, nr, j);
    }
    fprintf(o, "%-24s %8d %16.6f\n", "*", smpi_w.np, total);
  }
  const char *csv = cfg_get_string("smpi/profile-file");
  if (*csv) {
    write_csv(csv);
    fprintf(o, "@ per-rank CSV: %s\n", csv);
  }
  free(order);
  free(g);
}
