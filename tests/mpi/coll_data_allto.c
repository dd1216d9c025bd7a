/* coll_data_allto: data correctness of allgather, allgatherv, alltoall, alltoallv, alltoallw for every algorithm
 * (see coll_check.h). */
#define COLL_CHECK_NAME "coll_data_allto"
#define COLL_CHECK_LIST "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"
#include "coll_check.h"

int main(int argc, char **argv) { return coll_check_main(argc, argv); }
