/* Reduce_scatter by butterfly (Open MPI's butterfly after J. L. Traff, EuroPVM/MPI 2005;
 * SimGrid's ompi_butterfly): any size, any op (operand order kept).
 *
 *   1. p = the largest power of two <= n, rem = n - p. Among ranks 0 .. 2 rem - 1, each
 *      even rank sends its whole vector to rank + 1 and drops out; the others get virtual
 *      ranks v (odd r < 2 rem: r / 2; r >= 2 rem: r - rem). The vector is cut into p parts:
 *      part j holds the blocks of ranks 2j, 2j + 1 for j < rem, of rank j + rem after.
 *   2. For mask = 1, 2, ..., p/2: exchange with v ^ mask the half of the remaining parts
 *      that the other keeps (the lower v keeps the lower half) and combine, the lower v's
 *      data as left operand. Virtual rank v ends with part m(v), m = the bit mirror.
 *   3. Part m(v) goes to its owners: the dropped-out rank's block first (one send), then
 *      the own block is swapped with the virtual rank m(v) (or copied when m(v) = v).
 *
 *   n = 6: p = 4, rem = 2; 0 -> 1, 2 -> 3; v = 0 1 2 3 for ranks 1 3 4 5; m = 0 2 1 3. */
#include "collectives/coll_private.h"

/* first element and length of the parts lo .. hi (step 1's numbering) */
static size_t part_at(const size_t *disps, int rem, int j)
{
  return disps[j < rem ? 2 * j : j + rem];
}
static size_t parts_len(const size_t *disps, const int *rcounts, int rem, int lo, int hi)
{
  int l = lo < rem ? 2 * lo : lo + rem, h = hi < rem ? 2 * hi + 1 : hi + rem;
  return disps[h] + (size_t)rcounts[h] - disps[l];
}

static int mirror(int v, int bits)
{
  int m = 0;
  for (int b = 0; b < bits; b++)
    if (v & (1 << b))
      m |= 1 << (bits - 1 - b);
  return m;
}

int coll_reduce_scatter_ompi_butterfly(coll_ctx *x, const coll_args *a)
{
  int n = x->size, me = x->rank;
  const smpi_dt *dt = a->rdt;
  size_t total = (size_t)a->scount;
  const int *rc = a->rcounts;
  size_t *disps = coll_tmp(x, (size_t)n * sizeof *disps);
  disps[0] = 0;
  for (int i = 1; i < n; i++)
    disps[i] = disps[i - 1] + (size_t)rc[i - 1];
  char *psend = coll_tmp_dt(x, total ? total : 1, dt);
  char *precv = coll_tmp_dt(x, total ? total : 1, dt);
  coll_copy(x, a->sbuf, total, a->sdt, psend, total, dt);
  if (n < 2) {
    coll_copy(x, psend, total, dt, a->rbuf, total, dt);
    return x->err;
  }
  int p = coll_pof2_floor(n), rem = n - p, bits = 0, v;
  while ((1 << bits) < p)
    bits++;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      coll_send(x, psend, total, dt, me + 1, COLL_TAG_REDUCE_SCATTER);
      v = -1;
    } else {
      coll_recv(x, precv, total, dt, me - 1, COLL_TAG_REDUCE_SCATTER);
      coll_reduce(x, a, precv, psend, total); /* the even neighbour's data on the left */
      v = me / 2;
    }
  } else
    v = me - rem;
  if (v < 0) {
    int vp = mirror((me + 1) / 2, bits);
    int peer = vp < rem ? vp * 2 + 1 : vp + rem;
    coll_recv(x, a->rbuf, (size_t)rc[me], dt, peer, COLL_TAG_REDUCE_SCATTER);
    return x->err;
  }
  int nparts = p, send_i = 0, recv_i = 0;
  for (int mask = 1; mask < p; mask <<= 1) {
    int vpeer = v ^ mask, peer = vpeer < rem ? vpeer * 2 + 1 : vpeer + rem;
    nparts /= 2;
    if ((v & mask) == 0)
      send_i += nparts;
    else
      recv_i += nparts;
    size_t sl = parts_len(disps, rc, rem, send_i, send_i + nparts - 1);
    size_t rl = parts_len(disps, rc, rem, recv_i, recv_i + nparts - 1);
    size_t so = part_at(disps, rem, send_i), ro = part_at(disps, rem, recv_i);
    coll_sendrecv(x, coll_at(psend, so, dt), sl, dt, peer, coll_at(precv, ro, dt), rl, dt, peer,
                  COLL_TAG_REDUCE_SCATTER);
    if (v < vpeer) { /* mine on the left: the result lands in precv, which becomes psend */
      coll_reduce(x, a, coll_at(psend, ro, dt), coll_at(precv, ro, dt), rl);
      char *t = psend;
      psend = precv;
      precv = t;
    } else
      coll_reduce(x, a, coll_at(precv, ro, dt), coll_at(psend, ro, dt), rl);
    send_i = recv_i;
  }
  int vp = mirror(v, bits), peer = vp < rem ? vp * 2 + 1 : vp + rem;
  int idx = send_i < rem ? 2 * send_i : rem + send_i;
  if (vp < rem) {
    coll_send(x, coll_at(psend, disps[idx], dt), (size_t)rc[idx], dt, peer - 1,
              COLL_TAG_REDUCE_SCATTER);
    idx++;
  }
  if (vp != v)
    coll_sendrecv(x, coll_at(psend, disps[idx], dt), (size_t)rc[idx], dt, peer, a->rbuf,
                  (size_t)rc[me], dt, peer, COLL_TAG_REDUCE_SCATTER);
  else
    coll_copy(x, coll_at(psend, disps[me], dt), (size_t)rc[me], dt, a->rbuf, (size_t)rc[me], dt);
  return x->err;
}
