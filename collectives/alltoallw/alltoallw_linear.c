/* Alltoallw, linear and nonblocking: every receive and send posted at once; displacements
 * are in bytes and every peer has its own datatypes. */
#include "collectives/coll_private.h"

int coll_alltoallw_linear(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  coll_copy(x, (const char *)a->sbuf + a->wsdispls[me], (size_t)a->scounts[me], a->sdts[me],
            (char *)a->rbuf + a->wrdispls[me], (size_t)a->rcounts[me], a->rdts[me]);
  for (int k = 1; k < n; k++) {
    int src = (me + k) % n;
    coll_irecv(x, (char *)a->rbuf + a->wrdispls[src], (size_t)a->rcounts[src], a->rdts[src], src,
               COLL_TAG_ALLTOALLW);
  }
  for (int k = 1; k < n; k++) {
    int dst = (me + n - k) % n;
    coll_isend(x, (const char *)a->sbuf + a->wsdispls[dst], (size_t)a->scounts[dst], a->sdts[dst],
               dst, COLL_TAG_ALLTOALLW);
  }
  coll_wait(x);
  return x->err;
}
