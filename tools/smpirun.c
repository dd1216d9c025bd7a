/* smpirun: launch a program built with smpicc as a simulated MPI job.
 *
 * It checks the command line, then execs the program itself with the options in the
 * SMPI_LAUNCH environment variable (smpi/launch/launch.h); the simulation runs inside the
 * program's process, so the program's exit code, stdout and stderr come through unchanged.
 * The simulator prints nothing on stdout unless asked. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smpi/launch/launch.h"
#include "src/cfg.h"

static const char *prog = "smpirun";

/* tracing flags (SimGrid's smpirun ones), turned into tracing/... keys after the loop */
static const char *trace, *trace_file, *trace_comment;
static char *trace_comment_file;
static bool trace_grouped;
static bool trace_resource; /* -trace-resource: SimGrid's categorized + uncategorized */

static void usage(FILE *out)
{
  fprintf(
      out,
      "Usage: smpirun [options] program [program arguments]\n"
      "Runs an MPI program built with smpicc in a simulated cluster.\n"
      "\n"
      "  -np N, -n N          number of MPI processes (default: every slot of the\n"
      "                       hostfile, or 1)\n"
      "  -platform FILE       platform description (SimGrid XML format, version 4.1);\n"
      "                       default: a built-in cluster with one host per process\n"
      "  -hostfile FILE       hosts to place the processes on, round-robin; lines are\n"
      "  -machinefile FILE    'host' or 'host:slots' (a host name of the platform)\n"
      "  --platform-set ELEMENT[ID]/ATTR=VALUE  change an attribute of the platform's\n"
      "                       elements (repeatable; e.g. cluster[c1]/bw=25GBps, host/speed=2Gf;\n"
      "                       docs/sweeps.md)\n"
      "  -map                 print which host each rank runs on (stderr)\n"
      "  --cfg=KEY:VALUE      set a simulator option (repeatable; --cfg=help lists them)\n"
      "  --log=CAT.thresh:LVL set the verbosity of a log category (repeatable)\n"
      "  -no-privatize        share global variables between ranks\n"
      "                       (= --cfg=smpi/privatization:no)\n"
      "  -replay TRACE        replay a time-independent trace (SimGrid's TI format)\n"
      "                       instead of running a program (docs/replay.md)\n"
      "  -wrapper CMD         run the program under CMD (e.g. \"valgrind\", \"gdb --args\")\n"
      "  -gdb, -lldb, -vgdb   run the program under gdb, lldb, or valgrind's gdb server\n"
      "                       (= -wrapper \"gdb --args\", \"lldb --\", \"valgrind --vgdb=yes\n"
      "                       --vgdb-error=0\")\n"
      "  -analyze             timings and leaks at the end (= --cfg=smpi/display-timing:yes\n"
      "                       --cfg=smpi/list-leaks:50)\n"
      "  -bandwidth BW, -latency LAT  links of the built-in platform (without -platform;\n"
      "                       with units, e.g. 1GBps, 5us; default 10Gbps, 1us)\n"
      "  -keep-temps, -tmpdir DIR, -foreground, -quiet\n"
      "                       SimGrid's, accepted: smpirun writes no temporary files and\n"
      "                       prints no launch lines (a note says so, except for -quiet)\n"
      "  -trace               write a Paje trace (default smpi_simgrid.trace; = "
      "--cfg=tracing:yes;\n"
      "                       --cfg=tracing/format:json for Perfetto, see docs/tracing.md)\n"
      "  -trace-ti            write a time-independent trace for -replay (smpi_simgrid.txt)\n"
      "  -trace-file FILE     name of the trace file\n"
      "  -trace-comment TEXT  comment line at the top of the trace\n"
      "  -trace-comment-file FILE  the lines of FILE as comments at the top of the trace\n"
      "  -trace-grouped       group the ranks by host in the Paje trace\n"
      "  -trace-resource      with -trace: hosts' and links' use, per tracing category too\n"
      "                       (= --cfg=tracing/categorized:yes --cfg=tracing/uncategorized:yes)\n"
      "  -help-coll           list the collective algorithms and selectors (no program needed)\n"
      "  -version             print the version of smpi\n"
      "  --help, -help        this message\n"
      "\n"
      "Example: smpirun -np 16 -platform cluster.xml --cfg=smpi/display-timing:yes ./app 100\n");
}

