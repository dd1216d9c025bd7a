/* The MPI runtime: launch options, world set-up, rank actors, CPU bursts, job end.
 *
 *   program's main  ->  __wrap_main (libsmpi_main.a)  ->  smpi_main(argc, argv, real_main)
 *        read SMPI_LAUNCH (or simulate 1 rank on the built-in platform)
 *        --cfg / --log, platform, routing, engine, CPU and network models
 *        place ranks on hosts (hostfile round-robin, or the platform's hosts in order)
 *        one actor per rank runs real_main(argc, argv)
 *        eng_run(); report deadlock / timing; exit code of the job
 */
#include "smpi/runtime.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/context.h"
#include "kernel/cpu.h"
#include "kernel/network.h"
#include "smpi/check.h"
#include "smpi/comm.h"
#include "smpi/datatype.h"
#include "smpi/handle.h"
#include "smpi/hostfile.h"
#include "smpi/launch.h"
#include "smpi/op.h"
#include "smpi/p2p.h"
#include "smpi/privatize.h"
#include "smpi/progress.h"
#include "smpi/sample.h"
#include "smpi/shared_malloc.h"
#include "smpi/trace.h"
#include "smpi/smpi.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/platform.h"
#include "src/units.h"

LOG_NEW_CATEGORY(smpi, "the MPI layer");
LOG_NEW_SUBCATEGORY(smpi_runtime, smpi, "MPI runtime: launch, ranks, CPU bursts");
LOG_DEFAULT_CATEGORY(smpi_runtime);

smpi_world smpi_w;

static struct {
  plat_platform *platform;
  route_table *routes;
  smpi_main_fn real_main;
  int argc;
  char **argv;
  bool running;   /* inside eng_run */
  char ***rank_argv; /* each rank's argv copy: reachable to the end, as a process's argv is */
  char *hostfile;    /* the hostfile's path, kept like smpi_w.platform_name (messages) */
  int abort_code; /* set by smpi_abort_job */
} R;

smpi_rank *smpi_running;

/* The engine's switch hook: the actor about to run becomes smpi_self(), and its rank's
 * globals and errno come into place. A rank's actor carries its smpi_rank; another actor
 * (a nonblocking collective's helper) carries its owner's, and runs with the owner's
 * globals; an actor with other data counts as the maestro for privatization. */
static void on_switch(eng_actor *to)
{
  smpi_rank *r = to ? eng_actor_data(to) : NULL;
  smpi_running = r;
  uintptr_t d = (uintptr_t)r, lo = (uintptr_t)smpi_w.ranks;
  bool is_rank = r && d >= lo && d < lo + (size_t)smpi_w.np * sizeof *smpi_w.ranks;
  smpi_privatize_switch_to(is_rank ? r->rank : -1);
}

