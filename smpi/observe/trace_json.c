/* Chrome trace-event JSON (tracing/format:json), for Perfetto (ui.perfetto.dev) and
 * chrome://tracing.
 *
 *   {"traceEvents":[
 *   {"ph":"M","pid":0,"tid":0,"name":"thread_name","args":{"name":"rank 0 (node-0)"}},
 *   {"ph":"X","pid":0,"tid":0,"ts":12.500,"dur":3.250,"name":"MPI_Send","cat":"MPI","args":{"size":100}},
 *   {"ph":"s","pid":0,"tid":0,"ts":12.500,"id":1,"name":"message","cat":"message","args":{...}},
 *   {"ph":"f","bp":"e","pid":0,"tid":1,"ts":15.000,"id":1,"name":"message","cat":"message"},
 *   ...],"displayTimeUnit":"ns","otherData":{...}}
 *
 * One process (pid 0, the job) with one thread per rank (tid = rank), so each rank is a
 * track; times are simulated microseconds. A slice ("X") per MPI call and per computation,
 * a flow ("s" -> "f") per message from the sender's call to where it arrives: the
 * receiver's enclosing slice when it is inside a call then ("bp":"e"), else the next slice
 * it starts (the wait that collects it). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/routing.h"
#include "smpi/smpi.h"
#include "smpi/observe/trace_private.h"
#include "src/mem.h"

static struct json_state {
  FILE *f;
  char *buf;
  bool first;
} json;

static void sep(void)
{
  if (!json.first)
    fputs(",\n", json.f);
  json.first = false;
}

/* JSON string body (names are ours or host names: only quotes and backslashes to escape) */
static void put_str(const char *s)
{
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', json.f);
    if ((unsigned char)*s >= 0x20)
      fputc(*s, json.f);
  }
}

int json_open(const char *path, char *err, size_t errlen)
{
  json.f = fopen(path, "w");
  if (!json.f) {
    snprintf(err, errlen, "cannot create the trace file '%s': %s (check tracing/filename)", path,
             strerror(errno));
    return -1;
  }
  json.buf = xmalloc(1 << 16);
  setvbuf(json.f, json.buf, _IOFBF, 1 << 16);
  json.first = true;
  fputs("{\"traceEvents\":[\n", json.f);
  sep();
  fprintf(json.f,
          "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"smpi: %d "
          "rank%s on ",
          tracer.np, tracer.np == 1 ? "" : "s");
  put_str(smpi_w.platform_name ? smpi_w.platform_name : "?");
  fputs("\"}}", json.f);
  for (int r = 0; r < tracer.np; r++) {
    char host[256];
    route_host_name(smpi_w.routes, smpi_w.ranks[r].host, host, sizeof host);
    sep();
    fprintf(json.f,
            "{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":"
            "\"rank %d (",
            r, r);
    put_str(host);
    fputs(")\"}}", json.f);
    sep();
    fprintf(json.f,
            "{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_"
            "index\":%d}}",
            r, r);
  }
  return 0;
}

/* simulated seconds -> microseconds, rounded to the nanosecond: a slice's end (ts + dur)
 * is then the next one's start exactly, as in the simulation */
static double US(double t) { return round(t * 1e9) / 1e3; }

void json_slice(int rank, const char *name, const char *cat, double t0, double t1, long long size)
{
  sep();
  fprintf(json.f,
          "{\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"name\":\"%s\",\"cat\":"
          "\"%s\"",
          rank, US(t0), US(t1) - US(t0), name, cat);
  if (size >= 0)
    fprintf(json.f, ",\"args\":{\"size\":%lld}", size);
  fputc('}', json.f);
}

void json_compute(int rank, double t0, double t1, double flops)
{
  sep();
  fprintf(json.f,
          "{\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"name\":\"computation\","
          "\"cat\":\"compute\",\"args\":{\"flops\":%.17g}}",
          rank, US(t0), US(t1) - US(t0), flops);
}

void json_flow_start(int src, double t, uint64_t id, int dst, int tag, size_t bytes)
{
  sep();
  fprintf(json.f,
          "{\"ph\":\"s\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"id\":%llu,\"name\":\"message\","
          "\"cat\":\"message\",\"args\":{\"dst\":%d,\"tag\":%d,\"bytes\":%zu}}",
          src, US(t), (unsigned long long)id, dst, tag, bytes);
}

void json_flow_end(int dst, double t, uint64_t id, bool in_slice)
{
  sep();
  fprintf(json.f,
          "{\"ph\":\"f\",%s\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"id\":%llu,\"name\":\"message\","
          "\"cat\":\"message\"}",
          in_slice ? "\"bp\":\"e\"," : "", dst, US(t), (unsigned long long)id);
}

void json_close(void)
{
  fprintf(json.f,
          "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"smpi "
          "%s\",\"time_unit\":\"simulated microseconds\"}}\n",
          smpi_version_string());
  if (fclose(json.f) != 0)
    fprintf(stderr, "smpi: error while writing the trace file '%s': %s\n", tracer.filename,
            strerror(errno));
  json.f = NULL;
  free(json.buf);
}
