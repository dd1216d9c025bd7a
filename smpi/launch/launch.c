/* Launch: options, world set-up, rank actors, job end. The top of the MPI layer: the
 * only place that initialises every module, in this order (docs/architecture.md).
 *
 *   program's main  ->  __wrap_main (libsmpi_main.a)  ->  smpi_main(argc, argv, real_main)
 *        read SMPI_LAUNCH (or simulate 1 rank on the built-in platform)
 *        --cfg / --log, platform, routing, engine, CPU and network models
 *        place ranks on hosts (hostfile round-robin, or the platform's hosts in order)
 *        one actor per rank runs real_main(argc, argv)
 *        eng_run(); report deadlock / timing; exit code of the job
 */
#include "smpi/launch/launch.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "kernel/context.h"
#include "kernel/cpu.h"
#include "kernel/disk.h"
#include "kernel/energy.h"
#include "kernel/network.h"
#include "kernel/profiles.h"
#include "collectives/coll.h"
#include "smpi/bindings/call.h"
#include "smpi/io/file.h"
#include "smpi/mpi/check.h"
#include "smpi/mpi/comm.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/handle.h"
#include "smpi/runtime/copies.h"
#include "smpi/runtime/hostfile.h"
#include "smpi/launch/launch.h"
#include "smpi/mpi/op.h"
#include "smpi/mpi/p2p.h"
#include "smpi/emulation/auto_malloc.h"
#include "smpi/emulation/ctors.h"
#include "smpi/emulation/libc.h"
#include "smpi/emulation/privatize.h"
#include "smpi/runtime/progress.h"
#include "smpi/emulation/sample.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/observe/trace.h"
#include "smpi/rma/win.h"
#include "smpi/smpi.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/platform.h"
#include "src/platform_set.h"
#include "src/sigsafe.h"
#include "src/units.h"
#include "smpi/emulation/burst.h"
#include "smpi/runtime/world.h"

LOG_EXTERNAL_CATEGORY(smpi_runtime);
LOG_DEFAULT_CATEGORY(smpi_runtime);

static struct launch_state {
  plat_platform *platform;
  route_table *routes;
  smpi_main_fn real_main;
  int argc;
  char **argv;
  bool running;      /* inside eng_run */
  char ***rank_argv; /* each rank's argv copy: reachable to the end, as a process's argv is */
  char *hostfile;    /* the hostfile's path, kept like smpi_w.platform_name (messages) */
  int abort_code;    /* set by smpi_abort_job */
} launch;

/* The engine's switch hook: the actor about to run becomes smpi_self(), and its rank's
 * globals and errno come into place. A rank's actor carries its smpi_rank; another actor
 * (a nonblocking collective's helper) carries its owner's, and runs with the owner's
 * globals; an actor with other data counts as the maestro for privatization. */
static void on_switch(eng_actor *to)
{
  smpi_rank *r = to ? eng_actor_data(to) : NULL;
  uintptr_t lo = (uintptr_t)smpi_w.ranks, hi = lo + (size_t)smpi_w.np * sizeof *smpi_w.ranks;
  bool is_rank = r && (uintptr_t)r >= lo && (uintptr_t)r < hi;
  smpi_rank *from = smpi_running;
  bool from_rank = from && (uintptr_t)from >= lo && (uintptr_t)from < hi;
  if (__builtin_expect((from_rank && from->sampling) || (is_rank && r->sampling), 0))
    smpi_sample_switch(from_rank ? from : NULL, is_rank ? r : NULL);
  smpi_running = r;
  smpi_privatize_switch_to(is_rank ? r->rank : -1);
}

/* The keys launch.c reads itself. */
static const cfg_key launch_keys[] = {
    CFG_KEY_BOOL(
        "smpi/display-timing", false,
        "Print the simulated time and the wall-clock time of the run at the end (stderr)"),
    CFG_KEY_DOUBLE("smpi/memcpy-bandwidth", 0,
                   "memcpy bandwidth of this machine (GB/s) for the floors that "
                   "smpi/display-timing prints, whatever the working set; 0: measured on the "
                   "first run and cached in ~/.cache/smpi/memcpy-bandwidth (cache-hot) and "
                   "memcpy-rates (against the working set)"),
    CFG_KEY_DOUBLE("smpi/reduce-bandwidth", 0,
                   "rate (GB/s) of predefined reductions for the payload floor that "
                   "smpi/display-timing prints; 0: measured (a sum of doubles) with the "
                   "run's working set and cached in ~/.cache/smpi/memcpy-rates"),
    CFG_KEY_BOOL("smpi/huge-heap", false,
                 "smpirun gives the program a heap in huge pages (GLIBC_TUNABLES "
                 "glibc.malloc.hugetlb=1): one page fault per 2 MiB of its buffers rather than "
                 "per 4 KiB; read by smpirun, so only its command line can set it"),
    CFG_KEY_DOUBLE("smpi/first-touch-cost", 0,
                   "cost (us) of the first touch of a page of the program's memory by a "
                   "received payload, for the payload floor that smpi/display-timing prints; "
                   "0: measured on the first run and cached in ~/.cache/smpi/first-touch"),
    CFG_KEY_BOOL("smpi/simulate-computation", true,
                 "Inject the CPU time ranks spend between MPI calls as simulated computation"),
    CFG_KEY_STRING("smpi/host-speed", "20000f", NULL,
                   "Speed of the machine running the simulation (flop/s, with unit): measured "
                   "CPU seconds x host-speed = injected flops"),
    CFG_KEY_DOUBLE("smpi/cpu-threshold", 1e-6,
                   "CPU bursts shorter than this (seconds) are not injected; -1: none is"),
    CFG_KEY_BOOL("smpi/cpu-all-threads", false,
                 "A CPU burst counts the CPU time of every thread of the process (the threads "
                 "a rank started: OpenMP regions), not only the rank's own; the CPU clock is "
                 "then read at both ends of every burst"),
    CFG_KEY_UINT("smpi/list-leaks", 0,
                 "At the end of the run, count the MPI handles the program never freed, by "
                 "kind, and list up to this many of each (0: off)"),
    CFG_KEY_UINT("smpi/np", 0, "Number of MPI processes (set by smpirun -np)"),
    CFG_KEY_STRING("smpi/hostfile", "", NULL,
                   "Hostfile used to place the processes (smpirun -hostfile)"),
    CFG_KEY_BOOL("smpi/map", false, "Print the rank -> host mapping at start-up (smpirun -map)"),
    CFG_KEY_BOOL("smpi/oversubscribe", false,
                 "Allow more processes than the hostfile's slots: the ranks then go "
                 "round-robin, several per slot (without a hostfile they always do, with a "
                 "note, as in SimGrid)"),
};

