/* SMP-aware pipelined linear broadcast (SimGrid's SMP_linear). Hosts hold equal blocks of
 * ppn consecutive ranks; host h's leader is rank h * ppn.
 *
 *   - on a single host: the binomial tree (SimGrid's default bcast);
 *   - a root other than rank 0 first sends the whole buffer to rank 0;
 *   - the leaders form a chain (rank r feeds r + ppn) and each host a chain from its leader
 *     (rank r feeds r + 1); a leader sends to the next leader first, then into its host;
 *   - above 8 KiB the buffer goes in 8 KiB segments: a rank posts the receives of all
 *     segments, then forwards each one as it arrives; the count % segment tail is then
 *     broadcast by a second call of the Bcast smpi/bcast names (itself, when forced).
 *
 *   8 ranks, 4 per host: 0 -> 4, 1;  4 -> 5;  1 -> 2 -> 3;  5 -> 6 -> 7
 *
 * With one rank per host SimGrid's leader sends every segment twice to the same rank (as
 * the next leader and as its host's next rank), and the second copies stay unreceived;
 * smpi sends once (one chain). */
#include "collectives/bcast/bcast_smp.h"

int coll_bcast_SMP_linear(coll_ctx *x, const coll_args *a)
{
  int me = x->rank, n = x->size, ppn = x->ppn;
  if (n <= ppn)
    return coll_bcast_binomial_tree(x, a);
  bcast_smp_plan plan = bcast_smp_start(x, a);
  int kids[2], nkids = 0, parent;
  if (me % ppn == 0) {
    parent = me == 0 ? -1 : me - ppn;
    if (me + ppn < n)
      kids[nkids++] = me + ppn;
  } else {
    parent = me - 1;
  }
  if (ppn > 1 && (me + 1) % ppn != 0 && me + 1 < n)
    kids[nkids++] = me + 1;
  return bcast_smp_forward(x, a, &plan, parent, kids, nkids);
}
