/* libc functions whose state is per process, given to each rank: getopt's parse.
 *
 * optind, optarg, opterr and optopt are swapped per rank at every switch (privatize.c), so a
 * rank reads its own optind after its loop. glibc also keeps the position inside the current
 * argv element in a hidden static; a rank that starts a parse (its optind is 1) while that
 * static still describes another rank's parse would continue the other's cluster of short
 * options. So when the caller of getopt is not the rank that called it last, and starts a
 * parse, optind is set to 0 for that call: glibc's documented full reset.
 *
 *   rank 0: getopt(...) x 3, returns -1      rank 1: getopt(...)  optind 1 -> 0: reset
 *
 * Mechanism: interposition (libsmpi.so is loaded before libc: the program's calls and its
 * libraries' land here; outside a running rank these are libc's own). A parse interrupted by
 * an MPI call between two getopt calls, while another rank parses, is the one case left. */
#include <dlfcn.h>
#include <getopt.h>
#include <unistd.h>

#include "smpi/runtime/world.h"
#include "smpi/smpi.h"

SMPI_PUBLIC int getopt(int argc, char *const argv[], const char *optstring);
SMPI_PUBLIC int __posix_getopt(int argc, char *const argv[], const char *optstring);
SMPI_PUBLIC int getopt_long(int argc, char *const argv[], const char *optstring,
                            const struct option *longopts, int *longindex);
SMPI_PUBLIC int getopt_long_only(int argc, char *const argv[], const char *optstring,
                                 const struct option *longopts, int *longindex);

static struct libc_getopt_state {
  const smpi_rank *last; /* the rank whose parse glibc's hidden state describes */
  int (*getopt)(int, char *const[], const char *);
  int (*posix_getopt)(int, char *const[], const char *);
  int (*getopt_long)(int, char *const[], const char *, const struct option *, int *);
  int (*getopt_long_only)(int, char *const[], const char *, const struct option *, int *);
} libc_getopt;

static void getopt_enter(void)
{
  const smpi_rank *me = smpi_self();
  if (!me || me == libc_getopt.last)
    return;
  libc_getopt.last = me;
  if (optind == 1)
    optind = 0;
}

int getopt(int argc, char *const argv[], const char *optstring)
{
  if (!libc_getopt.getopt)
    *(void **)&libc_getopt.getopt = dlsym(RTLD_NEXT, "getopt");
  getopt_enter();
  return libc_getopt.getopt(argc, argv, optstring);
}

/* what <unistd.h> calls getopt in a strict POSIX compilation (no _GNU_SOURCE) */
int __posix_getopt(int argc, char *const argv[], const char *optstring)
{
  if (!libc_getopt.posix_getopt)
    *(void **)&libc_getopt.posix_getopt = dlsym(RTLD_NEXT, "__posix_getopt");
  getopt_enter();
  return libc_getopt.posix_getopt(argc, argv, optstring);
}

int getopt_long(int argc, char *const argv[], const char *optstring,
                const struct option *longopts, int *longindex)
{
  if (!libc_getopt.getopt_long)
    *(void **)&libc_getopt.getopt_long = dlsym(RTLD_NEXT, "getopt_long");
  getopt_enter();
  return libc_getopt.getopt_long(argc, argv, optstring, longopts, longindex);
}

int getopt_long_only(int argc, char *const argv[], const char *optstring,
                     const struct option *longopts, int *longindex)
{
  if (!libc_getopt.getopt_long_only)
    *(void **)&libc_getopt.getopt_long_only = dlsym(RTLD_NEXT, "getopt_long_only");
  getopt_enter();
  return libc_getopt.getopt_long_only(argc, argv, optstring, longopts, longindex);
}