static void die(const char *fmt, const char *arg)
{
  fprintf(stderr, "%s: ", prog);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(1);
}

/* Growable launch string */
static char *launch;
static size_t launch_len, launch_cap;

static void add_field(const char *key, const char *value)
{
  if (strchr(value, SMPI_LAUNCH_SEP))
    die("option value contains the character 0x1f, which smpirun cannot pass on: %s", value);
  size_t need = launch_len + strlen(key) + strlen(value) + 3;
  if (need > launch_cap) {
    launch_cap = need * 2;
    launch = realloc(launch, launch_cap);
    if (!launch)
      die("out of memory%s", "");
  }
  if (launch_len)
    launch[launch_len++] = SMPI_LAUNCH_SEP;
  launch_len += (size_t)sprintf(launch + launch_len, "%s=%s", key, value);
}

/* The absolute path of an input file. Only regular files (and, for the loader's own message,
 * directories) are taken: the simulator reads them whole, so a FIFO would block it and a pipe
 * such as /dev/stdin has no path it could reopen (realpath says "No such file"). */
static char *absolute(const char *path, const char *what)
{
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    fprintf(stderr,
            "%s: cannot use %s '%s': it is %s, not a regular file (save it to a file first)\n",
            prog, what, path,
            S_ISFIFO(st.st_mode)   ? "a FIFO or pipe"
            : S_ISCHR(st.st_mode)  ? "a character device"
            : S_ISBLK(st.st_mode)  ? "a block device"
            : S_ISSOCK(st.st_mode) ? "a socket"
                                   : "a special file");
    exit(1);
  }
  char *abs = realpath(path, NULL);
  if (!abs) {
    fprintf(stderr, "%s: cannot open %s '%s': %s\n", prog, what, path, strerror(errno));
    exit(1);
  }
  return abs;
}

/* Was the program linked by smpicc? Look for the marker string in its file. */
static bool built_with_smpicc(const char *path)
{
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return true; /* let exec report the problem */
  struct stat st;
  bool found = true;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      found = memmem(map, (size_t)st.st_size, SMPI_PROGRAM_MARKER, strlen(SMPI_PROGRAM_MARKER)) !=
              NULL;
      munmap(map, (size_t)st.st_size);
    }
  }
  close(fd);
  return found;
}

/* Resolve a program name like execvp would, to inspect it. */
static char *find_program(const char *name)
{
  if (strchr(name, '/'))
    return access(name, X_OK) == 0 ? strdup(name) : NULL;
  const char *path = getenv("PATH");
  if (!path)
    path = "/usr/bin:/bin";
  char buf[PATH_MAX];
  while (*path) {
    const char *colon = strchr(path, ':');
    size_t n = colon ? (size_t)(colon - path) : strlen(path);
    snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", name);
    if (access(buf, X_OK) == 0)
      return strdup(buf);
    path += n + (colon ? 1 : 0);
  }
  return NULL;
}

/* The replay program smpirun -replay runs: installed next to smpirun (build tree too). */
static char *replay_program(void)
{
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return NULL;
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (!slash || (size_t)(slash - self) + sizeof "/smpi-replay" > sizeof self)
    return NULL;
  strcpy(slash, "/smpi-replay");
  return access(self, X_OK) == 0 ? strdup(self) : NULL;
}

static const char *need_value(int argc, char **argv, int *i)
{
  if (*i + 1 >= argc)
    die("option %s needs a value (see smpirun --help)", argv[*i]);
  return argv[++*i];
}

