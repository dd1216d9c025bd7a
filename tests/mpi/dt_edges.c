/* dt_edges: edge cases of datatypes, groups and topologies that MPICH's suite exercises:
 *   - MPI_Type_get_name of a handle that two standard names share gives MPI_C_COMPLEX for
 *     MPI_C_COMPLEX / MPI_C_FLOAT_COMPLEX and MPI_LONG_LONG_INT for MPI_LONG_LONG (MPICH);
 *   - indexed, hindexed and struct types whose leading blocks have length 0 (MPI 3.1
 *     section 4.1.6: a zero-length block does not set the bounds): extent, true extent, size,
 *     data sent through them, MPI_Get_count/MPI_Get_elements of a full and a short receive;
 *     a type whose blocks are all empty;
 *   - MPI_Group_incl of zero ranks is MPI_GROUP_EMPTY (section 6.3.2);
 *   - MPI_Cart_sub keeping no dimension gives a zero-dimensional Cartesian communicator of
 *     one process (MPI 4.0 section 8.5.8), not MPI_COMM_NULL, at the grid's origin at least.
 * Any number of ranks (the suite uses 2). Plain MPI: the test runs it under MPICH too. */
#define MPITEST_NAME "dt_edges"
#include "mpitest.h"

#include <string.h>

static void names(void)
{
  char n[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Type_get_name(MPI_C_COMPLEX, n, &len);
  CHECK(strcmp(n, "MPI_C_COMPLEX") == 0, "MPI_C_COMPLEX is named %s", n);
  MPI_Type_get_name(MPI_LONG_LONG, n, &len);
  CHECK(strcmp(n, "MPI_LONG_LONG_INT") == 0, "MPI_LONG_LONG is named %s", n);
  MPI_Type_get_name(MPI_C_DOUBLE_COMPLEX, n, &len);
  CHECK(strcmp(n, "MPI_C_DOUBLE_COMPLEX") == 0, "MPI_C_DOUBLE_COMPLEX is named %s", n);
}

static void bounds(MPI_Datatype t, const char *what, MPI_Aint lb, MPI_Aint ext, MPI_Aint tlb,
                   MPI_Aint text, int size)
{
  MPI_Aint l, e, tl, te;
  int s;
  MPI_Type_get_extent(t, &l, &e);
  MPI_Type_get_true_extent(t, &tl, &te);
  MPI_Type_size(t, &s);
  CHECK(l == lb && e == ext && tl == tlb && te == text && s == size,
        "%s: lb %ld extent %ld true lb %ld true extent %ld size %d, expected %ld %ld %ld %ld %d",
        what, (long)l, (long)e, (long)tl, (long)te, s, (long)lb, (long)ext, (long)tlb, (long)text,
        size);
}

static void zero_blocks(void)
{
  /* indexed: blocks (0 at 5), (2 at 1), (1 at 6) ints: data at ints 1, 2, 6 */
  int bl[3] = {0, 2, 1}, dis[3] = {5, 1, 6};
  MPI_Datatype t;
  MPI_Type_indexed(3, bl, dis, MPI_INT, &t);
  MPI_Type_commit(&t);
  bounds(t, "indexed", 4, 24, 4, 24, 12);
  int src[8], dst[8];
  for (int i = 0; i < 8; i++)
    src[i] = 10 + i, dst[i] = -1;
  MPI_Sendrecv(src, 1, t, 0, 0, dst, 1, t, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  int want[8] = {-1, 11, 12, -1, -1, -1, 16, -1};
  for (int i = 0; i < 8; i++)
    CHECK(dst[i] == want[i], "indexed: [%d] = %d, expected %d", i, dst[i], want[i]);
  /* a short receive: 2 ints into 1 of t -> count undefined, 2 elements */
  MPI_Status st;
  int cnt, el;
  for (int i = 0; i < 8; i++)
    dst[i] = -1;
  MPI_Sendrecv(src, 2, MPI_INT, 0, 0, dst, 1, t, 0, 0, MPI_COMM_SELF, &st);
  MPI_Get_count(&st, t, &cnt);
  MPI_Get_elements(&st, t, &el);
  CHECK(cnt == MPI_UNDEFINED && el == 2, "indexed, short: count %d, elements %d", cnt, el);
  CHECK(dst[1] == 10 && dst[2] == 11 && dst[6] == -1, "indexed, short: %d %d %d", dst[1], dst[2],
        dst[6]);
  MPI_Type_free(&t);

  /* struct: a zero-length double at 0, then an int at 8 and a char at 16 */
  int sbl[3] = {0, 1, 1};
  MPI_Aint sd[3] = {0, 8, 16};
  MPI_Datatype st3[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
  MPI_Type_create_struct(3, sbl, sd, st3, &t);
  MPI_Type_commit(&t);
  bounds(t, "struct", 8, 12, 8, 9, 5);
  MPI_Type_free(&t);

  /* hindexed of ints: a zero-length block first */
  MPI_Aint hd[3] = {0, 8, 16};
  MPI_Type_create_hindexed(3, sbl, hd, MPI_INT, &t);
  MPI_Type_commit(&t);
  bounds(t, "hindexed", 8, 12, 8, 12, 8);
  MPI_Type_free(&t);

  /* every block empty: nothing moves, count 0 */
  int zb[3] = {0, 0, 0};
  MPI_Type_create_hindexed(3, zb, hd, MPI_INT, &t);
  MPI_Type_commit(&t);
  bounds(t, "empty hindexed", 0, 0, 0, 0, 0);
  MPI_Request q;
  MPI_Irecv(NULL, 2, t, 0, 1, MPI_COMM_SELF, &q);
  MPI_Send(NULL, 1, t, 0, 1, MPI_COMM_SELF);
  MPI_Wait(&q, &st);
  MPI_Get_count(&st, t, &cnt);
  MPI_Get_elements(&st, t, &el);
  CHECK(cnt == 0 && el == 0, "empty hindexed: count %d, elements %d", cnt, el);
  MPI_Type_free(&t);
}

static void groups_topos(void)
{
  MPI_Group w, g;
  int res;
  MPI_Comm_group(MPI_COMM_WORLD, &w);
  MPI_Group_incl(w, 0, NULL, &g);
  MPI_Group_compare(g, MPI_GROUP_EMPTY, &res);
  CHECK(g == MPI_GROUP_EMPTY && res == MPI_IDENT, "Group_incl of nobody: %s",
        g == MPI_GROUP_EMPTY ? "MPI_GROUP_EMPTY" : "another group");
  if (g != MPI_GROUP_EMPTY)
    MPI_Group_free(&g);
  MPI_Group_free(&w);

  MPI_Comm cart, sub;
  int dims[2] = {0, 0}, per[2] = {0, 1}, keep[2] = {0, 0};
  MPI_Dims_create(wsize(), 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
  MPI_Cart_sub(cart, keep, &sub);
  /* the process at the grid's origin gets one at least (MPICH 4.0.2 gives MPI_COMM_NULL to
   * the others, as MPI_Cart_create with no dimension would) */
  int crank;
  MPI_Comm_rank(cart, &crank);
  if (crank == 0)
    CHECK(sub != MPI_COMM_NULL, "Cart_sub keeping nothing gave MPI_COMM_NULL");
  if (sub != MPI_COMM_NULL) {
    int nd = -1, size = -1, kind = -1;
    MPI_Cartdim_get(sub, &nd);
    MPI_Comm_size(sub, &size);
    MPI_Topo_test(sub, &kind);
    CHECK(nd == 0 && size == 1 && kind == MPI_CART, "Cart_sub keeping nothing: %d dims, %d ranks",
          nd, size);
    MPI_Comm_free(&sub);
  }
  MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  names();
  zero_blocks();
  groups_topos();
  return mpitest_finalize();
}
