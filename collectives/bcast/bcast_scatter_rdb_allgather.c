/* Broadcast = binomial scatter + recursive-doubling allgather (MPICH's medium-message
 * algorithm for a power-of-two size, SimGrid's scatter_rdb_allgather). After the scatter,
 * in step i relative rank r swaps everything its subtree of 2^i ranks holds with rank
 * r ^ 2^i. With a size that is not a power of two some ranks have no partner in a step;
 * ranks of their subtree that did get the partner's data then pass it on down a binomial
 * tree (MPICH's "haves send to the have-nots").
 *
 * Sizes are computed, not read from statuses: after step i everyone in a subtree rooted
 * at T holds bytes [T ss, (T + 2^(i+1)) ss) of the buffer (clipped to it). */
#include "collectives/coll_mpich.h"

int coll_bcast_scatter_rdb_allgather(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root;
  if (n == 1)
    return x->err;
  coll_bytes b;
  coll_bytes_get(x, a, &b);
  size_t nb = b.nbytes, ss = (nb + (size_t)n - 1) / (size_t)n;
  coll_mpich_scatter_for_bcast(x, b.buf, nb, root, ss);
  const smpi_dt *byte = coll_byte();
  int r = (me - root + n) % n;
  size_t curr = coll_mpich_range(nb, ss, (size_t)r, (size_t)r + 1);
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int rdst = r ^ mask;
    size_t dst_root = (size_t)(rdst >> i << i), my_root = (size_t)(r >> i << i);
    /* what the partner's subtree holds */
    size_t recv_size = coll_mpich_range(nb, ss, dst_root, dst_root + (size_t)mask);
    if (rdst < n) {
      coll_sendrecv(x, b.buf + my_root * ss, curr, byte, (rdst + root) % n, b.buf + dst_root * ss,
                    recv_size, byte, (rdst + root) % n, COLL_TAG_BCAST);
      curr += recv_size;
    }
    if (dst_root + (size_t)mask > (size_t)n) {
      /* part of the other subtree does not exist: pass its data on inside ours */
      int done = n - (int)my_root - mask;
      int k = 0;
      for (int jj = mask; jj; jj >>= 1)
        k++;
      k--;
      size_t off = ss * (my_root + (size_t)mask);
      for (int tmask = mask >> 1; tmask; tmask >>= 1, k--) {
        int rd = r ^ tmask;
        int tree_root = r >> k << k;
        if (rd > r && r < tree_root + done && rd >= tree_root + done) {
          coll_send(x, b.buf + off, recv_size, byte, (rd + root) % n, COLL_TAG_BCAST);
        } else if (rd < r && rd < tree_root + done && r >= tree_root + done) {
          coll_recv(x, b.buf + off, recv_size, byte, (rd + root) % n, COLL_TAG_BCAST);
          curr += recv_size;
        }
      }
    }
  }
  coll_bytes_done(x, a, &b);
  return x->err;
}
