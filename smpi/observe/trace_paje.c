/* Paje traces as SimGrid 3.32's SMPI writes them (tracing:yes, smpirun -trace), readable by
 * pajeng (pj_dump), ViTE and smpi-gantt.
 *
 *   %EventDef PajeDefineContainerType 0 ... %EndEventDef      the 18 event definitions
 *   0 1 0 MPI                                   container type MPI under the root
 *   2 2 1 MPI_STATE                             its state type
 *   4 3 0 1 1 MPI_LINK                          links between two MPI containers
 *   6 0.000000 1 1 0 "rank-0"                   one container per rank, alias = rank + 1
 *   5 5 2 PMPI_Send "0 0 1"                     a state value (defined at first use)
 *   12 0.000010 2 1 5                           rank 0 enters MPI_Send
 *   15 0.000010 3 0 PTP 1 1_2_7_1               its message to rank 1 (key src_dst_tag_n)
 *   13 0.000012 2 1                             rank 0 leaves MPI_Send
 *   16 0.000015 3 0 PTP 2 1_2_7_1               the message arrives at rank 1
 *   7 0.000020 1 1                              rank 0 finalized
 *
 * With tracing/smpi/group, a HOST container type sits between the root and the ranks
 * (one container per host, named after it). With tracing/smpi/display-sizes, states and
 * link starts carry a Size field (elements of the call, bytes of the message; "NA" when
 * the call has none), which is why a state is written only once its size is known: the
 * hooks that know it (request start, collective) run before the call can block, and any
 * other event first writes the states still waiting, so the file stays in time order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/routing.h"
#include "smpi/smpi.h"
#include "smpi/observe/trace_private.h"
#include "src/cfg.h"
#include "src/mem.h"

#define T_MPI "1"
#define T_STATE "2"
#define T_LINK "3"
#define T_HOST "4"

static struct paje_state {
  FILE *f;
  char *buf;    /* stdio buffer */
  int *pending; /* ranks whose state waits for its size, in time order */
  size_t npending, cappending;
  /* state values: call id -> value alias (0: not defined yet); computing's own */
  int *value_of;
  size_t nvalues;
  int next_alias;
  int computing_alias;
  size_t nhosts; /* grouped: hosts used, their container aliases follow the ranks */
} paje;

static void put_time(double t) { fprintf(paje.f, " %.*f", tracer.precision, t); }
static void write_platform(void);

static void header(const char *path)
{
  static const char *const defs[] = {
      "PajeDefineContainerType 0|Alias string|Type string|Name string",
      "PajeDefineVariableType 1|Alias string|Type string|Name string|Color color",
      "PajeDefineStateType 2|Alias string|Type string|Name string",
      "PajeDefineEventType 3|Alias string|Type string|Name string",
      "PajeDefineLinkType 4|Alias string|Type string|StartContainerType string|"
      "EndContainerType string|Name string",
      "PajeDefineEntityValue 5|Alias string|Type string|Name string|Color color",
      "PajeCreateContainer 6|Time date|Alias string|Type string|Container string|Name string",
      "PajeDestroyContainer 7|Time date|Type string|Name string",
      "PajeSetVariable 8|Time date|Type string|Container string|Value double",
      "PajeAddVariable 9|Time date|Type string|Container string|Value double",
      "PajeSubVariable 10|Time date|Type string|Container string|Value double",
      "PajeSetState 11|Time date|Type string|Container string|Value string",
      "PajePushState 12|Time date|Type string|Container string|Value string",
      "PajePopState 13|Time date|Type string|Container string",
      "PajeResetState 14|Time date|Type string|Container string",
      "PajeStartLink 15|Time date|Type string|Container string|Value string|"
      "StartContainer string|Key string",
      "PajeEndLink 16|Time date|Type string|Container string|Value string|"
      "EndContainer string|Key string",
      "PajeNewEvent 17|Time date|Type string|Container string|Value string",
  };
  fprintf(paje.f, "#This file was generated using smpi %s\n", smpi_version_string());
  const char *comment = cfg_get_string("tracing/comment");
  if (*comment)
    fprintf(paje.f, "#%s\n", comment);
  const char *cfile = cfg_get_string("tracing/comment-file");
  if (*cfile) {
    FILE *c = fopen(cfile, "r");
    if (c) {
      char line[4096];
      while (fgets(line, sizeof line, c))
        fprintf(paje.f, "#%s%s", line, strchr(line, '\n') ? "" : "\n");
      fclose(c);
    } else {
      fprintf(stderr, "smpi: cannot read tracing/comment-file '%s': %s (ignored)\n", cfile,
              strerror(errno));
    }
  }
  (void)path;
  for (size_t i = 0; i < sizeof defs / sizeof *defs; i++) {
    const char *d = defs[i];
    size_t len = strcspn(d, "|");
    fprintf(paje.f, "%%EventDef %.*s\n", (int)len, d);
    d += len;
    while (*d == '|') {
      d++;
      len = strcspn(d, "|");
      fprintf(paje.f, "%%       %.*s\n", (int)len, d);
      d += len;
    }
    /* the Size fields of display-sizes */
    if (tracer.sizes &&
        (!strncmp(defs[i], "PajePushState", 13) || !strncmp(defs[i], "PajeStartLink", 13)))
      fprintf(paje.f, "%%       Size int\n");
    fprintf(paje.f, "%%EndEventDef\n");
  }
}

