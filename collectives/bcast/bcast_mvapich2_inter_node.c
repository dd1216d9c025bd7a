/* MVAPICH2's inter-node broadcast stage, used on its own (SimGrid's mvapich2_inter_node): a
 * root that is not its host's leader sends the buffer to that leader, then the hosts'
 * leaders broadcast among themselves with what SimGrid's mpich selector picks on their
 * communicator (coll_mv2.h; its mvapich2 selector would pick by size).
 *
 *   8 ranks on 2 hosts, root 5:   5 -> 4;  then leaders 0 and 4: 4 -> 0
 *
 * As in SimGrid, the ranks that are not leaders do not receive the buffer: this is the
 * first stage of the two-level bcast (mvapich2_intra_node, the mvapich2 selector), which
 * then broadcasts inside each host. Picked by the mvapich2 selector, it runs the
 * algorithms of its tables (coll_features.inner) among the leaders, then in each host. */
#include "collectives/coll_mv2.h"

int coll_bcast_mvapich2_inter_node(coll_ctx *x, const coll_args *a)
{
  int leaders = x->size / x->ppn;
  size_t bytes = (size_t)a->rcount * smpi_dt_size(a->rdt);
  int in_hosts = x->inner[1];
  coll_alg_id lead = x->inner[0] ? (coll_alg_id)(x->inner[0] - 1)
                                 : coll_mv2_mpich_bcast(bytes, leaders);
  coll_mv2_bcast_inter_node(x, a, lead);
  if (!in_hosts)
    return x->err;
  /* the mvapich2 selector's bcast: then inside each host, from its leader */
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  coll_args h = *a;
  h.root = 0;
  return coll_run_group(x, &intra, intra.n, COLL_bcast, (coll_alg_id)(in_hosts - 1), &h);
}