/* smpi/huge-heap must be decided before the program starts: glibc reads its tunables when the
 * program is loaded, so the launcher, not the simulation, gives the program a heap advised
 * huge pages (glibc.malloc.hugetlb=1: malloc madvises what it takes from the system). Page
 * faults in a program's buffers then cost one per 2 MiB rather than one per 4 KiB; the
 * simulation reads the key again, to count first touches at the right cost and to refuse it
 * where the launcher cannot see it (a platform file's config). */
static struct {
  bool on; /* --cfg=smpi/huge-heap:yes (or true, on, 1); off by default (docs/emulation.md) */
} huge_heap;

static void note_cfg(const char *kv)
{
  static const char key[] = "smpi/huge-heap:";
  if (strncmp(kv, key, sizeof key - 1))
    return;
  bool on = false; /* not a boolean: off here, and the simulation says what is wrong */
  cfg_parse_bool(kv + sizeof key - 1, &on);
  huge_heap.on = on;
}

/* GLIBC_TUNABLES gains glibc.malloc.hugetlb=1, unless the user chose a hugetlb mode there */
static void give_huge_heap(void)
{
  const char *t = getenv("GLIBC_TUNABLES");
  if (!huge_heap.on || (t && strstr(t, SMPI_HUGETLB_TUNABLE)))
    return;
  static const char ours[] = SMPI_HUGETLB_TUNABLE "1";
  size_t n = (t ? strlen(t) + 1 : 0) + sizeof ours;
  char *v = malloc(n);
  if (!v)
    die("out of memory%s", "");
  snprintf(v, n, "%s%s%s", t ? t : "", t && *t ? ":" : "", ours);
  setenv("GLIBC_TUNABLES", v, 1);
  free(v);
  add_field("huge-heap", "1");
}