static void launch_declare_config(void) { cfg_declare_keys(launch_keys, CFG_NKEYS(launch_keys)); }

/* The registry: every module that has keys, each declaring its own table (src/cfg.h), before
 * --cfg and the platform's <config> are read. Kernel first, then the MPI layer bottom up. A
 * module missing here would see its --cfg settings refused as unknown keys (and its keys
 * missing from --cfg=help: the cfg_help test). */
static void (*const smpi_config_modules[])(void) = {
    eng_declare_config, /* with contexts/ (ctx_declare_config) */
    route_declare_config,
    cpu_declare_config,
    net_declare_config,
    energy_declare_config,
    launch_declare_config,
    smpi_progress_declare_config, /* runtime/ */
    smpi_shared_declare_config,   /* emulation/ */
    smpi_privatize_declare_config,
    smpi_sample_declare_config,
    smpi_libc_declare_config,
    smpi_p2p_declare_config, /* mpi/ */
    smpi_errhandler_declare_config,
    smpi_check_declare_config,
    smpi_trace_declare_config, /* observe/ */
    coll_declare_config,       /* collectives/ */
    smpi_rma_declare_config,   /* rma/: alltoall pair_rma for the collectives */
    smpi_io_declare_config,    /* io/ */
    smpi_env_declare_config,   /* bindings/ */
};

static void smpi_declare_config(void)
{
  for (size_t i = 0; i < sizeof smpi_config_modules / sizeof smpi_config_modules[0]; i++)
    smpi_config_modules[i]();
}

/* The crashing rank's world rank, or -1: smpi_running is trusted only if it points at an
 * element of smpi_w.ranks (a rank that wrote over memory may have hit either). */
static int crash_rank(void)
{
  const smpi_rank *me = smpi_self();
  uintptr_t p = (uintptr_t)me, lo = (uintptr_t)smpi_w.ranks;
  if (!me || !lo || smpi_w.np <= 0 || p < lo ||
      p >= lo + (size_t)smpi_w.np * sizeof *smpi_w.ranks || (p - lo) % sizeof *smpi_w.ranks)
    return -1;
  return (int)((p - lo) / sizeof *smpi_w.ranks);
}

/* Host h's name, checked against the platform before each step (no ASSERT may fire here). */
static void crash_host_name(sig_buf *b, size_t h)
{
  const plat_platform *p = launch.platform;
  if (!p || h >= plat_host_count(p)) {
    sig_str(b, "?");
    return;
  }
  plat_point pt = plat_host_at(p, h);
  if (pt.kind == PLAT_POINT_HOST && pt.u.host) {
    sig_strn(b, pt.u.host->id, 128);
  } else if (pt.kind == PLAT_POINT_CLUSTER_HOST && pt.u.zone && pt.u.zone->cluster &&
             pt.rank < pt.u.zone->cluster->count) {
    const plat_cluster *cl = pt.u.zone->cluster;
    sig_strn(b, cl->prefix, 64);
    sig_num(b, plat_cluster_number(cl, pt.rank));
    sig_strn(b, cl->suffix, 64);
  } else {
    sig_str(b, "?");
  }
}

typedef struct crash_part {
  sig_buf b;
  int rank;         /* crash_host_part: the rank whose host to name */
  const void *addr; /* crash_copy_part: the fault's address */
  bool copying;     /* crash_copy_part: a message copy was in progress */
} crash_part;

static void crash_host_part(void *arg)
{
  crash_part *p = arg;
  crash_host_name(&p->b, smpi_w.ranks[p->rank].host);
}

static void crash_copy_part(void *arg)
{
  crash_part *p = arg;
  p->copying = smpi_check_describe_copy(&p->b, p->addr);
}

/* The kernel's crash hook, in a signal handler: async-signal-safe (sigsafe.h formatting, one
 * write(2)), and careful with state the crash may have corrupted (a rank that wrote over the
 * heap): what it knows without reading the heap (the signal, the rank from smpi_running's
 * place in smpi_w.ranks, the clock) always gets printed; the parts read from the heap (the
 * host's name, the message being copied) go through ctx_crash_probe, and are left out if
 * reading them faults. */
