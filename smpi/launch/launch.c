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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "kernel/context.h"
#include "kernel/cpu.h"
#include "kernel/network.h"
#include "collectives/coll.h"
#include "smpi/bindings/call.h"
#include "smpi/mpi/check.h"
#include "smpi/mpi/comm.h"
#include "smpi/mpi/comm_impl.h"
#include "smpi/mpi/datatype.h"
#include "smpi/mpi/handle.h"
#include "smpi/runtime/hostfile.h"
#include "smpi/launch/launch.h"
#include "smpi/mpi/op.h"
#include "smpi/mpi/p2p.h"
#include "smpi/emulation/privatize.h"
#include "smpi/runtime/progress.h"
#include "smpi/emulation/sample.h"
#include "smpi/emulation/shared_malloc.h"
#include "smpi/observe/trace.h"
#include "smpi/smpi.h"
#include "src/cfg.h"
#include "src/invariant.h"
#include "src/log.h"
#include "src/mem.h"
#include "src/platform.h"
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
  smpi_running = r;
  uintptr_t d = (uintptr_t)r, lo = (uintptr_t)smpi_w.ranks;
  bool is_rank = r && d >= lo && d < lo + (size_t)smpi_w.np * sizeof *smpi_w.ranks;
  smpi_privatize_switch_to(is_rank ? r->rank : -1);
}

/* The keys launch.c reads itself. */
static const cfg_key launch_keys[] = {
    CFG_KEY_BOOL(
        "smpi/display-timing", false,
        "Print the simulated time and the wall-clock time of the run at the end (stderr)"),
    CFG_KEY_BOOL("smpi/simulate-computation", true,
                 "Inject the CPU time ranks spend between MPI calls as simulated computation"),
    CFG_KEY_STRING("smpi/host-speed", "20000f", NULL,
                   "Speed of the machine running the simulation (flop/s, with unit): measured "
                   "CPU seconds x host-speed = injected flops"),
    CFG_KEY_DOUBLE("smpi/cpu-threshold", 1e-6,
                   "CPU bursts shorter than this (seconds) are not injected; -1: none is"),
    CFG_KEY_UINT("smpi/list-leaks", 0,
                 "At the end of the run, count the MPI handles the program never freed, by "
                 "kind, and list up to this many of each (0: off)"),
    CFG_KEY_UINT("smpi/np", 0, "Number of MPI processes (set by smpirun -np)"),
    CFG_KEY_STRING("smpi/hostfile", "", NULL,
                   "Hostfile used to place the processes (smpirun -hostfile)"),
    CFG_KEY_BOOL("smpi/map", false, "Print the rank -> host mapping at start-up (smpirun -map)"),
    CFG_KEY_BOOL("smpi/oversubscribe", false,
                 "Allow more processes than slots (hosts of the platform, or slots of the "
                 "hostfile): the ranks then go round-robin, several per slot"),
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
    launch_declare_config,
    smpi_progress_declare_config, /* runtime/ */
    smpi_shared_declare_config,   /* emulation/ */
    smpi_privatize_declare_config,
    smpi_sample_declare_config,
    smpi_p2p_declare_config, /* mpi/ */
    smpi_errhandler_declare_config,
    smpi_check_declare_config,
    smpi_trace_declare_config, /* observe/ */
    coll_declare_config,       /* collectives/ */
    smpi_env_declare_config,   /* bindings/ */
};

static void smpi_declare_config(void)
{
  for (size_t i = 0; i < sizeof smpi_config_modules / sizeof smpi_config_modules[0]; i++)
    smpi_config_modules[i]();
}

static void crash_hook(ctx *c, int sig, void *data)
{
  /* In a signal handler: format by hand into a local buffer, one write(2). */
  char buf[512];
  smpi_rank *me = smpi_self();
  const char *what = sig == SIGSEGV   ? "SIGSEGV (invalid memory access)"
                     : sig == SIGBUS  ? "SIGBUS (bus error)"
                     : sig == SIGFPE  ? "SIGFPE (arithmetic error)"
                     : sig == SIGILL  ? "SIGILL (illegal instruction)"
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
                 launch.running ? " while running the simulation" : "");
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
  me->exit_code = launch.real_main(launch.argc, argv);
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
  launch.real_main = real_main;
  launch.argc = argc;
  launch.argv = argv;
  smpi_w.thread = smpi_thread_self(); /* the only OS thread that may call MPI (bindings/call.h) */
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
    rc = plat_load_file(o.platform, &launch.platform, err, sizeof err);
    smpi_w.platform_name = o.platform;
  } else {
    long n = o.np > 0 ? o.np : 1;
    char *xml = plat_default_xml((int)n);
    rc = plat_load_string(xml, "<built-in platform>", &launch.platform, err, sizeof err);
    free(xml);
    smpi_w.platform_name = "<built-in platform>";
  }
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
  /* SimGrid 3.32 silently puts several ranks on a slot; a typo in -np (or a short hostfile)
   * then simulates a different machine than meant, so it takes an explicit yes here */
  if ((size_t)o.np > nslots && !cfg_get_bool("smpi/oversubscribe")) {
    free(slots);
    if (o.hostfile)
      return fail("-np %ld asks for more processes than the %zu slot%s of hostfile '%s'; add "
                  "slots ('host:slots') or pass --cfg=smpi/oversubscribe:yes to place the ranks "
                  "round-robin",
                  o.np, nslots, nslots == 1 ? "" : "s", o.hostfile);
    return fail("-np %ld asks for more processes than the %zu host%s of platform %s; pass a "
                "hostfile with slots ('host:slots') or --cfg=smpi/oversubscribe:yes to place "
                "the ranks round-robin",
                o.np, nslots, nslots == 1 ? "" : "s", smpi_w.platform_name);
  }

  /* the world */
  if (eng_init(err, sizeof err) != 0)
    return fail("%s", err);
  if (cpu_model_init(launch.routes, err, sizeof err) != 0 ||
      net_model_init(launch.routes, err, sizeof err) != 0)
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
  eng_on_switch(on_switch);
  if (smpi_trace_init(err, sizeof err) != 0)
    return fail("%s", err);

  struct timespec w0, w1;
  clock_gettime(CLOCK_MONOTONIC, &w0);
  launch.running = true;
  smpi_progress_start();
  rc = eng_run();
  smpi_progress_end();
  launch.running = false;
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
