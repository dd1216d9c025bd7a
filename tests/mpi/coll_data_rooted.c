/* coll_data_rooted: data correctness of barrier, bcast, gather, gatherv, scatter, scatterv for every algorithm
 * (see coll_check.h). */
#define COLL_CHECK_NAME "coll_data_rooted"
#define COLL_CHECK_LIST "barrier", "bcast", "gather", "gatherv", "scatter", "scatterv"
#include "coll_check.h"

int main(int argc, char **argv) { return coll_check_main(argc, argv); }