static void crash_hook(ctx *c, int sig, const void *addr, void *data)
{
  (void)c;
  (void)data;
  const char *what = sig == SIGSEGV   ? "SIGSEGV (invalid memory access)"
                     : sig == SIGBUS  ? "SIGBUS (bus error)"
                     : sig == SIGFPE  ? "SIGFPE (arithmetic error)"
                     : sig == SIGILL  ? "SIGILL (illegal instruction)"
                     : sig == SIGABRT ? "SIGABRT (abort)"
                                      : "a fatal signal";
  char line[2048], part[1536];
  sig_buf b = SIG_BUF(line);
  crash_part p = {.b = SIG_BUF(part), .addr = addr};
  /* a message copy runs in the maestro or in another rank: name the message instead */
  if ((sig == SIGSEGV || sig == SIGBUS) && ctx_crash_probe(crash_copy_part, &p) && p.copying) {
    sig_str(&b, "smpi: ");
    sig_str(&b, what);
    sig_str(&b, " ");
    for (size_t i = 0; i < p.b.len && b.len < b.cap; i++)
      b.buf[b.len++] = p.b.buf[i];
    sig_str(&b, " The simulation stops.");
    sig_flush_line(&b, STDERR_FILENO);
    return;
  }
  int rank = crash_rank();
  sig_str(&b, "smpi: ");
  if (rank >= 0) {
    sig_str(&b, "rank ");
    sig_num(&b, rank);
    p.b.len = 0;
    p.rank = rank;
    if (ctx_crash_probe(crash_host_part, &p)) {
      sig_str(&b, " (on host ");
      for (size_t i = 0; i < p.b.len && b.len < b.cap; i++)
        b.buf[b.len++] = p.b.buf[i];
      sig_str(&b, ")");
    }
    sig_str(&b, " crashed with ");
    sig_str(&b, what);
    sig_str(&b, " at simulated time ");
    sig_fixed(&b, eng_now(), 9);
    sig_str(&b, " s; the simulation stops");
  } else {
    sig_str(&b, "the simulator itself crashed with ");
    sig_str(&b, what);
    if (launch.running)
      sig_str(&b, " while running the simulation");
  }
  sig_flush_line(&b, STDERR_FILENO);
}

/* ---- launch options ---- */

typedef struct launch_opts {
  long np;
  char *platform;
  char *hostfile;
  bool map;
  bool huge_heap_given; /* smpirun gave the program a huge-page heap (smpi/huge-heap) */
  bool help_cfg;
  bool help_coll; /* smpirun -help-coll */
  bool from_smpirun;
  plat_set *sets; /* --platform-set overrides, in command-line order */
  size_t nsets, capsets;
  char *bandwidth, *latency; /* of the built-in platform's links (-bandwidth, -latency) */
} launch_opts;

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("smpirun: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

/* ---- what a run of np ranks needs, checked before anything is built for them ----
 *
 * Measured (nice, Linux 6.18, 2 vCPU; maximum RSS of smpirun by /usr/bin/time), with a
 * program that only calls MPI_Init, MPI_Barrier, MPI_Finalize:
 *
 *   ranks     platform file, privatization no / yes     built-in platform
 *   10 000     71 520 KiB /  71 864 KiB                   79 692 KiB
 *   100 000   657 464 KiB / 660 244 KiB                  735 288 KiB
 *
 * so a rank costs 6.51 KiB of committed memory (its rank, actor and context structures and
 * the stack pages it touches: the stack size itself, 64 KiB or 8 MiB, changes nothing: 659
 * 996 / 659 916 KiB at 100 000 ranks), the built-in platform 0.84 KiB more per host, and
 * privatized globals the size of the program's writable data per rank. That is a floor: the
 * README's demo (an 8 KiB token on each stack) takes 14.4 KiB a rank (151 576 and 1 448 204
 * KiB). Stacks are reserved address space only (MAP_NORESERVE): they count against
 * `ulimit -v` and the 128 TiB of a process's address space, not against memory.
 *
 * A run whose floor exceeds MemAvailable would grow for minutes before the kernel kills it
 * (-np 10000000 reached many GiB building the built-in platform alone): it is refused with
 * the estimate; one whose floor exceeds half of it starts with a warning. */
#define RANK_COMMITTED_BYTES 6666.0           /* 6.51 KiB, measured above */
#define BUILTIN_HOST_BYTES 860.0              /* 0.84 KiB, measured above */
#define ADDRESS_SPACE_BYTES 140737488355328.0 /* 2^47: x86-64 user space */

/* MemAvailable of /proc/meminfo in bytes, or -1 if it cannot be read. */
static double mem_available(void)
{
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f)
    return -1;
  char line[256];
  double kib = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lf kB", &kib) == 1)
      break;
  fclose(f);
  return kib >= 0 ? kib * 1024 : -1;
}

/* Bytes of the program's globals each rank's copy commits (0 when nothing is privatized):
 * with copies (up to smpi/privatization-copy-max) every private byte; with remapping only
 * the pages that are not zero at start (a rank's bss pages cost nothing until it writes
 * them; smpi/emulation/privatize.c). */
static double privatized_bytes(long np)
{
  const char *mode = cfg_get_string("smpi/privatization");
  if (np <= 1 || !strcmp(mode, "no"))
    return 0;
  smpi_priv_layout l;
  char err[256];
  if (smpi_privatize_discover(&l, err, sizeof err) != 0)
    return 0; /* smpi_privatize_init reports it */
  double bytes = 0;
  if (l.simulator_inside)
    l.ndata = l.nholes = l.tls.len = 0;
  for (size_t i = 0; i < l.ndata; i++)
    bytes += (double)l.data[i].len;
  for (size_t i = 0; i < l.nholes; i++)
    bytes -= (double)l.holes[i].len;
  bytes += (double)l.tls.len;
  long copy_max = cfg_get_int("smpi/privatization-copy-max");
  if (!strcmp(mode, "copy") || (strcmp(mode, "mmap") && bytes <= (double)copy_max)) {
    smpi_privatize_layout_free(&l);
    return bytes;
  }
  /* remapped: the pages holding a non-zero byte now, before the program ran */
  double nonzero = 0;
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t pg = page > 0 ? (uintptr_t)page : 4096;
  for (size_t i = 0; i < l.ndata; i++) {
    uintptr_t lo = l.data[i].addr, hi = lo + l.data[i].len;
    for (uintptr_t q = lo / pg * pg; q < hi; q += pg) {
      if (!smpi_privatize_all_zero((const void *)(q < lo ? lo : q),
                                   (const void *)(q + pg < hi ? q + pg : hi)))
        nonzero += (double)pg;
    }
  }
  smpi_privatize_layout_free(&l);
  return nonzero;
}

