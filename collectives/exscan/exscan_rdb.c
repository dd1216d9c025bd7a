/* Exscan by recursive doubling (MPICH): the scan's algorithm (scan_rdb.c) where the answer
 * only accumulates what comes from lower ranks. Rank 0's receive buffer is left alone. */
#include "collectives/coll_private.h"

int coll_exscan_rdb(coll_ctx *x, const coll_args *a) { return coll_scan_rdb_any(x, a, true); }
