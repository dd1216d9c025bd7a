/* MVAPICH2's inter-node broadcast stage, used on its own (SimGrid's mvapich2_inter_node): a
 * root that is not its host's leader sends the buffer to that leader, then the hosts'
 * leaders broadcast among themselves with what SimGrid's mpich selector picks on their
 * communicator (coll_mv2.h; its mvapich2 selector would pick by size).
 *
 *   8 ranks on 2 hosts, root 5:   5 -> 4;  then leaders 0 and 4: 4 -> 0
 *
 * As in SimGrid, the ranks that are not leaders do not receive the buffer: this is the
 * first stage of the two-level bcast (mvapich2_intra_node, the mvapich2 selector), which
 * then broadcasts inside each host. */
#include "collectives/coll_mv2.h"

int coll_bcast_mvapich2_inter_node(coll_ctx *x, const coll_args *a)
{
  int leaders = x->size / x->ppn;
  size_t bytes = (size_t)a->rcount * smpi_dt_size(a->rdt);
  return coll_mv2_bcast_inter_node(x, a, coll_mv2_mpich_bcast(bytes, leaders));
}