static const char *human(double bytes, char *buf, size_t len)
{
  static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (bytes >= 1024 && u < 5)
    bytes /= 1024, u++;
  snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
  return buf;
}

/* Refuses (returns 1, after saying why and what to change) a run of np ranks that cannot fit
 * in the machine's available memory or in the address space, warns when it is close. */
static int check_memory(long np, bool builtin_platform)
{
  double priv = privatized_bytes(np);
  double host = builtin_platform ? BUILTIN_HOST_BYTES : 0;
  double per_rank = RANK_COMMITTED_BYTES + host + priv;
  double need = per_rank * (double)np;
  long page = sysconf(_SC_PAGESIZE);
  double pg = page > 0 ? (double)page : 4096;
  /* a stack slot: the stack, its 64 KiB guard and a page (kernel/context.c) */
  double slot = (double)cfg_get_int("contexts/stack-size") * 1024 + 65536 + pg;
  double reserve = slot * (double)np;
  char a[32], b[32], c[32], d[32], e[32];

  struct rlimit rl;
  double as_limit = ADDRESS_SPACE_BYTES;
  const char *as_what = "the 128 TiB address space of a process";
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      (double)rl.rlim_cur < as_limit) {
    as_limit = (double)rl.rlim_cur;
    as_what = "the address-space limit (ulimit -v)";
  }
  if (reserve > as_limit)
    return fail("-np %ld reserves %s of address space for the ranks' stacks (%s each: "
                "contexts/stack-size %ld KiB and its guard), more than %s, %s; run fewer ranks "
                "or lower --cfg=contexts/stack-size",
                np, human(reserve, a, sizeof a), human(slot, b, sizeof b),
                cfg_get_int("contexts/stack-size"), as_what, human(as_limit, c, sizeof c));

  double avail = mem_available();
  if (avail < 0)
    return 0;
  snprintf(e, sizeof e, "%.1f KiB", per_rank / 1024);
  char detail[256];
  snprintf(detail, sizeof detail,
           "%s per rank: %.1f KiB of rank structures and stack pages%s%s%s%s", e,
           RANK_COMMITTED_BYTES / 1024, host > 0 ? ", " : "",
           host > 0 ? "0.8 KiB for its host of the built-in platform" : "",
           priv > 0 ? ", privatized globals " : "", priv > 0 ? human(priv, d, sizeof d) : "");
  if (need > avail)
    return fail("-np %ld needs at least %s of memory (%s), but %s is available (MemAvailable "
                "in /proc/meminfo); run fewer ranks%s%s",
                np, human(need, a, sizeof a), detail, human(avail, b, sizeof b),
                priv > 0 ? ", or pass --cfg=smpi/privatization:no if the program's globals "
                           "may be shared by its ranks"
                         : "",
                host > 0 ? ", or give a platform (-platform) with hosts to share "
                           "(--cfg=smpi/oversubscribe:yes)"
                         : "");
  if (need > avail / 2)
    LOG_WARN("-np %ld needs at least %s of memory (%s, more if the program uses more stack), "
             "and %s is available (MemAvailable in /proc/meminfo): the run may run out of memory",
             np, human(need, a, sizeof a), detail, human(avail, b, sizeof b));
  return 0;
}

static int parse_launch(launch_opts *o)
{
  char err[1024];
  const char *env = getenv(SMPI_LAUNCH_ENV);
  memset(o, 0, sizeof *o);
  o->np = -1;
  if (!env)
    return 0;
  o->from_smpirun = true;
  char *copy = xstrdup(env);
  char *save = NULL;
  char sep[2] = {SMPI_LAUNCH_SEP, 0};
  int rc = 0;
  /* settings from the command line are applied in order, --log first so that config
   * changes can be logged */
  for (char *f = strtok_r(copy, sep, &save); f && rc == 0; f = strtok_r(NULL, sep, &save)) {
    char *eq = strchr(f, '=');
    if (!eq) {
      rc = fail("malformed launch options (is this program's smpirun of the same version?)");
      break;
    }
    *eq = 0;
    const char *k = f, *v = eq + 1;
    if (!strcmp(k, "np")) {
      o->np = strtol(v, NULL, 10);
    } else if (!strcmp(k, "platform")) {
      o->platform = xstrdup(v);
    } else if (!strcmp(k, "hostfile")) {
      o->hostfile = xstrdup(v);
    } else if (!strcmp(k, "platform-set")) {
      XGROW(o->sets, o->capsets, o->nsets + 1);
      if (plat_set_parse(v, &o->sets[o->nsets], err, sizeof err) != 0)
        rc = fail("%s", err);
      else
        o->nsets++;
    } else if (!strcmp(k, "map")) {
      o->map = true;
    } else if (!strcmp(k, "huge-heap")) {
      o->huge_heap_given = true;
    } else if (!strcmp(k, "bandwidth")) {
      o->bandwidth = xstrdup(v);
    } else if (!strcmp(k, "latency")) {
      o->latency = xstrdup(v);
    } else if (!strcmp(k, "help")) {
      if (!strcmp(v, "coll"))
        o->help_coll = true;
      else
        o->help_cfg = true;
    } else if (!strcmp(k, "cfg")) {
      if (cfg_parse(v, CFG_ORIGIN_CMDLINE, err, sizeof err) != 0)
        rc = fail("--cfg=%s: %s", v, err);
    } else if (!strcmp(k, "log")) {
      if (log_parse_setting(v, err, sizeof err) != 0)
        rc = fail("--log=%s: %s", v, err);
    } else if (!strcmp(k, "version")) {
      if (strcmp(v, SMPI_LAUNCH_VERSION))
        rc = fail("this program was built for another version of smpi's launcher; rebuild it");
    } else {
      rc = fail("unknown launch option '%s' (is this program's smpirun of the same version?)", k);
    }
  }
  free(copy);
  return rc;
}

