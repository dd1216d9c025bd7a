/* MVAPICH2's two-level gather as SimGrid runs it outside its mvapich2 selector (SimGrid's
 * mvapich2_two_level; that selector would pick the intra-host algorithm by size):
 *
 *   1. each host gathers its ranks' blocks to its leader (lowest rank) along Open MPI's
 *      in-order binomial tree (SimGrid's mpich choice for gather), as bytes;
 *   2. the leaders send their host's blocks, one message each, to the leader of the root's
 *      host, which receives them one at a time in host order (Open MPI's basic linear);
 *   3. that leader sends everything to the root if the root is not itself.
 *
 *   4 ranks on 2 hosts, root 0:   1 -> 0, 3 -> 2 (intra);  2 -> 0 (2 blocks; leaders)
 *
 * Everything moves as bytes in scratch memory; the root unpacks at the end. */
#include "collectives/coll_group.h"
#include "collectives/coll_tree.h"

/* step 1 inside host g: own block (bytes) in, the host's blocks at member 0's out */
static void gather_host(coll_ctx *x, const coll_group *g, const char *own, size_t bytes,
                        char *out)
{
  int n = g->n, v = g->me;
  coll_tree t;
  coll_tree_in_order_bmtree(&t, v, n, 0);
  char *buf = v == 0 ? out : t.nchildren ? coll_tmp(x, bytes * (size_t)n) : (char *)own;
  const smpi_dt *byte = coll_byte();
  if (buf != own)
    coll_copy(x, own, bytes, byte, buf, bytes, byte);
  size_t have = 1;
  for (int i = 0; i < t.nchildren; i++) {
    int vk = t.children[i];
    size_t nb = (size_t)(vk - v);
    if (nb > (size_t)(n - vk))
      nb = (size_t)(n - vk);
    coll_recv(x, buf + have * bytes, nb * bytes, byte, coll_group_rank(g, vk), COLL_TAG_GATHER);
    have += nb;
  }
  if (v != 0)
    coll_send(x, buf, have * bytes, byte, coll_group_rank(g, t.parent), COLL_TAG_GATHER);
}

int coll_gather_mvapich2_two_level(coll_ctx *x, const coll_args *a)
{
  int me = x->rank, n = x->size, root = a->root;
  const smpi_dt *byte = coll_byte();
  /* every rank's block, the root's too (in place: sbuf points into rbuf) */
  size_t bytes = (size_t)a->scount * smpi_dt_size(a->sdt);
  if (bytes == 0)
    return x->err;
  coll_group intra, inter;
  coll_group_smp(x, &intra, &inter);
  int ppn = intra.n, root_leader = root - root % ppn;
  char *own = coll_tmp(x, bytes);
  coll_pack(x, a->sbuf, (size_t)a->scount, a->sdt, own);
  char *host = intra.me == 0 ? coll_tmp(x, bytes * (size_t)ppn) : NULL;
  gather_host(x, &intra, own, bytes, host);
  char *all = NULL;
  size_t hbytes = bytes * (size_t)ppn;
  if (inter.me >= 0) {
    if (me == root_leader) {
      all = coll_tmp(x, bytes * (size_t)n);
      for (int i = 0; i < inter.n; i++) {
        if (i == inter.me)
          coll_copy(x, host, hbytes, byte, all + (size_t)i * hbytes, hbytes, byte);
        else
          coll_recv(x, all + (size_t)i * hbytes, hbytes, byte, coll_group_rank(&inter, i),
                    COLL_TAG_GATHER);
      }
    } else {
      coll_send(x, host, hbytes, byte, root_leader, COLL_TAG_GATHER);
    }
  }
  if (root != root_leader) {
    if (me == root_leader)
      coll_send(x, all, bytes * (size_t)n, byte, root, COLL_TAG_GATHER);
    else if (me == root) {
      all = coll_tmp(x, bytes * (size_t)n);
      coll_recv(x, all, bytes * (size_t)n, byte, root_leader, COLL_TAG_GATHER);
    }
  }
  if (me == root)
    coll_unpack(x, all, (size_t)a->rcount * (size_t)n, a->rdt, a->rbuf);
  return x->err;
}
