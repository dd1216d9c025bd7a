/* Broadcast, split binary tree (Open MPI). The buffer is cut in two halves; the root
 * sends the first half down its left subtree (odd shifted ranks) and the second down its
 * right subtree (even shifted ranks), in segments, with blocking sends; then every rank
 * swaps halves with its mirror in the other subtree (shifted rank s pairs with s + 1;
 * with an even size the last rank gets its missing half from the root).
 *
 *   7 ranks, root 0:     0           left half: 1 -> 3, 5     right half: 2 -> 4, 6
 *                      1   2         then 1<->2, 3<->4, 5<->6 exchange halves
 *                     3 5 4 6
 *
 * Segments: 1 KiB below 370728 bytes, 8 KiB above (Open MPI's decision thresholds, which
 * SimGrid 3.32 also applies when the algorithm is forced). When a half is smaller than a
 * segment it is Open MPI's pipeline (chain) instead. Cut in bytes (coll_bytes_get). */
#include "collectives/coll_ompi.h"

int coll_bcast_ompi_split_bintree(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank, root = a->root;
  if (n == 1)
    return x->err;
  coll_bytes b;
  coll_bytes_get(x, a, &b);
  /* in units of the basic type, then in bytes for the messages */
  size_t dts = b.unit, count = b.nbytes / dts;
  size_t segsize = x->segsize && x->segsize != COLL_SEG_WHOLE ? x->segsize
                   : b.nbytes < 370728                        ? 1024
                                                              : 8192;
  size_t counts[2] = {(count + 1) / 2, count / 2};
  size_t segsz = segsize < dts ? dts : segsize;
  size_t segc = segsz / dts;
  if (counts[0] == 0 || counts[1] == 0 || segsz > counts[0] * dts || segsz > counts[1] * dts) {
    coll_tree t;
    coll_tree_chain(&t, 1, me, n, root);
    coll_ompi_bcast_generic(x, b.buf, b.nbytes, coll_byte(), &t,
                            coll_ompi_segcount(segsize, dts, count) * dts, COLL_TAG_BCAST);
    coll_bytes_done(x, a, &b);
    return x->err;
  }
  size_t nseg[2] = {(counts[0] + segc - 1) / segc, (counts[1] + segc - 1) / segc};
  /* from here on, counts and segments in bytes */
  counts[0] *= dts;
  counts[1] *= dts;
  segc *= dts;
  const smpi_dt *byte = coll_byte();
  char *half[2] = {b.buf, b.buf + counts[0]};
  coll_tree t;
  coll_tree_kary(&t, 2, me, n, root);
  int s = (me - root + n) % n;
  int lr = (s + 1) % 2; /* 0: left subtree (odd s), 1: right (even s, and the root) */
  if (me == root) {
    for (size_t g = 0; g < nseg[0]; g++)
      for (int i = 0; i < t.nchildren && i < 2; i++) {
        if (g >= nseg[i])
          continue;
        size_t cnt = g == nseg[i] - 1 ? counts[i] - g * segc : segc;
        coll_send(x, half[i] + g * segc, cnt, byte, t.children[i], COLL_TAG_BCAST);
      }
  } else if (t.nchildren == 0) { /* leaves take the segments one by one */
    for (size_t g = 0; g < nseg[lr]; g++)
      coll_recv(x, half[lr] + g * segc, g == nseg[lr] - 1 ? counts[lr] - g * segc : segc, byte,
                t.parent, COLL_TAG_BCAST);
  } else { /* inner ranks keep one receive ahead and forward with blocking sends */
    size_t ns = nseg[lr];
    int cur = coll_irecv(x, half[lr], ns == 1 ? counts[lr] : segc, byte, t.parent,
                         COLL_TAG_BCAST);
    for (size_t g = 1; g <= ns; g++) {
      int next = -1;
      if (g < ns)
        next = coll_irecv(x, half[lr] + g * segc, g == ns - 1 ? counts[lr] - g * segc : segc,
                          byte, t.parent, COLL_TAG_BCAST);
      coll_wait_req(x, cur);
      size_t cnt = g == ns ? counts[lr] - (g - 1) * segc : segc;
      for (int i = 0; i < t.nchildren; i++)
        coll_send(x, half[lr] + (g - 1) * segc, cnt, byte, t.children[i], COLL_TAG_BCAST);
      cur = next;
    }
    coll_wait(x);
  }
  int pair = lr == 0 ? (me + 1) % n : (me - 1 + n) % n;
  int other = lr ^ 1;
  if (n % 2) {
    if (me != root)
      coll_sendrecv(x, half[lr], counts[lr], byte, pair, half[other], counts[other], byte, pair,
                    COLL_TAG_BCAST);
  } else if (me == root) {
    coll_send(x, half[1], counts[1], byte, (root + n - 1) % n, COLL_TAG_BCAST);
  } else if (me == (root + n - 1) % n) {
    coll_recv(x, half[1], counts[1], byte, root, COLL_TAG_BCAST);
  } else {
    coll_sendrecv(x, half[lr], counts[lr], byte, pair, half[other], counts[other], byte, pair,
                  COLL_TAG_BCAST);
  }
  coll_bytes_done(x, a, &b);
  return x->err;
}
