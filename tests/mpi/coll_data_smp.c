/* coll_data_smp: data correctness of the SMP-aware algorithms (smp_* and the others below) with 4 ranks per
 * host (run with coll_smp_hosts.txt: host1:4 .. host16:4 of the built-in platform), so that
 * they really split hosts from leaders; communicator sizes that are not multiples of 4
 * exercise their fallback. See coll_check.h. */
#define COLL_CHECK_NAME "coll_data_smp"
#define COLL_CHECK_LIST \
  "barrier", "bcast", "gather", "scatter", "allgather", "reduce", "allreduce"
#include <string.h>
#include <strings.h>
/* SimGrid's SMP-aware names: smp_*, SMP_*, mpich_smp, loosely_lr, mvapich2_two_level*,
 * mvapich2_intra_node, mvapich2_smp (not mvapich2_inter_node: as SimGrid's, it only
 * reaches the hosts' leaders), and the mvapich2 selector's choices */
static int smp_aware(const char *algo)
{
  return !strncasecmp(algo, "smp_", 4) || !strcmp(algo, "mpich_smp") ||
         !strcmp(algo, "loosely_lr") || !strncmp(algo, "mvapich2_two_level", 18) ||
         !strcmp(algo, "mvapich2_intra_node") || !strcmp(algo, "mvapich2_smp") ||
         !strcmp(algo, "mvapich2");
}
#define COLL_CHECK_ONLY(algo) smp_aware(algo)
#include "coll_check.h"

int main(int argc, char **argv) { return coll_check_main(argc, argv); }
