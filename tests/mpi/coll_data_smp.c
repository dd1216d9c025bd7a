/* coll_data_smp: data correctness of the SMP-aware algorithms (smp_*) with 4 ranks per
 * host (run with coll_smp_hosts.txt: host1:4 .. host16:4 of the built-in platform), so that
 * they really split hosts from leaders; communicator sizes that are not multiples of 4
 * exercise their fallback. See coll_check.h. */
#define COLL_CHECK_NAME "coll_data_smp"
#define COLL_CHECK_LIST "reduce", "allreduce"
#define COLL_CHECK_ONLY_PREFIX "smp_"
#include "coll_check.h"

int main(int argc, char **argv) { return coll_check_main(argc, argv); }
