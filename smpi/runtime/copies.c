/* Payload copy accounting and this machine's memcpy bandwidth (see copies.h). */
#include "smpi/runtime/copies.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "smpi/runtime/world.h"

smpi_copy_stats smpi_copies;

/* 8 MiB: larger than the private caches (L2: 1-4 MiB on today's cores), smaller than the
 * shared L3, as a payload just written by its sender is. Here, copies of 1 MiB from L2 run at
 * ~35 GB/s, of 8-16 MiB at ~15 GB/s, of 64 MiB or more (DRAM) at 4-5 GB/s: a floor computed
 * at the DRAM rate would not be one (a 1 024-rank Bcast of 1 MiB, whose source buffers are
 * still in L3, copies its 4 GiB faster than that). A warm-up pass faults the pages in first
 * so that the kernel's page clearing is not charged to memcpy. */
#define BW_BYTES ((size_t)8 << 20)
#define BW_PASSES 5

static double seconds_now(void)
{
  struct timespec ts;
  smpi_host_clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double measure(void)
{
  char *src = malloc(BW_BYTES), *dst = malloc(BW_BYTES);
  if (!src || !dst) {
    free(src);
    free(dst);
    return 0;
  }
  memset(src, 1, BW_BYTES);
  memset(dst, 2, BW_BYTES);
  double best = 0;
  for (int i = 0; i < BW_PASSES; i++) {
    double t0 = seconds_now();
    memcpy(dst, src, BW_BYTES);
    /* keep the copy from being elided: the compiler cannot see who reads dst */
    __asm__ volatile("" : : "r"(dst) : "memory");
    double dt = seconds_now() - t0;
    if (dt > 0 && (best == 0 || dt < best))
      best = dt;
  }
  free(src);
  free(dst);
  return best > 0 ? (double)BW_BYTES / best : 0;
}

/* The cache: one line "HOSTNAME BYTES_PER_S" in $XDG_CACHE_HOME/smpi/memcpy-bandwidth (or
 * ~/.cache/...), so that only the first run on a machine pays the ~10 ms of measuring (and
 * its CPU time does not land in every benchmarked run). No cache directory: measured each
 * time. */
static bool cache_path(char *path, size_t len, char *dir, size_t dlen)
{
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (xdg && *xdg)
    n = snprintf(dir, dlen, "%s/smpi", xdg);
  else if (home && *home)
    n = snprintf(dir, dlen, "%s/.cache/smpi", home);
  else
    return false;
  if (n < 0 || (size_t)n >= dlen)
    return false;
  n = snprintf(path, len, "%s/memcpy-bandwidth", dir);
  return n >= 0 && (size_t)n < len;
}

double smpi_memcpy_bandwidth(double configured)
{
  static double known; /* bytes/s, 0 until measured or read */
  if (configured > 0)
    return configured;
  if (known > 0)
    return known;
  char host[256] = "", path[4096], dir[4000];
  gethostname(host, sizeof host - 1);
  bool cached = cache_path(path, sizeof path, dir, sizeof dir);
  if (cached) {
    FILE *f = fopen(path, "r");
    char name[256];
    double v;
    if (f) {
      if (fscanf(f, "%255s %lf", name, &v) == 2 && !strcmp(name, host) && v > 0)
        known = v;
      fclose(f);
    }
    if (known > 0)
      return known;
  }
  known = measure();
  if (cached && known > 0) {
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (slash) { /* ~/.cache may not exist yet */
      *slash = 0;
      mkdir(parent, 0755);
    }
    mkdir(dir, 0755);
    FILE *f = fopen(path, "w");
    if (f) {
      fprintf(f, "%s %.0f\n", host[0] ? host : "-", known);
      fclose(f);
    }
  }
  return known;
}

void smpi_copies_report(FILE *f, double configured)
{
  double bw = smpi_memcpy_bandwidth(configured);
  double floor = bw > 0 ? (double)smpi_copies.bytes / bw : 0;
  fprintf(f, "smpi: bytes copied: %llu in %llu copies (floor %.6f s at %.1f GB/s memcpy)\n",
          smpi_copies.bytes, smpi_copies.copies, floor, bw / 1e9);
}