int main(int argc, char **argv)
{
  const char *wrapper = NULL;
  char *replay_trace = NULL;
  int i = 1;
  bool have_np = false, help_only = false;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-')
      break;
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if (!strcmp(a, "-np") || !strcmp(a, "-n") || !strcmp(a, "--np")) {
      const char *v = need_value(argc, argv, &i);
      char *end;
      errno = 0;
      long np = strtol(v, &end, 10);
      if (*v == 0 || *end || errno || np <= 0 || np > 10000000)
        die("-np needs a positive number of processes, not '%s'", v);
      add_field("np", v);
      have_np = true;
    } else if (!strcmp(a, "-platform")) {
      char *abs = absolute(need_value(argc, argv, &i), "platform file");
      add_field("platform", abs);
      free(abs);
    } else if (!strcmp(a, "-hostfile") || !strcmp(a, "-machinefile")) {
      char *abs = absolute(need_value(argc, argv, &i), "hostfile");
      add_field("hostfile", abs);
      free(abs);
    } else if (!strcmp(a, "--platform-set") || !strncmp(a, "--platform-set=", 15)) {
      add_field("platform-set", a[14] ? a + 15 : need_value(argc, argv, &i));
    } else if (!strcmp(a, "-map")) {
      add_field("map", "1");
    } else if (!strncmp(a, "--cfg=", 6)) {
      if (!strcmp(a + 6, "help")) {
        add_field("help", "cfg");
        help_only = true;
      } else if (!strncmp(a + 6, "smpi/replay:", 12)) {
        /* SimGrid's spelling of -replay */
        replay_trace = absolute(a + 18, "trace file");
      } else {
        note_cfg(a + 6);
        add_field("cfg", a + 6);
      }
    } else if (!strcmp(a, "-help-coll") || !strcmp(a, "--help-coll")) {
      add_field("help", "coll");
      help_only = true;
    } else if (!strcmp(a, "--cfg")) {
      const char *kv = need_value(argc, argv, &i);
      note_cfg(kv);
      add_field("cfg", kv);
    } else if (!strncmp(a, "--log=", 6)) {
      add_field("log", a + 6);
    } else if (!strcmp(a, "--log")) {
      add_field("log", need_value(argc, argv, &i));
    } else if (!strcmp(a, "-no-privatize")) {
      add_field("cfg", "smpi/privatization:no");
    } else if (!strcmp(a, "-replay")) {
      replay_trace = absolute(need_value(argc, argv, &i), "trace file");
    } else if (!strcmp(a, "-trace") || !strcmp(a, "-trace-ti")) {
      trace = a[6] ? "TI" : trace ? trace : "Paje";
    } else if (!strcmp(a, "-trace-file")) {
      trace_file = need_value(argc, argv, &i);
    } else if (!strcmp(a, "-trace-comment")) {
      trace_comment = need_value(argc, argv, &i);
    } else if (!strcmp(a, "-trace-comment-file")) {
      char *abs = absolute(need_value(argc, argv, &i), "trace comment file");
      trace_comment_file = abs;
    } else if (!strcmp(a, "-trace-grouped")) {
      trace_grouped = true;
    } else if (!strcmp(a, "-wrapper")) {
      wrapper = need_value(argc, argv, &i);
    } else if (!strcmp(a, "-gdb")) { /* SimGrid's debugger shortcuts, same commands */
      wrapper = "gdb --args";
    } else if (!strcmp(a, "-lldb")) {
      wrapper = "lldb --";
    } else if (!strcmp(a, "-vgdb")) {
      wrapper = "valgrind --vgdb=yes --vgdb-error=0";
    } else if (!strcmp(a, "-analyze")) {
      /* SimGrid's also sets smpi/display-allocs and smpi/pedantic, which smpi lacks */
      add_field("cfg", "smpi/display-timing:yes");
      add_field("cfg", "smpi/list-leaks:50");
    } else if (!strcmp(a, "-keep-temps") || !strcmp(a, "-foreground")) {
      /* SimGrid's smpirun writes a platform, a hostfile and program copies to a temporary
       * directory, and runs the program in the background; smpi needs neither */
      fprintf(stderr, "%s: note: %s accepted for SimGrid compatibility: not needed here (%s)\n",
              prog, a,
              a[1] == 'k' ? "smpirun writes no temporary files"
                          : "the program always runs in the foreground");
    } else if (!strcmp(a, "-tmpdir")) {
      const char *dir = need_value(argc, argv, &i);
      fprintf(stderr,
              "%s: note: -tmpdir %s accepted for SimGrid compatibility: not needed here "
              "(smpirun writes no temporary files)\n",
              prog, dir);
    } else if (!strcmp(a, "-bandwidth") || !strcmp(a, "-latency")) {
      /* the links of the built-in platform (SimGrid: of its generated one) */
      const char *v = need_value(argc, argv, &i);
      if (!*v || strpbrk(v, "\"'<>&"))
        die("%s needs a value with its unit, e.g. 1GBps or 5us", a);
      add_field(a + 1, v);
    } else if (!strcmp(a, "-trace-resource")) {
      trace_resource = true;
    } else if (!strcmp(a, "-quiet")) {
      /* SimGrid's hides its launch lines: smpirun prints none */
    } else if (!strcmp(a, "-version") || !strcmp(a, "--version")) {
      printf("smpirun (smpi) %s\n", SMPI_VERSION_STRING);
      return 0;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "%s: unknown option '%s' (see smpirun --help)\n", prog, a);
      return 1;
    }
  }
  if (replay_trace) {
    /* argv becomes: [replay program] TRACE [its arguments]; without a program of the
     * user's, smpi-replay (SimGrid: smpireplaymain) */
    char *rp = i < argc ? NULL : replay_program();
    if (i >= argc && !rp) {
      fprintf(stderr, "%s: cannot find smpi-replay next to smpirun (is smpi fully installed?)\n",
              prog);
      return 127;
    }
    char **nargv = calloc((size_t)(argc - i) + 3, sizeof *nargv);
    int k = 0;
    nargv[k++] = rp ? rp : argv[i++];
    nargv[k++] = replay_trace;
    while (i < argc)
      nargv[k++] = argv[i++];
    argv = nargv;
    argc = k;
    i = 0;
  }
  if (i >= argc && help_only) {
    /* SimGrid prints -help-coll / --cfg=help without a program: any program linked with
     * smpi answers, and smpi-replay is installed next to smpirun */
    static char *help_argv[2];
    help_argv[0] = replay_program();
    if (help_argv[0]) {
      argv = help_argv;
      argc = 1;
      i = 0;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "%s: no program to run (see smpirun --help)\n", prog);
    return 1;
  }
  (void)have_np;
  if (trace_resource && !trace)
    fprintf(stderr, "%s: note: -trace-resource has no effect without -trace (as in SimGrid)\n",
            prog);
  if (trace_resource && trace) {
    add_field("cfg", "tracing/categorized:yes");
    add_field("cfg", "tracing/uncategorized:yes");
  }
  if (trace) {
    add_field("cfg", "tracing:yes");
    add_field("cfg", "tracing/smpi:yes");
    add_field("cfg", strcmp(trace, "TI") ? "tracing/smpi/format:Paje" : "tracing/smpi/format:TI");
  }
  const struct {
    const char *key, *value;
  } trace_keys[] = {{"tracing/filename", trace_file},
                    {"tracing/comment", trace_comment},
                    {"tracing/comment-file", trace_comment_file},
                    {"tracing/smpi/group", trace_grouped ? "yes" : NULL}};
  for (size_t k = 0; k < sizeof trace_keys / sizeof *trace_keys; k++)
    if (trace_keys[k].value) {
      char *kv = malloc(strlen(trace_keys[k].key) + strlen(trace_keys[k].value) + 2);
      if (!kv)
        die("out of memory%s", "");
      sprintf(kv, "%s:%s", trace_keys[k].key, trace_keys[k].value);
      add_field("cfg", kv);
      free(kv);
    }
  free(trace_comment_file);
  char *path = find_program(argv[i]);
  if (!path) {
    fprintf(stderr, "%s: cannot find program '%s' (not found or not executable)\n", prog,
            argv[i]);
    return 127;
  }
  if (!built_with_smpicc(path)) {
    fprintf(stderr,
            "%s: '%s' was not built with smpicc: it would run natively, once, outside the "
            "simulation; rebuild it with smpicc\n",
            prog, argv[i]);
    free(path);
    return 1;
  }
  add_field("version", SMPI_LAUNCH_VERSION);
  give_huge_heap();
  setenv(SMPI_LAUNCH_ENV, launch, 1);

  char **args;
  int nargs = argc - i;
  if (wrapper) {
    /* the wrapper command is split on spaces, like SimGrid's -wrapper */
    char *w = strdup(wrapper);
    int nw = 0;
    char *words[64];
    for (char *tok = strtok(w, " "); tok && nw < 63; tok = strtok(NULL, " "))
      words[nw++] = tok;
    if (nw == 0)
      die("-wrapper needs a command%s", "");
    args = calloc((size_t)(nw + nargs + 1), sizeof *args);
    for (int k = 0; k < nw; k++)
      args[k] = words[k];
    args[nw] = path;
    for (int k = 1; k < nargs; k++)
      args[nw + k] = argv[i + k];
    execvp(args[0], args);
    fprintf(stderr, "%s: cannot run wrapper '%s': %s\n", prog, args[0], strerror(errno));
    return 127;
  }
  args = calloc((size_t)nargs + 1, sizeof *args);
  args[0] = argv[i];
  for (int k = 1; k < nargs; k++)
    args[k] = argv[i + k];
  execv(path, args);
  fprintf(stderr, "%s: cannot run '%s': %s\n", prog, path, strerror(errno));
  free(args); /* (LeakSanitizer checks the launcher's error paths too) */
  free(path);
  return 127;
}