int paje_open(const char *path, char *err, size_t errlen)
{
  paje.f = fopen(path, "w");
  if (!paje.f) {
    snprintf(err, errlen, "cannot create the trace file '%s': %s (check tracing/filename)", path,
             strerror(errno));
    return -1;
  }
  paje.buf = xmalloc(1 << 16);
  setvbuf(paje.f, paje.buf, _IOFBF, 1 << 16);
  header(path);
  paje.next_alias = 5;
  if (tracer.group) {
    fprintf(paje.f, "0 " T_HOST " 0 HOST\n0 " T_MPI " " T_HOST " MPI\n");
  } else {
    fprintf(paje.f, "0 " T_MPI " 0 MPI\n");
  }
  fprintf(paje.f,
          "2 " T_STATE " " T_MPI " MPI_STATE\n4 " T_LINK " 0 " T_MPI " " T_MPI " MPI_LINK\n");
  if (tracer.platform)
    write_platform();
  /* host containers (grouped), in the order of their first rank */
  long *host_alias = NULL;
  size_t nroutes = route_host_count(smpi_w.routes);
  if (tracer.group && !tracer.platform) {
    host_alias = xmalloc(nroutes * sizeof *host_alias);
    for (size_t h = 0; h < nroutes; h++)
      host_alias[h] = -1;
    for (int r = 0; r < tracer.np; r++) {
      size_t h = smpi_w.ranks[r].host;
      if (host_alias[h] >= 0)
        continue;
      host_alias[h] = tracer.np + 1 + (long)paje.nhosts++;
      char name[256];
      route_host_name(smpi_w.routes, h, name, sizeof name);
      fprintf(paje.f, "6");
      put_time(0);
      fprintf(paje.f, " %ld " T_HOST " 0 \"%s\"\n", host_alias[h], name);
    }
  }
  for (int r = 0; r < tracer.np; r++) {
    fprintf(paje.f, "6");
    put_time(0);
    if (tracer.group && tracer.platform)
      fprintf(paje.f, " %d " T_MPI " h%zu \"rank-%d\"\n", r + 1, smpi_w.ranks[r].host, r);
    else if (tracer.group)
      fprintf(paje.f, " %d " T_MPI " %ld \"rank-%d\"\n", r + 1, host_alias[smpi_w.ranks[r].host],
              r);
    else
      fprintf(paje.f, " %d " T_MPI " 0 \"rank-%d\"\n", r + 1, r);
  }
  free(host_alias);
  return 0;
}

/* ---- the platform (trace_platform.c): types, containers and their fixed variables ---- */

static void write_platform(void)
{
  const route_table *rt = smpi_w.routes;
  if (!tracer.group)
    fprintf(paje.f, "0 " T_HOST " 0 HOST\n");
  fprintf(paje.f, "1 hs " T_HOST " speed \"1 1 1\"\n1 hc " T_HOST " core_count \"1 1 1\"\n");
  if (tracer.uncategorized)
    fprintf(paje.f, "1 hu " T_HOST " speed_used \"0.5 0.5 0.5\"\n");
  fprintf(paje.f, "0 L 0 LINK\n1 lb L bandwidth \"1 1 1\"\n1 ll L latency \"1 1 1\"\n");
  if (tracer.uncategorized)
    fprintf(paje.f, "1 lu L bandwidth_used \"0.5 0.5 0.5\"\n");
  char name[256];
  size_t nhosts = route_host_count(rt), nlinks = route_link_count(rt);
  for (size_t h = 0; h < nhosts; h++) {
    route_host_name(rt, h, name, sizeof name);
    fprintf(paje.f, "6");
    put_time(0);
    fprintf(paje.f, " h%zu " T_HOST " 0 \"%s\"\n", h, name);
  }
  for (size_t l = 0; l < nlinks; l++) {
    route_link_name(rt, (uint32_t)l, name, sizeof name);
    if (trace_link_hidden(name))
      continue;
    fprintf(paje.f, "6");
    put_time(0);
    fprintf(paje.f, " l%zu L 0 \"%s\"\n", l, name);
  }
  for (size_t h = 0; h < nhosts; h++) {
    fprintf(paje.f, "8");
    put_time(0);
    fprintf(paje.f, " hs h%zu %.*f\n8", h, tracer.precision, cpu_host_speed(h));
    put_time(0);
    fprintf(paje.f, " hc h%zu %.*f\n", h, tracer.precision, (double)cpu_host_cores(h));
  }
  for (size_t l = 0; l < nlinks; l++) {
    route_link_name(rt, (uint32_t)l, name, sizeof name);
    if (trace_link_hidden(name))
      continue;
    double bw, lat;
    lmm_sharing sharing;
    route_link_info(rt, (uint32_t)l, &bw, &lat, &sharing);
    fprintf(paje.f, "8");
    put_time(0);
    fprintf(paje.f, " lb l%zu %.*f\n8", l, tracer.precision, bw);
    put_time(0);
    fprintf(paje.f, " ll l%zu %.*f\n", l, tracer.precision, lat);
  }
}