/* Hostfile (format and parser in smpi/runtime/hostfile.c): fills *hosts with host indexes, each
 * repeated as many times as its slots. */
static int read_hostfile(const char *path, size_t **hosts, size_t *count)
{
  char err[512];
  smpi_hostfile hf;
  *hosts = NULL;
  *count = 0;
  if (smpi_hostfile_read(path, &hf, err, sizeof err) != 0)
    return fail("%s", err);
  int rc = 0;
  *hosts = xmalloc((size_t)hf.total_slots * sizeof **hosts);
  for (size_t i = 0; i < hf.count && rc == 0; i++) {
    const smpi_hostfile_entry *en = &hf.entries[i];
    long h = route_host_by_name(smpi_w.routes, en->name);
    if (h < 0) {
      rc = fail("%s:%d: host '%s' is not in the platform %s", path, en->line, en->name,
                smpi_w.platform_name);
      break;
    }
    for (long k = 0; k < en->slots; k++)
      (*hosts)[(*count)++] = (size_t)h;
  }
  smpi_hostfile_free(&hf);
  if (rc) {
    free(*hosts);
    *hosts = NULL;
    *count = 0;
  }
  return rc;
}

/* ---- leaked handles (smpi/list-leaks) ---- */

struct leak_walk {
  long shown, max;
};

static void leak_print(int handle, void *obj, void *data)
{
  struct leak_walk *w = data;
  if (w->shown++ < w->max)
    fprintf(stderr, "  handle %#x\n", (unsigned)handle);
}

/* After the run: MPI objects the program created and never freed, by kind. */
static void report_leaks(long max)
{
  static const struct {
    int kind;
    const char *name;
  } kinds[] = {{SMPI_KIND_COMM, "communicator"}, {SMPI_KIND_GROUP, "group"},
               {SMPI_KIND_DATATYPE, "datatype"}, {SMPI_KIND_OP, "operation"},
               {SMPI_KIND_REQUEST, "request"},   {SMPI_KIND_ERRHANDLER, "error handler"},
               {SMPI_KIND_INFO, "info object"},  {SMPI_KIND_WIN, "window"},
               {SMPI_KIND_MESSAGE, "message"},   {SMPI_KIND_KEYVAL, "keyval"}};
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
    size_t n = smpi_handle_foreach_live(kinds[k].kind, NULL, NULL);
    if (!n)
      continue;
    fprintf(stderr, "smpi: %zu %s handle%s never freed%s\n", n, kinds[k].name,
            n == 1 ? " was" : "s were", n > (size_t)max ? " (the first ones:)" : ":");
    struct leak_walk w = {0, max};
    smpi_handle_foreach_live(kinds[k].kind, leak_print, &w);
  }
}

/* ---- ranks ---- */

/* exit() that did not go through smpi's own exit (smpi/launch/rank_exit.c): libc's error(),
 * err() and the like call it from inside libc. The process, and with it every rank, ends
 * here. Say so, and do not let a job whose ranks were left waiting inside MPI end with
 * status 0 (issue 20). */
static void on_process_exit(int status, void *arg)
{
  (void)arg;
  smpi_rank *me = smpi_self();
  if (!launch.running || !me)
    return;
  if (smpi_check_report_exit(me->rank, status, "exit") > 0 && status == 0) {
    smpi_abort_job(1);
  }
}

bool smpi_launch_running(void) { return launch.running; }

/* The end of a rank: main returned, or the rank called exit() (rank_exit.c). */
static void rank_ended(smpi_rank *me, int code, const char *how)
{
  if (me->ahead_n) /* clock polls run ahead: the rank ends at its own date */
    smpi_clock_settle(me);
  me->exit_code = code;
  me->returned = true;
  smpi_progress_rank_done();
  if (me->phase == SMPI_RANK_INITIALIZED)
    LOG_WARN("rank %d %s without calling MPI_Finalize", me->rank, how);
}

void smpi_launch_end_rank(int code, const char *how)
{
  smpi_rank *me = smpi_self();
  ASSERT(me && launch.running);
  if (me->ahead_n)
    smpi_clock_settle(me);
  /* Between MPI_Init and MPI_Finalize, a process that exits aborts an MPICH job (mpiexec
   * kills the others): the ranks left waiting for this one are reported and the job ends,
   * never with status 0 (issue 20). Elsewhere only this rank ends, as a process would. */
  if (me->phase == SMPI_RANK_INITIALIZED && smpi_check_report_exit(me->rank, code, how) > 0) {
    fflush(NULL);
    smpi_abort_job(code ? code : 1);
  }
  rank_ended(me, code, how);
  eng_actor_kill(me->actor); /* the rank's stack is dropped, as a process's would be */
  UNREACHABLE();
}

