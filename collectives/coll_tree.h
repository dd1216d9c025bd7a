/* Communication trees of Open MPI's coll/base (the shapes its tuned algorithms and their
 * SimGrid ports use), built for one rank: its parent and its children, in the order the
 * algorithms serve them. Ranks are communicator ranks; the root's parent is -1.
 *
 *   coll_tree_kary(f)       f-ary tree level by level, in ranks shifted so the root is 0:
 *                           level l holds f^l nodes; node s of level l has children
 *                           s + f^l * (1..f). Binary (f = 2), 7 ranks: 0 -> 1 2;
 *                           1 -> 3 5; 2 -> 4 6.
 *   coll_tree_chain(f)      f chains hanging from the root; f = 1 is the pipeline
 *                           0 -> 1 -> 2 -> ...; with f = 2 and 7 ranks: 0 -> 1 4;
 *                           1 -> 2 -> 3; 4 -> 5 -> 6.
 *   coll_tree_bmtree        binomial tree, children by increasing subtree size:
 *                           8 ranks: 0 -> 1 2 4; 1 -> 3 5; 2 -> 6; 3 -> 7.
 *   coll_tree_in_order_bmtree  binomial tree where a rank's parent is itself with the
 *                           lowest set bit cleared (children by increasing mask):
 *                           8 ranks: 0 -> 1 2 4; 2 -> 3; 4 -> 5 6; 6 -> 7.
 *   coll_tree_in_order_bintree binary tree whose in-order walk is the rank order, with
 *                           the root at rank size - 1 (used where operand order matters:
 *                           non-commutative reductions). */
#ifndef SMPI_COLLECTIVES_COLL_TREE_H
#define SMPI_COLLECTIVES_COLL_TREE_H

#define COLL_TREE_MAX_FANOUT 32 /* Open MPI's MAXTREEFANOUT: larger fanouts are clamped */

typedef struct coll_tree {
  int parent; /* -1 at the root */
  int nchildren;
  int children[COLL_TREE_MAX_FANOUT]; /* communicator ranks */
} coll_tree;

void coll_tree_kary(coll_tree *t, int fanout, int rank, int size, int root);
void coll_tree_chain(coll_tree *t, int fanout, int rank, int size, int root);
void coll_tree_bmtree(coll_tree *t, int rank, int size, int root);
void coll_tree_in_order_bmtree(coll_tree *t, int rank, int size, int root);
void coll_tree_in_order_bintree(coll_tree *t, int rank, int size);

#endif
