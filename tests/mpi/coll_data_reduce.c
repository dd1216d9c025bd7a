/* coll_data_reduce: data correctness of reduce, allreduce, reduce_scatter, reduce_scatter_block, scan, exscan for every algorithm
 * (see coll_check.h). */
#define COLL_CHECK_NAME "coll_data_reduce"
#define COLL_CHECK_LIST \
  "reduce", "allreduce", "reduce_scatter", "reduce_scatter_block", "scan", "exscan"
#include "coll_check.h"

int main(int argc, char **argv) { return coll_check_main(argc, argv); }
