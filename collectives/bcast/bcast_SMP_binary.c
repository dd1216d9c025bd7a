/* SMP-aware pipelined binary-tree broadcast (SimGrid's SMP_binary). Hosts hold equal blocks
 * of ppn consecutive ranks; host h's leader is rank h * ppn.
 *
 *   - a root other than rank 0 first sends the whole buffer to rank 0;
 *   - the leaders form a binary heap over hosts (host h feeds hosts 2h+1 and 2h+2), each
 *     host a binary heap over its ranks (local rank l feeds 2l+1 and 2l+2);
 *   - a rank receives from its parent, then sends to its leader children (leaders only)
 *     and its host children, in that order, with blocking sends;
 *   - above 8 KiB the buffer goes in 8 KiB segments: a rank posts the receives of all
 *     segments, then forwards each one as it arrives. The count % segment tail is then
 *     broadcast by a second call of the Bcast smpi/bcast names (itself, when forced).
 *
 *   8 ranks, 2 per host: 0 -> 2, 4, 1;  2 -> 6, 3;  4 -> 5;  6 -> 7 */
#include "collectives/bcast/bcast_smp.h"

int coll_bcast_SMP_binary(coll_ctx *x, const coll_args *a)
{
  int me = x->rank, n = x->size, ppn = x->ppn;
  bcast_smp_plan plan = bcast_smp_start(x, a);
  int host = me / ppn, local = me % ppn, base = host * ppn;
  int kids[4], nkids = 0, parent = -1;
  if (local == 0) {
    if (me != 0)
      parent = (host - 1) / 2 * ppn;
    for (int c = 1; c <= 2; c++)
      if ((2 * host + c) * ppn < n)
        kids[nkids++] = (2 * host + c) * ppn;
  } else {
    parent = base + (local - 1) / 2;
  }
  for (int c = 1; c <= 2; c++)
    if (2 * local + c < ppn)
      kids[nkids++] = base + 2 * local + c;
  return bcast_smp_forward(x, a, &plan, parent, kids, nkids);
}
