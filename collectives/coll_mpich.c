/* MPICH building blocks (see coll_mpich.h). */
#include "collectives/coll_mpich.h"

/* Relative rank r receives blocks [r, r + lowbit(r)) from r - lowbit(r), then hands the
 * upper halves of that range to r + mask for decreasing masks below lowbit(r). */
void coll_mpich_scatter_for_bcast(coll_ctx *x, char *buf, size_t nbytes, int root, size_t ss)
{
  int n = x->size, r = (x->rank - root + n) % n;
  const smpi_dt *byte = coll_byte();
  int mask = 1;
  while (mask < n) {
    if (r & mask) {
      size_t got = coll_mpich_range(nbytes, ss, (size_t)r, (size_t)r + (size_t)mask);
      if (got)
        coll_recv(x, buf + (size_t)r * ss, got, byte, (x->rank - mask + n) % n, COLL_TAG_BCAST);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (r + mask >= n)
      continue;
    size_t c = (size_t)(r + mask);
    size_t give = coll_mpich_range(nbytes, ss, c, c + (size_t)mask);
    if (give)
      coll_send(x, buf + c * ss, give, byte, (x->rank + mask) % n, COLL_TAG_BCAST);
  }
}
