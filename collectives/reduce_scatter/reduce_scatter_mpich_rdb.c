/* Reduce_scatter by recursive doubling (MPICH's algorithm for non-commutative ops;
 * SimGrid's mpich_rdb). In step i a rank swaps with rank ^ 2^i every block except those
 * of its own subtree of 2^i ranks (it keeps no responsibility for them), and folds what it
 * receives, in rank order; sizes that are not powers of two pass results on to the ranks
 * without partner (MPICH's have-nots step). Each message is the two block ranges outside
 * a subtree, packed. Any op. */
#include "collectives/coll_private.h"

/* elements of the blocks outside [root, root + mask): [0, lo) and [hi, end) */
typedef struct outside {
  size_t len0, off1, len1;
} outside;

static outside outside_of(const size_t *pos, int n, int root, int mask)
{
  int hi = root + mask < n ? root + mask : n;
  int r = root < n ? root : n;
  outside o = {pos[r], pos[hi], pos[n] - pos[hi]};
  return o;
}

static void pack2(coll_ctx *x, const void *buf, const smpi_dt *dt, outside o, char *out)
{
  coll_pack(x, buf, o.len0, dt, out);
  coll_pack(x, coll_at(buf, o.off1, dt), o.len1, dt, out + o.len0 * smpi_dt_size(dt));
}
static void unpack2(coll_ctx *x, const char *in, const smpi_dt *dt, outside o, void *buf)
{
  coll_unpack(x, in, o.len0, dt, buf);
  coll_unpack(x, in + o.len0 * smpi_dt_size(dt), o.len1, dt, coll_at(buf, o.off1, dt));
}

int coll_reduce_scatter_mpich_rdb(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  const smpi_dt *dt = a->rdt, *byte = coll_byte();
  size_t dts = smpi_dt_size(dt);
  size_t *pos = coll_tmp(x, ((size_t)n + 1) * sizeof *pos);
  pos[0] = 0;
  for (int i = 0; i < n; i++)
    pos[i + 1] = pos[i] + (size_t)a->rcounts[i];
  size_t count = pos[n];
  bool commutative = smpi_op_is_commutative(a->op);
  char *res = coll_tmp_dt(x, count, dt), *rcv = coll_tmp_dt(x, count, dt);
  /* packed data: folded with the rest when the rank's contribution is (coll_fold_decide) */
  char *sbytes = coll_tmp_dt(x, count * dts, byte), *rbytes = coll_tmp_dt(x, count * dts, byte);
  coll_copy(x, a->sbuf, count, a->sdt, res, count, dt);
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int dst = me ^ mask, dst_root = dst >> i << i, my_root = me >> i << i;
    outside so = outside_of(pos, n, my_root, mask), ro = outside_of(pos, n, dst_root, mask);
    size_t sb = (so.len0 + so.len1) * dts, rb = (ro.len0 + ro.len1) * dts;
    bool received = false;
    if (dst < n) {
      pack2(x, res, dt, so, sbytes);
      coll_sendrecv(x, sbytes, sb, byte, dst, rbytes, rb, byte, dst, COLL_TAG_REDUCE_SCATTER);
      unpack2(x, rbytes, dt, ro, rcv);
      received = true;
    }
    if (dst_root + mask > n) {
      int done = n - my_root - mask, k = 0;
      for (int j = mask; j; j >>= 1)
        k++;
      k--;
      for (int tmask = mask >> 1; tmask; tmask >>= 1, k--) {
        int d = me ^ tmask, tree_root = me >> k << k;
        if (d > me && me < tree_root + done && d >= tree_root + done) {
          pack2(x, rcv, dt, ro, rbytes);
          coll_send(x, rbytes, rb, byte, d, COLL_TAG_REDUCE_SCATTER);
        } else if (d < me && d < tree_root + done && me >= tree_root + done) {
          coll_recv(x, rbytes, rb, byte, d, COLL_TAG_REDUCE_SCATTER);
          unpack2(x, rbytes, dt, ro, rcv);
          received = true;
        }
      }
    }
    if (received) {
      if (commutative || dst_root < my_root) {
        coll_reduce(x, a, rcv, res, ro.len0);
        coll_reduce(x, a, coll_at(rcv, ro.off1, dt), coll_at(res, ro.off1, dt), ro.len1);
      } else {
        coll_reduce(x, a, res, rcv, ro.len0);
        coll_reduce(x, a, coll_at(res, ro.off1, dt), coll_at(rcv, ro.off1, dt), ro.len1);
        coll_copy(x, rcv, ro.len0, dt, res, ro.len0, dt);
        coll_copy(x, coll_at(rcv, ro.off1, dt), ro.len1, dt, coll_at(res, ro.off1, dt), ro.len1,
                  dt);
      }
    }
  }
  coll_copy(x, coll_at(res, pos[me], dt), (size_t)a->rcounts[me], dt, a->rbuf,
            (size_t)a->rcounts[me], dt);
  return x->err;
}