void smpi_declare_config(void)
{
  eng_declare_config();
  route_declare_config();
  cpu_declare_config();
  net_declare_config();
  cfg_declare_bool("smpi/display-timing", false,
                   "Print the simulated time and the wall-clock time of the run at the end (stderr)");
  cfg_declare_bool("smpi/simulate-computation", true,
                   "Inject the CPU time ranks spend between MPI calls as simulated computation");
  cfg_declare_string("smpi/host-speed", "20000f", NULL,
                     "Speed of the machine running the simulation (flop/s, with unit): measured "
                     "CPU seconds x host-speed = injected flops");
  cfg_declare_double("smpi/cpu-threshold", 1e-6,
                     "CPU bursts shorter than this (seconds) are not injected; -1: none is");
  cfg_declare_double("smpi/wtime", 1e-8, "Simulated time injected by each MPI_Wtime call (s)");
  cfg_declare_double("smpi/test", 1e-4, "Simulated time injected by each MPI_Test call (s)");
  cfg_declare_double("smpi/iprobe", 1e-4, "Simulated time injected by each MPI_Iprobe call (s)");
  cfg_declare_double("smpi/init", 0.0, "Simulated time injected by MPI_Init (s)");
  cfg_declare_int("smpi/async-small-thresh", 0,
                  "Messages up to this size (bytes) are sent eagerly, without waiting for the receiver");
  cfg_declare_int("smpi/send-is-detached-thresh", 65536,
                  "Messages below this size (bytes) are detached: MPI_Send returns once the data "
                  "is copied; from this size on, it waits for the transfer (rendezvous)");
  cfg_declare_string("smpi/os", "0:0:0", NULL,
                     "Send overhead of MPI_Send: 'size:start:per_byte;...' (seconds)");
  cfg_declare_string("smpi/ois", "0:0:0", NULL,
                     "Send overhead of MPI_Isend: 'size:start:per_byte;...' (seconds)");
  cfg_declare_string("smpi/or", "0:0:0", NULL,
                     "Receive overhead: 'size:start:per_byte;...' (seconds)");
  cfg_declare_bool("smpi/errors-are-fatal", true,
                   "Errors in MPI calls end the job (MPI_ERRORS_ARE_FATAL is the default handler "
                   "of MPI_COMM_WORLD); no: MPI_ERRORS_RETURN, the calls return the error code");
  cfg_declare_int("smpi/list-leaks", 0,
                  "At the end of the run, count the MPI handles the program never freed, by "
                  "kind, and list up to this many of each (0: off)");
  cfg_declare_string("smpi/privatization", "yes", "no|yes|copy|mmap|dlopen",
                     "Give each rank its own copy of the program's global variables: yes (copy "
                     "small data segments at each switch, remap large ones), copy, mmap, no; "
                     "dlopen is accepted for SimGrid command lines and means yes");
  smpi_shared_declare_config();
  smpi_privatize_declare_config();
  smpi_sample_declare_config();
  smpi_trace_declare_config();
  cfg_declare_int("smpi/np", 0, "Number of MPI processes (set by smpirun -np)");
  cfg_declare_string("smpi/hostfile", "", NULL, "Hostfile used to place the processes (smpirun -hostfile)");
  cfg_declare_bool("smpi/map", false, "Print the rank -> host mapping at start-up (smpirun -map)");
  cfg_declare_bool("smpi/oversubscribe", false,
                   "Allow more processes than slots (hosts of the platform, or slots of the "
                   "hostfile): the ranks then go round-robin, several per slot");
}

/* ---- CPU bursts ---- */

void smpi_execute_flops_now(double flops)
{
  smpi_rank *me = smpi_self();
  ASSERT(me);
  if (flops <= 0)
    return;
  SMPI_TRACE(smpi_trace_compute_begin(flops));
  act_action *a = cpu_exec_start(me->host, flops, -1, NULL, NULL);
  act_wait(a);
  act_action_free(a);
  SMPI_TRACE(smpi_trace_compute_end(flops));
}

void smpi_sleep_now(double seconds)
{
  if (seconds > 0)
    eng_sleep(seconds);
}

/* Measuring a burst. The thread CPU clock is what a burst costs (the OS may run other
 * processes meanwhile: wall time would charge the rank for them), but reading it is a system
 * call, about 3 us on a virtual machine: more than a whole simulated message, and reading it
 * at every MPI call made it most of a message-heavy program's simulation. The monotonic
 * clock is read in the vDSO (~0.1 us). All ranks run on this one thread, and between leaving
 * an MPI call and entering the next a rank runs alone, so:
 *
 *   wall:  ..cp.......|=== burst b ===|....      cp   checkpoint: (CPU, wall) read together
 *                     start           end        W    wall from cp to end
 *   CPU at end - CPU at cp = C <= W              w    the burst's wall time, b <= w, C - b <= W - w
 *
 * 1. A burst whose wall time w is below smpi/cpu-threshold (1 us by default; the margin
 *    covers the clocks' rate difference, at most 0.05 % under NTP slewing) is below it in
 *    CPU time too: discarded with no system call. That is almost every burst of a
 *    message-heavy rank.
 * 2. A rank whose previous burst was long reads the CPU clock when its burst starts (it is
 *    likely computing again): its bursts are measured exactly, as by the CPU clock alone.
 * 3. A long burst after short ones has no CPU reading at its start. The CPU clock read at its
 *    end and the latest checkpoint (refreshed by every CPU reading, and at a burst start when
 *    it is older than CP_REFRESH) bound it: C - (W - w) <= b <= min(w, C). We take
 *    min(w, C): if the thread lost no time during the burst, C >= w and that is exactly w;
 *    if it lost D there, the estimate exceeds b by at most min(D, the simulator's CPU time
 *    between the checkpoint and the burst), and that is at most CP_REFRESH. Time lost
 *    outside the burst does not matter (spreading W - C over the window would charge it).
 * A message-heavy rank thus pays a CPU clock read per CP_REFRESH of wall time instead of one
 * per MPI call. SimGrid 3.32 reads the thread CPU clock at both ends of every burst
 * (xbt_os_threadtimer). */