/* Fortran's STOP ends the program that runs it, i.e. one MPI process: the rank ends as
 * exit() ends it (rank_exit.c), with its C++ globals and buffered output. Returns 0 when no
 * rank of a simulation runs (a plain run: the caller stops the process). */
int smpi_rank_stop(int code)
{
  smpi_rank *me = smpi_self();
  if (!launch.running || !me || eng_self() == NULL)
    return 0;
  smpi_ctors_rank_end(me->rank);
  fflush(NULL); /* what the rank printed comes out before what follows, as at its exit */
  smpi_launch_end_rank(code, "STOP");
  UNREACHABLE();
}

/* A host goes down (state profile, kernel/profiles.c): its ranks are killed where they
 * stand, as SimGrid kills the actors of a host turned off. A rank that already returned
 * from main is left alone. What happens to messages from and to them: comm_failed in
 * mpi/request.c. */
static void host_went_down(size_t host)
{
  if (!smpi_w.ranks)
    return; /* down at date 0: refused when the ranks are placed */
  char name[256];
  route_host_name(smpi_w.routes, host, name, sizeof name);
  for (int r = 0; r < smpi_w.np; r++) {
    smpi_rank *rk = &smpi_w.ranks[r];
    if (rk->host != host || rk->returned || rk->killed)
      continue;
    fprintf(stderr,
            "smpi: rank %d killed at simulated date %.17g: its host '%s' went down "
            "(state profile)\n",
            r, eng_now(), name);
    rk->killed = true;
    rk->killed_at = eng_now();
    smpi_progress_rank_done();
    eng_actor_kill(rk->actor);
  }
}

static void rank_main(void *arg)
{
  smpi_rank *me = arg;
  /* each rank gets its own copy of argv, as separate processes would */
  char **argv = xcalloc((size_t)launch.argc + 1, sizeof *argv);
  for (int i = 0; i < launch.argc; i++)
    argv[i] = xstrdup(launch.argv[i]);
  if (!launch.rank_argv)
    launch.rank_argv = xcalloc((size_t)smpi_w.np, sizeof *launch.rank_argv);
  launch.rank_argv[me->rank] = argv;
  if (smpi_w.simulate_computation && smpi_w.cpu_threshold >= 0)
    smpi_burst_start(me);
  smpi_ctors_rank_begin(launch.argc, argv);
  int code = launch.real_main(launch.argc, argv);
  smpi_ctors_rank_end(me->rank); /* its C++ globals and static locals, as a process's exit */
  rank_ended(me, code, "returned from main");
  /* argv strings are the program's now; the process is about to end anyway */
}

static void describe_world_help(void)
{
  printf("Options of the simulator (--cfg=KEY:VALUE):\n");
  cfg_help(stdout);
}

SMPI_PUBLIC int smpi_main(int argc, char **argv, smpi_main_fn real_main);

/* Whether glibc gives the program's heap huge pages: smpirun asks for it (smpi/huge-heap),
 * or the user did in GLIBC_TUNABLES. */
static bool heap_is_huge(void)
{
  const char *t = getenv("GLIBC_TUNABLES"), *h = t ? strstr(t, SMPI_HUGETLB_TUNABLE) : NULL;
  char mode = h ? h[sizeof SMPI_HUGETLB_TUNABLE - 1] : 0;
  return mode == '1' || mode == '2';
}

/* The heap policy of the whole process, set once before anything is allocated. All ranks
 * share one heap, and collectives and eager messages take and give back buffers of up to
 * megabytes at every call. glibc's defaults serve those from fresh mmap()s (above 128 KiB,
 * a threshold that moves up as they are freed) and give the top of the heap back to the
 * kernel as soon as 128 KiB of it are free: each call of a large collective then faulted its
 * scratch in again, page by page, and moved the break up and down (a 256-rank Allreduce of
 * 1 MiB, 4 calls: 293 000 page faults, 772 munmap, 390 brk, 0.59 s of system time of 1.2 s).
 * Here a freed buffer stays in the heap, already faulted in, for the next call to reuse;
 * the heap grows in steps of 64 MiB (address space only: pages are faulted as touched).
 * What the program sets with GLIBC_TUNABLES=glibc.malloc.* wins (smpirun's hugetlb=1 for
 * smpi/huge-heap is not the program's). */
static void tune_heap(void)
{
  const char *t = getenv("GLIBC_TUNABLES");
  for (const char *m = t; m && (m = strstr(m, "glibc.malloc.")); m++)
    if (strncmp(m, SMPI_HUGETLB_TUNABLE, sizeof SMPI_HUGETLB_TUNABLE - 1))
      return;
  mallopt(M_MMAP_THRESHOLD, 32 << 20); /* glibc's largest: buffers above it are rare */
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 64 << 20);
}