void paje_category(uint16_t id, const char *name, const char *color)
{
  paje_flush_pending();
  fprintf(paje.f, "1 p%u " T_HOST " p%s \"%s\"\n1 b%u L b%s \"%s\"\n", (unsigned)id, name, color,
          (unsigned)id, name, color);
}

void paje_resource_use(bool host, size_t i, uint16_t slot, bool first, double rate, double t0,
                       double t1)
{
  paje_flush_pending();
  char var[16];
  if (slot)
    snprintf(var, sizeof var, "%c%u", host ? 'p' : 'b', (unsigned)slot);
  else
    snprintf(var, sizeof var, "%s", host ? "hu" : "lu");
  char c = host ? 'h' : 'l';
  if (first) {
    fprintf(paje.f, "8");
    put_time(t0);
    fprintf(paje.f, " %s %c%zu %.*f\n", var, c, i, tracer.precision, 0.0);
  }
  fprintf(paje.f, "9");
  put_time(t0);
  fprintf(paje.f, " %s %c%zu %.*f\n10", var, c, i, tracer.precision, rate);
  put_time(t1);
  fprintf(paje.f, " %s %c%zu %.*f\n", var, c, i, tracer.precision, rate);
}

/* A colour per call, stable across runs: families of calls get related hues. */
static void color_of(const char *name, char *out, size_t len)
{
  static const struct {
    const char *prefix;
    const char *rgb;
  } fixed[] = {
      {"computing", "0 1 1"},          {"MPI_Init", "0 1 0"},
      {"MPI_Finalize", "0 1 0"},       {"MPI_Send", "0 0 1"},
      {"MPI_Isend", "0.5 0.5 1"},      {"MPI_Recv", "1 0 0"},
      {"MPI_Irecv", "1 0.5 0.5"},      {"MPI_Wait", "1 1 0"},
      {"MPI_Test", "0.8 0.8 0.2"},     {"MPI_Barrier", "0.5 0 0.5"},
      {"MPI_Bcast", "0 0.5 0.5"},      {"MPI_Reduce", "0 0.5 0"},
      {"MPI_Allreduce", "0.5 0.5 0"},  {"MPI_Alltoall", "0.5 0.25 0"},
      {"MPI_Sendrecv", "0.3 0.3 0.8"},
  };
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (!strcmp(name, fixed[i].prefix)) {
      snprintf(out, len, "%s", fixed[i].rgb);
      return;
    }
  unsigned h = 2166136261u;
  for (const char *p = name; *p; p++)
    h = (h ^ (unsigned char)*p) * 16777619u;
  snprintf(out, len, "%.2f %.2f %.2f", (h & 255) / 255.0, ((h >> 8) & 255) / 255.0,
           ((h >> 16) & 255) / 255.0);
}

static int define_value(const char *name, const char *shown)
{
  char rgb[64];
  color_of(name, rgb, sizeof rgb);
  int alias = paje.next_alias++;
  fprintf(paje.f, "5 %d " T_STATE " %s \"%s\"\n", alias, shown, rgb);
  return alias;
}

static int call_value(const char *call)
{
  int id = trace_call_id(call);
  if ((size_t)id >= paje.nvalues) {
    size_t n = paje.nvalues;
    XGROW(paje.value_of, paje.nvalues, (size_t)id + 1);
    memset(paje.value_of + n, 0, (paje.nvalues - n) * sizeof *paje.value_of);
  }
  if (!paje.value_of[id]) {
    /* SimGrid names the states after the PMPI functions */
    char shown[128];
    snprintf(shown, sizeof shown, "P%s", call);
    paje.value_of[id] = define_value(call, shown);
  }
  return paje.value_of[id];
}