#define CP_REFRESH_NS 1000000 /* 1 ms: one system call per ms is under 0.5 % of the run */

static int64_t cp_cpu, cp_wall; /* checkpoint: thread CPU and monotonic clocks, ns */

static inline int64_t clock_ns(clockid_t id)
{
  struct timespec ts;
  clock_gettime(id, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void smpi_burst_start(smpi_rank *me)
{
  int64_t wall = clock_ns(CLOCK_MONOTONIC);
  me->burst_exact = me->burst_long;
  if (me->burst_long || wall - cp_wall > CP_REFRESH_NS) {
    cp_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    wall = clock_ns(CLOCK_MONOTONIC); /* after the system call: it is not the rank's burst */
    cp_wall = wall;
    me->burst_cpu = cp_cpu;
  }
  me->burst_wall = wall;
}

void smpi_burst_end(smpi_rank *me)
{
  int64_t now = clock_ns(CLOCK_MONOTONIC);
  int64_t w = now - me->burst_wall;
  if ((double)w * 1e-9 < 0.999 * smpi_w.cpu_threshold) {
    me->burst_long = false;
    return;
  }
  int64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  double spent;
  if (me->burst_exact) {
    spent = (double)(cpu - me->burst_cpu) * 1e-9;
  } else {
    /* the checkpoint was taken at a burst start or end, never during this burst (nothing
     * else runs then), so C covers the whole burst */
    int64_t C = cpu - cp_cpu;
    spent = (double)(C < w ? C : w) * 1e-9;
  }
  cp_cpu = cpu;
  cp_wall = now;
  me->burst_long = spent >= smpi_w.cpu_threshold;
  if (spent <= 0 || !me->burst_long)
    return;
  me->injected += spent;
  /* smpi/compute-noise applies to measured bursts too, not only to sampled blocks */
  smpi_execute_flops_now(spent * smpi_sample_noise_factor() * smpi_w.host_speed);
}

/* ---- public extensions (smpi.h) ---- */

SMPI_PUBLIC void smpi_execute_flops(double flops)
{
  smpi_enter_call();
  smpi_execute_flops_now(flops);
  smpi_leave_call();
}

SMPI_PUBLIC void smpi_execute_flops_benched(double flops) { smpi_execute_flops(flops); }

/* SimGrid 3.32's units, so that programs written for it carry over: smpi_execute takes
 * seconds of the machine running the simulation, like a measured burst (x smpi/host-speed,
 * dropped under smpi/cpu-threshold; a negative threshold drops nothing here, as SimGrid's
 * plain comparison does), smpi_execute_benched seconds of the simulated host. */
SMPI_PUBLIC void smpi_execute(double seconds)
{
  if (!smpi_self() || !(seconds >= smpi_w.cpu_threshold))
    return;
  smpi_enter_call();
  smpi_execute_flops_now(seconds * smpi_w.host_speed);
  smpi_leave_call();
}

SMPI_PUBLIC void smpi_execute_benched(double seconds)
{
  smpi_rank *me = smpi_self();
  if (!me)
    return;
  smpi_enter_call();
  smpi_execute_flops_now(seconds * cpu_host_speed(me->host));
  smpi_leave_call();
}

/* ---- job end ---- */

_Noreturn void smpi_abort_job(int code)
{
  fflush(NULL);
  _exit(code);
}

static void crash_hook(ctx *c, int sig, void *data)
{
  /* In a signal handler: format by hand into a local buffer, one write(2). */
  char buf[512];
  smpi_rank *me = smpi_self();
  const char *what = sig == SIGSEGV ? "SIGSEGV (invalid memory access)"
                     : sig == SIGBUS ? "SIGBUS (bus error)"
                     : sig == SIGFPE ? "SIGFPE (arithmetic error)"
                     : sig == SIGILL ? "SIGILL (illegal instruction)"
                     : sig == SIGABRT ? "SIGABRT (abort)"
                                      : "a fatal signal";
  int n;
  if (me) {
    char host[128];
    route_host_name(smpi_w.routes, me->host, host, sizeof host);
    n = snprintf(buf, sizeof buf,
                 "smpi: rank %d (on host %s) crashed with %s at simulated time %.9f s; the "
                 "simulation stops\n",
                 me->rank, host, what, eng_now());
  } else {
    n = snprintf(buf, sizeof buf, "smpi: the simulator itself crashed with %s%s\n", what,
                 R.running ? " while running the simulation" : "");
  }
  if (n > 0)
    (void)!write(STDERR_FILENO, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* ---- launch options ---- */

typedef struct launch_opts {
  long np;
  char *platform;
  char *hostfile;
  bool map;
  bool help_cfg;
  bool from_smpirun;
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
    } else if (!strcmp(k, "map")) {
      o->map = true;
    } else if (!strcmp(k, "help")) {
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

/* Hostfile (format and parser in smpi/hostfile.c): fills *hosts with host indexes, each
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
               {SMPI_KIND_DATATYPE, "datatype"},  {SMPI_KIND_OP, "operation"},
               {SMPI_KIND_REQUEST, "request"},    {SMPI_KIND_ERRHANDLER, "error handler"},
               {SMPI_KIND_INFO, "info object"},   {SMPI_KIND_WIN, "window"},
               {SMPI_KIND_MESSAGE, "message"},    {SMPI_KIND_KEYVAL, "keyval"}};
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
    size_t n = smpi_handle_foreach_live(kinds[k].kind, NULL, NULL);
    if (!n)
      continue;
    fprintf(stderr, "smpi: %zu %s handle%s never freed%s\n", n, kinds[k].name, n == 1 ? " was" : "s were",
            n > (size_t)max ? " (the first ones:)" : ":");
    struct leak_walk w = {0, max};
    smpi_handle_foreach_live(kinds[k].kind, leak_print, &w);
  }
}

/* ---- ranks ---- */

static void rank_main(void *arg)
{
  smpi_rank *me = arg;
  /* each rank gets its own copy of argv, as separate processes would */
  char **argv = xcalloc((size_t)R.argc + 1, sizeof *argv);
  for (int i = 0; i < R.argc; i++)
    argv[i] = xstrdup(R.argv[i]);
  if (!R.rank_argv)
    R.rank_argv = xcalloc((size_t)smpi_w.np, sizeof *R.rank_argv);
  R.rank_argv[me->rank] = argv;
  if (smpi_w.simulate_computation && smpi_w.cpu_threshold >= 0)
    smpi_burst_start(me);
  me->exit_code = R.real_main(R.argc, argv);
  me->returned = true;
  smpi_progress_rank_done();
  if (me->phase == SMPI_RANK_INITIALIZED)
    LOG_WARN("rank %d returned from main without calling MPI_Finalize", me->rank);
  /* argv strings are the program's now; the process is about to end anyway */
}

static void describe_world_help(void)
{
  printf("Options of the simulator (--cfg=KEY:VALUE):\n");
  cfg_help(stdout);
}

SMPI_PUBLIC int smpi_main(int argc, char **argv, smpi_main_fn real_main);

int smpi_main(int argc, char **argv, smpi_main_fn real_main)
{
  char err[1024];
  R.real_main = real_main;
  R.argc = argc;
  R.argv = argv;
  smpi_declare_config();

  launch_opts o;
  if (parse_launch(&o) != 0)
    return 1;
  if (o.help_cfg) {
    describe_world_help();
    return 0;
  }

  /* platform */
  int rc;
  if (o.platform) {
    rc = plat_load_file(o.platform, &R.platform, err, sizeof err);
    smpi_w.platform_name = o.platform;
  } else {
    long n = o.np > 0 ? o.np : 1;
    char *xml = plat_default_xml((int)n);
    rc = plat_load_string(xml, "<built-in platform>", &R.platform, err, sizeof err);
    free(xml);
    smpi_w.platform_name = "<built-in platform>";
  }
  if (rc != 0)
    return fail("%s", err);
  if (route_table_build(R.platform, &R.routes, err, sizeof err) != 0)
    return fail("%s", err);
  smpi_w.routes = R.routes;

  /* config that the runtime reads once */
  const char *hs = cfg_get_string("smpi/host-speed");
  if (units_parse_speed(hs, &smpi_w.host_speed, err, sizeof err) != 0 || smpi_w.host_speed <= 0)
    return fail("--cfg=smpi/host-speed:%s: %s", hs, *err ? err : "must be positive");
  smpi_w.cpu_threshold = cfg_get_double("smpi/cpu-threshold");
  smpi_w.simulate_computation = cfg_get_bool("smpi/simulate-computation");
  if (cfg_get_int("smpi/np") > 0 && o.np <= 0)
    o.np = cfg_get_int("smpi/np");
  if (!o.hostfile && *cfg_get_string("smpi/hostfile"))
    o.hostfile = xstrdup(cfg_get_string("smpi/hostfile"));
  o.map = o.map || cfg_get_bool("smpi/map");

  /* placement */
  size_t *slots = NULL, nslots = 0;
  R.hostfile = o.hostfile;
  if (o.hostfile) {
    if (read_hostfile(o.hostfile, &slots, &nslots) != 0)
      return 1;
  } else {
    nslots = route_host_count(R.routes);
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
  /* SimGrid 3.32 silently puts several ranks on a slot; a typo in -np (or a short hostfile)
   * then simulates a different machine than meant, so it takes an explicit yes here */
  if ((size_t)o.np > nslots && !cfg_get_bool("smpi/oversubscribe")) {
    free(slots);
    if (o.hostfile)
      return fail("-np %ld asks for more processes than the %zu slot%s of hostfile '%s'; add "
                  "slots ('host:slots') or pass --cfg=smpi/oversubscribe:yes to place the ranks "
                  "round-robin", o.np, nslots, nslots == 1 ? "" : "s", o.hostfile);
    return fail("-np %ld asks for more processes than the %zu host%s of platform %s; pass a "
                "hostfile with slots ('host:slots') or --cfg=smpi/oversubscribe:yes to place "
                "the ranks round-robin", o.np, nslots, nslots == 1 ? "" : "s",
                smpi_w.platform_name);
  }

  /* the world */
  if (eng_init(err, sizeof err) != 0)
    return fail("%s", err);
  if (cpu_model_init(R.routes, err, sizeof err) != 0 || net_model_init(R.routes, err, sizeof err) != 0)
    return fail("%s", err);
  ctx_set_crash_hook(crash_hook, NULL);

  smpi_w.np = (int)o.np;
  smpi_w.ranks = xcalloc((size_t)o.np, sizeof *smpi_w.ranks);
  for (int r = 0; r < smpi_w.np; r++) {
    smpi_rank *rk = &smpi_w.ranks[r];
    rk->rank = r;
    rk->host = slots[(size_t)r % nslots];
    if (o.map) {
      char host[256];
      route_host_name(R.routes, rk->host, host, sizeof host);
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
  eng_on_switch(on_switch);
  if (smpi_trace_init(err, sizeof err) != 0)
    return fail("%s", err);

  struct timespec w0, w1;
  clock_gettime(CLOCK_MONOTONIC, &w0);
  R.running = true;
  smpi_progress_start();
  rc = eng_run();
  smpi_progress_end();
  R.running = false;
  clock_gettime(CLOCK_MONOTONIC, &w1);
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
  if (cfg_get_bool("smpi/display-timing"))
    fprintf(stderr, "smpi: simulated time: %.9g s (wall-clock time: %.6f s, %d rank%s)\n",
            eng_now(), wall, smpi_w.np, smpi_w.np == 1 ? "" : "s");
  /* The ranks' stacks hold the program's state: leave the process as it ends, like a job. */
  return code;
}