int smpi_main(int argc, char **argv, smpi_main_fn real_main)
{
  char err[1024];
  tune_heap();
  launch.real_main = real_main;
  launch.argc = argc;
  launch.argv = argv;
  smpi_w.thread = smpi_thread_self(); /* the only OS thread that may call MPI (bindings/call.h) */
  smpi_declare_config();

  launch_opts o;
  if (parse_launch(&o) != 0)
    return 1;
  if (o.help_cfg || o.help_coll) {
    if (o.help_cfg)
      describe_world_help();
    if (o.help_coll)
      coll_print_help(stdout);
    return 0;
  }

  /* before anything grows with -np (the built-in platform has a host per rank) */
  long np_asked = o.np > 0 ? o.np : cfg_get_int("smpi/np");
  if (np_asked > 1 && check_memory(np_asked, !o.platform) != 0)
    return 1;

  /* platform */
  int rc;
  if (o.platform) {
    rc = plat_load_file_set(o.platform, o.sets, o.nsets, &launch.platform, err, sizeof err);
    smpi_w.platform_name = o.platform;
  } else {
    long n = o.np > 0 ? o.np : 1;
    char *xml = plat_default_xml_net((int)n, o.bandwidth, o.latency), *edited = NULL;
    rc = plat_set_apply(xml, strlen(xml), "<built-in platform>", o.sets, o.nsets, &edited, err,
                        sizeof err);
    if (rc == 0)
      rc = plat_load_string(edited, "<built-in platform>", &launch.platform, err, sizeof err);
    free(edited);
    free(xml);
    smpi_w.platform_name = "<built-in platform>";
  }
  for (size_t k = 0; k < o.nsets; k++)
    plat_set_clear(&o.sets[k]);
  free(o.sets);
  bool net_failed = rc != 0 && !o.platform && (o.bandwidth || o.latency);
  if (net_failed)
    fail("-bandwidth %s / -latency %s: %s", o.bandwidth ? o.bandwidth : "(default)",
         o.latency ? o.latency : "(default)", err);
  if (rc == 0 && o.platform && (o.bandwidth || o.latency))
    LOG_WARN("-bandwidth and -latency set the links of the built-in platform: ignored with "
             "-platform (as in SimGrid)");
  free(o.bandwidth);
  free(o.latency);
  if (net_failed)
    return 1;
  if (rc != 0)
    return fail("%s", err);
  if (route_table_build(launch.platform, &launch.routes, err, sizeof err) != 0)
    return fail("%s", err);
  smpi_w.routes = launch.routes;

  /* config that the runtime reads once */
  const char *hs = cfg_get_string("smpi/host-speed");
  if (units_parse_speed(hs, &smpi_w.host_speed, err, sizeof err) != 0 || smpi_w.host_speed <= 0)
    return fail("--cfg=smpi/host-speed:%s: %s", hs, *err ? err : "must be positive");
  smpi_w.cpu_threshold = cfg_get_double("smpi/cpu-threshold");
  smpi_w.simulate_computation = cfg_get_bool("smpi/simulate-computation");
  smpi_w.cpu_all_threads = cfg_get_bool("smpi/cpu-all-threads");
  smpi_copies.watch = cfg_get_bool("smpi/display-timing"); /* count first touches */
  smpi_copies.huge_heap = heap_is_huge();
  if (cfg_get_bool("smpi/huge-heap") && !o.huge_heap_given && o.from_smpirun && !heap_is_huge())
    return fail("--cfg=smpi/huge-heap:yes is read by smpirun before the program starts: give it "
                "on smpirun's command line (not in a platform file's <config>), and set no "
                "glibc.malloc.hugetlb mode of your own in GLIBC_TUNABLES");
  /* The floor's rates and costs: a negative one would print a floor below zero. */
  static const struct {
    const char *key, *unit;
  } floor_keys[] = {{"smpi/memcpy-bandwidth", "GB/s"},
                    {"smpi/reduce-bandwidth", "GB/s"},
                    {"smpi/first-touch-cost", "us per page"}};
  for (size_t i = 0; i < sizeof floor_keys / sizeof *floor_keys; i++)
    if (!(cfg_get_double(floor_keys[i].key) >= 0))
      return fail("--cfg=%s:%g: must be >= 0 (%s; 0: measured)", floor_keys[i].key,
                  cfg_get_double(floor_keys[i].key), floor_keys[i].unit);
  if (cfg_get_int("smpi/np") > 0 && o.np <= 0)
    o.np = cfg_get_int("smpi/np");
  if (!o.hostfile && *cfg_get_string("smpi/hostfile"))
    o.hostfile = xstrdup(cfg_get_string("smpi/hostfile"));
  o.map = o.map || cfg_get_bool("smpi/map");

  /* placement */
  size_t *slots = NULL, nslots = 0;
  launch.hostfile = o.hostfile;
  if (o.hostfile) {
    if (read_hostfile(o.hostfile, &slots, &nslots) != 0)
      return 1;
  } else {
    nslots = route_host_count(launch.routes);
    if (nslots == 0)
      return fail("platform %s has no host to run on", smpi_w.platform_name);
    slots = xmalloc(nslots * sizeof *slots);
    for (size_t i = 0; i < nslots; i++)
      slots[i] = i;
  }
  if (o.np <= 0)
    o.np = o.hostfile ? (long)nslots : 1;
  if (o.np > INT32_MAX)
    return fail("-np %ld is too large", o.np);
  /* SimGrid 3.32 puts several ranks on a slot. A hostfile lists what the user means to use,
   * so a short one is most likely a mistake and takes an explicit yes; without a hostfile,
   * SimGrid's users expect its behaviour: the ranks go round-robin over the platform's hosts,
   * with a note (SimGrid prints one too). */
  if ((size_t)o.np > nslots && !cfg_get_bool("smpi/oversubscribe")) {
    if (o.hostfile) {
      free(slots);
      return fail("-np %ld asks for more processes than the %zu slot%s of hostfile '%s'; add "
                  "slots ('host:slots') or pass --cfg=smpi/oversubscribe:yes to place the ranks "
                  "round-robin",
                  o.np, nslots, nslots == 1 ? "" : "s", o.hostfile);
    }
    LOG_INFO("-np %ld is more than the %zu host%s of platform %s: ranks placed round-robin, "
             "several per host (as SimGrid does; a hostfile chooses the placement)",
             o.np, nslots, nslots == 1 ? "" : "s", smpi_w.platform_name);
  }
  /* a 0 flop/s pstate (an "off" state of an energy platform) is fine until a rank runs there */
  for (size_t r = 0; r < (size_t)o.np && r < nslots; r++) {
    plat_host_desc d;
    route_host_desc(launch.routes, slots[r], &d);
    if (d.speeds[d.pstate] <= 0) {
      char host[256];
      route_host_name(launch.routes, slots[r], host, sizeof host);
      free(slots);
      return fail("rank %zu cannot run on host '%s': its pstate %zu has a speed of 0 flop/s "
                  "(choose another pstate with pstate=\"...\" or another host)",
                  r, host, d.pstate);
    }
  }

  /* the world */
  if (eng_init(err, sizeof err) != 0)
    return fail("%s", err);
  avail_on_host_down(host_went_down);
  if (cpu_model_init(launch.routes, err, sizeof err) != 0 ||
      net_model_init(launch.routes, err, sizeof err) != 0 ||
      avail_start(launch.platform, launch.routes, err, sizeof err) != 0 ||
      energy_start(launch.platform, launch.routes, err, sizeof err) != 0)
    return fail("%s", err);
  /* only platforms with disks have a disk model: the others run exactly as before */
  bool disks = false;
  for (size_t i = 0; i < launch.platform->nhosts && !disks; i++)
    disks = launch.platform->hosts[i]->ndisks > 0;
  if (disks && disk_model_init(launch.platform, launch.routes, err, sizeof err) != 0)
    return fail("%s", err);
  ctx_set_crash_hook(crash_hook, NULL);

  smpi_w.np = (int)o.np;
  smpi_w.ranks = xcalloc((size_t)o.np, sizeof *smpi_w.ranks);
  for (int r = 0; r < smpi_w.np; r++) {
    smpi_rank *rk = &smpi_w.ranks[r];
    rk->rank = r;
    rk->host = slots[(size_t)r % nslots];
    if (!net_host_is_up(rk->host)) {
      char host[256];
      route_host_name(launch.routes, rk->host, host, sizeof host);
      free(slots);
      return fail("rank %d cannot run on host '%s': its state profile turns it off at date 0", r,
                  host);
    }
    if (o.map) {
      char host[256];
      route_host_name(launch.routes, rk->host, host, sizeof host);
      fprintf(stderr, "[rank %d] -> %s\n", r, host);
    }
  }
  free(slots);
  smpi_dt_init();
  smpi_op_init();
  smpi_comm_world_setup(smpi_w.np);
  for (int r = 0; r < smpi_w.np; r++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", r);
    smpi_rank *rk = &smpi_w.ranks[r];
    rk->actor = eng_actor_create(name, rank_main, rk);
    eng_actor_set_data(rk->actor, rk);
  }
  /* protocol settings (bad smpi/os... strings) are checked before anything runs */
  if (smpi_p2p_init(err, sizeof err) != 0 || smpi_sample_init(err, sizeof err) != 0)
    return fail("%s", err);
  /* per-rank globals and errno; folding options are checked before anything runs */
  if (smpi_shared_init(err, sizeof err) != 0 || smpi_privatize_init(err, sizeof err) != 0)
    return fail("%s", err);
  smpi_ctors_settle();
  smpi_libc_init();
  smpi_auto_malloc_init();
  eng_on_switch(on_switch);
  if (smpi_trace_init(err, sizeof err) != 0)
    return fail("%s", err);

  struct timespec w0, w1;
  smpi_host_clock_gettime(CLOCK_MONOTONIC, &w0);
  on_exit(on_process_exit, NULL);
  launch.running = true;
  smpi_progress_start();
  rc = eng_run();
  smpi_progress_end();
  launch.running = false;
  smpi_host_clock_gettime(CLOCK_MONOTONIC, &w1);
  double wall = smpi_seconds_between(&w0, &w1);
  smpi_trace_finish(); /* traces closed and the profile printed, deadlock or not */

  int code = 0;
  if (rc == ENG_DEADLOCK) {
    code = 1;
    smpi_check_report_deadlock(); /* the MPI view: who waits for whom, cycles, call sites */
  } else {
    smpi_check_report_requests();
    for (int r = 0; r < smpi_w.np; r++)
      if (smpi_w.ranks[r].exit_code != 0) {
        code = smpi_w.ranks[r].exit_code;
        break;
      }
  }
  fflush(stdout);
  if (rc != ENG_DEADLOCK && cfg_get_int("smpi/list-leaks") > 0)
    report_leaks(cfg_get_int("smpi/list-leaks"));
  energy_report(stderr);
  smpi_auto_malloc_report();
  if (cfg_get_bool("smpi/display-timing")) {
    fprintf(stderr, "smpi: simulated time: %.9g s (wall-clock time: %.6f s, %d rank%s)\n",
            eng_now(), wall, smpi_w.np, smpi_w.np == 1 ? "" : "s");
    /* the program's own CPU: the bursts measured between MPI calls, injected or not */
    double program = -1;
    if (smpi_bursts_measured()) {
      program = smpi_burst_short_seconds();
      for (int r = 0; r < smpi_w.np; r++)
        program += smpi_w.ranks[r].injected;
    }
    smpi_copies_report(stderr, 1e9 * cfg_get_double("smpi/memcpy-bandwidth"),
                       1e9 * cfg_get_double("smpi/reduce-bandwidth"),
                       1e-6 * cfg_get_double("smpi/first-touch-cost"), program);
  }
  /* The ranks' stacks hold the program's state: leave the process as it ends, like a job. */
  return code;
}