static void write_push(int rank)
{
  trace_rank *t = &tracer.ranks[rank];
  int v = call_value(t->call);
  fprintf(paje.f, "12");
  put_time(t->t0);
  fprintf(paje.f, " " T_STATE " %d %d", rank + 1, v);
  if (tracer.sizes) {
    if (t->size >= 0)
      fprintf(paje.f, " %lld", t->size);
    else
      fprintf(paje.f, " NA");
  }
  fputc('\n', paje.f);
  t->push_pending = false;
}

void paje_flush_pending(void)
{
  for (size_t i = 0; i < paje.npending; i++)
    if (tracer.ranks[paje.pending[i]].push_pending)
      write_push(paje.pending[i]);
  paje.npending = 0;
}

#define FLUSH()             \
  do {                      \
    if (paje.npending)      \
      paje_flush_pending(); \
  } while (0)

void paje_call_begin(int rank, double t)
{
  (void)t;
  FLUSH();
  if (!tracer.sizes) {
    write_push(rank);
    return;
  }
  tracer.ranks[rank].push_pending = true;
  XGROW(paje.pending, paje.cappending, paje.npending + 1);
  paje.pending[paje.npending++] = rank;
}

void paje_call_size(int rank)
{
  if (tracer.ranks[rank].push_pending)
    paje_flush_pending();
}

void paje_call_end(int rank, double t)
{
  FLUSH();
  fprintf(paje.f, "13");
  put_time(t);
  fprintf(paje.f, " " T_STATE " %d\n", rank + 1);
}

void paje_compute_begin(int rank, double t, double flops)
{
  FLUSH();
  if (!paje.computing_alias)
    paje.computing_alias = define_value("computing", "computing");
  fprintf(paje.f, "12");
  put_time(t);
  fprintf(paje.f, " " T_STATE " %d %d", rank + 1, paje.computing_alias);
  if (tracer.sizes)
    fprintf(paje.f, " %f", flops);
  fputc('\n', paje.f);
}

void paje_compute_end(int rank, double t)
{
  FLUSH();
  fprintf(paje.f, "13");
  put_time(t);
  fprintf(paje.f, " " T_STATE " %d\n", rank + 1);
}

void paje_link_start(int src, double t, uint64_t key, int tag, int dst, size_t bytes)
{
  FLUSH();
  fprintf(paje.f, "15");
  put_time(t);
  fprintf(paje.f, " " T_LINK " 0 PTP %d %d_%d_%d_%llu", src + 1, src + 1, dst + 1, tag,
          (unsigned long long)key);
  if (tracer.sizes)
    fprintf(paje.f, " %zu", bytes);
  fputc('\n', paje.f);
}

void paje_link_end(int src, int dst, double t, uint64_t key, int tag)
{
  FLUSH();
  fprintf(paje.f, "16");
  put_time(t);
  fprintf(paje.f, " " T_LINK " 0 PTP %d %d_%d_%d_%llu\n", dst + 1, src + 1, dst + 1, tag,
          (unsigned long long)key);
}

void paje_rank_end(int rank, double t)
{
  FLUSH();
  fprintf(paje.f, "7");
  put_time(t);
  fprintf(paje.f, " " T_MPI " %d\n", rank + 1);
}

void paje_close(double t)
{
  FLUSH();
  for (size_t i = 0; i < paje.nhosts; i++) {
    fprintf(paje.f, "7");
    put_time(t);
    fprintf(paje.f, " " T_HOST " %zu\n", (size_t)tracer.np + 1 + i);
  }
  if (tracer.platform) {
    size_t nhosts = route_host_count(smpi_w.routes), nlinks = route_link_count(smpi_w.routes);
    for (size_t h = 0; h < nhosts; h++) {
      fprintf(paje.f, "7");
      put_time(t);
      fprintf(paje.f, " " T_HOST " h%zu\n", h);
    }
    char name[256];
    for (size_t l = 0; l < nlinks; l++) {
      route_link_name(smpi_w.routes, (uint32_t)l, name, sizeof name);
      if (trace_link_hidden(name))
        continue;
      fprintf(paje.f, "7");
      put_time(t);
      fprintf(paje.f, " L l%zu\n", l);
    }
  }
  if (fclose(paje.f) != 0)
    fprintf(stderr, "smpi: error while writing the trace file '%s': %s\n", tracer.filename,
            strerror(errno));
  paje.f = NULL;
  free(paje.buf);
  free(paje.pending);
  free(paje.value_of);
}
