/* THE list of collectives and algorithms. Everything else is generated from it: the
 * prototypes and the lookup table (coll_private.h, coll.c), the smpi/<collective>
 * configuration keys with their accepted values, `smpirun -help-coll`, and the tables of
 * docs/collectives.md (tools/coll-doc.c).
 *
 * Adding an algorithm = its file collectives/<coll>/<coll>_<name>.c defining
 *   int coll_<coll>_<name>(coll_ctx *x, const coll_args *args)
 * plus one COLL_ALGO line here. Names follow SimGrid's where it has the same algorithm, so
 * that --cfg=smpi/bcast:scatter_LR_allgather means the same thing in both simulators.
 *
 * COLL_COLLECTIVE(name, MPI function, what "bytes" means for the selectors)
 * COLL_ALGO(collective, name, requirement flags (COLL_F_*), description) */
#ifndef SMPI_COLLECTIVES_COLL_LIST_H
#define SMPI_COLLECTIVES_COLL_LIST_H

#define COLL_COLLECTIVES(COLL_COLLECTIVE)                                                   \
  COLL_COLLECTIVE(barrier, "MPI_Barrier", "-")                                              \
  COLL_COLLECTIVE(bcast, "MPI_Bcast", "the buffer")                                         \
  COLL_COLLECTIVE(gather, "MPI_Gather", "one rank's block")                                 \
  COLL_COLLECTIVE(gatherv, "MPI_Gatherv", "this rank's block")                              \
  COLL_COLLECTIVE(scatter, "MPI_Scatter", "one rank's block")                               \
  COLL_COLLECTIVE(scatterv, "MPI_Scatterv", "this rank's block")                            \
  COLL_COLLECTIVE(allgather, "MPI_Allgather", "one rank's block")                           \
  COLL_COLLECTIVE(allgatherv, "MPI_Allgatherv", "this rank's block; total: all blocks")     \
  COLL_COLLECTIVE(alltoall, "MPI_Alltoall", "the block for one peer")                       \
  COLL_COLLECTIVE(alltoallv, "MPI_Alltoallv", "-")                                          \
  COLL_COLLECTIVE(alltoallw, "MPI_Alltoallw", "-")                                          \
  COLL_COLLECTIVE(reduce, "MPI_Reduce", "the vector")                                       \
  COLL_COLLECTIVE(allreduce, "MPI_Allreduce", "the vector")                                 \
  COLL_COLLECTIVE(reduce_scatter, "MPI_Reduce_scatter", "this rank's block; total: vector") \
  COLL_COLLECTIVE(reduce_scatter_block, "MPI_Reduce_scatter_block", "one block")            \
  COLL_COLLECTIVE(scan, "MPI_Scan", "the vector")                                           \
  COLL_COLLECTIVE(exscan, "MPI_Exscan", "the vector")

#define COLL_ALGORITHMS(COLL_ALGO)                                                               \
  /* ---- barrier ---- */                                                                        \
  COLL_ALGO(barrier, ompi_basic_linear, COLL_SG,                                                 \
            "everyone sends to rank 0, which then sends to everyone (Open MPI basic linear)")    \
  COLL_ALGO(barrier, ompi_two_procs, COLL_F_SIZE2 | COLL_SG,                                     \
            "one exchange between the two ranks")                                                \
  COLL_ALGO(barrier, ompi_doublering, COLL_SG, "a token goes twice around the ring")             \
  COLL_ALGO(barrier, ompi_recursivedoubling, COLL_SG,                                            \
            "exchanges with rank ^ 2^k; extra ranks above the power of two fold in first")       \
  COLL_ALGO(barrier, ompi_bruck, COLL_SG,                                                        \
            "dissemination: round k talks to rank +- 2^k (any size)")                            \
  COLL_ALGO(barrier, ompi_tree, COLL_SG, "fan-in to rank 0 along a binomial tree, then fan-out") \
  COLL_ALGO(barrier, mvapich2_pair, COLL_SG,                                                     \
            "MVAPICH2 pairwise: the messages of ompi_recursivedoubling")                         \
  COLL_ALGO(barrier, mpich_smp, COLL_F_SMP | COLL_SG,                                            \
            "dissemination in hosts and among leaders, 1-byte release")                          \
  /* ---- bcast ---- */                                                                          \
  COLL_ALGO(bcast, binomial_tree, COLL_SG,                                                       \
            "binomial tree, blocking sends, largest subtree first")                              \
  COLL_ALGO(bcast, flattree, COLL_SG, "the root sends to every rank at once")                    \
  COLL_ALGO(bcast, flattree_pipeline, COLL_SG,                                                   \
            "flat tree in 8 KiB segments, all posted at once")                                   \
  COLL_ALGO(bcast, NTSL, COLL_SG, "pipelined linear chain, 8 KiB segments (STAR-MPI)")           \
  COLL_ALGO(bcast, NTSL_Isend, COLL_SG,                                                          \
            "NTSL with nonblocking sends in the short-message chain")                            \
  COLL_ALGO(bcast, NTSB, COLL_SG, "pipelined binary tree, 8 KiB segments (STAR-MPI)")            \
  COLL_ALGO(bcast, ompi_pipeline, COLL_SG,                                                       \
            "Open MPI pipeline: segmented chain, 16-128 KiB segments")                           \
  COLL_ALGO(bcast, ompi_split_bintree, COLL_SG,                                                  \
            "Open MPI split binary tree: halves down two subtrees, then pairwise swap")          \
  COLL_ALGO(bcast, scatter_LR_allgather, COLL_SG,                                                \
            "binomial scatter + ring allgather (van de Geijn; MPICH long messages)")             \
  COLL_ALGO(bcast, scatter_rdb_allgather, COLL_SG,                                               \
            "binomial scatter + recursive-doubling allgather (MPICH medium messages)")           \
  COLL_ALGO(bcast, knomial, 0, "4-nomial tree, children served at once")                         \
  COLL_ALGO(bcast, ompi_binomial, 0, "Open MPI binomial tree, children served at once")          \
  COLL_ALGO(bcast, SMP_binomial, COLL_F_SMP | COLL_SG,                                           \
            "binomial among host leaders, then binomial inside hosts")                           \
  COLL_ALGO(bcast, mvapich2_knomial_intra_node, COLL_SG,                                         \
            "4-nomial tree, one level of children at a time (MVAPICH2)")                         \
  COLL_ALGO(bcast, SMP_binary, COLL_F_SMP | COLL_SG,                                             \
            "binary trees among leaders and in hosts, 8 KiB segments pipelined")                 \
  COLL_ALGO(bcast, SMP_linear, COLL_F_SMP | COLL_SG,                                             \
            "chain of leaders, chain in each host, 8 KiB segments pipelined")                    \
  COLL_ALGO(bcast, mvapich2_inter_node, COLL_F_SMP | COLL_SG,                                    \
            "to the root's leader, then among hosts' leaders only (MVAPICH2's first stage)")     \
  COLL_ALGO(bcast, mvapich2_intra_node, COLL_F_SMP | COLL_SG,                                    \
            "MVAPICH2 two-level: leaders, then each host, in the middle sizes; else flat")       \
  COLL_ALGO(bcast, arrival_pattern_aware, COLL_SG,                                               \
            "rank 0 probes who has arrived, serves them as a chain (8 KiB segments)")            \
  COLL_ALGO(bcast, arrival_pattern_aware_wait, COLL_SG,                                          \
            "arrival_pattern_aware with three probe rounds per chain")                           \
  COLL_ALGO(bcast, arrival_scatter, COLL_SG,                                                     \
            "rank 0 probes who has arrived; scatter + ring allgather in each group")             \
  /* ---- gather ---- */                                                                         \
  COLL_ALGO(gather, linear, 0, "root posts every receive at once (SimGrid's default)")           \
  COLL_ALGO(gather, ompi_basic_linear, COLL_SG,                                                  \
            "root receives one block at a time, in rank order")                                  \
  COLL_ALGO(gather, ompi_binomial, COLL_SG, "in-order binomial tree, subtrees forwarded whole")  \
  COLL_ALGO(gather, ompi_linear_sync, COLL_SG,                                                   \
            "root asks each rank in turn; first segment synchronous")                            \
  COLL_ALGO(gather, mvapich2_two_level, COLL_F_SMP | COLL_SG,                                    \
            "binomial gather in hosts, leaders send to the root's leader one by one")            \
  /* ---- gatherv ---- */                                                                        \
  COLL_ALGO(gatherv, linear, 0, "root posts every receive at once")                              \
  /* ---- scatter ---- */                                                                        \
  COLL_ALGO(scatter, linear, 0, "root posts every send at once (SimGrid's default)")             \
  COLL_ALGO(scatter, ompi_basic_linear, COLL_SG,                                                 \
            "root sends one block at a time, in rank order")                                     \
  COLL_ALGO(scatter, ompi_binomial, COLL_SG, "in-order binomial tree, subtrees forwarded whole") \
  COLL_ALGO(scatter, ompi_linear_nb, COLL_SG, "root posts nonblocking sends in rank order")      \
  COLL_ALGO(scatter, mpich_binomial, 0, "binomial tree, largest subtree first (MPICH)")          \
  COLL_ALGO(scatter, mvapich2_two_level_direct, COLL_F_SMP | COLL_SG,                            \
            "leaders get their host's blocks one by one, then a binomial scatter in hosts")      \
  COLL_ALGO(scatter, mvapich2_two_level_binomial, COLL_F_SMP | COLL_SG,                          \
            "binomial scatter among leaders, then a binomial scatter in each host")              \
  /* ---- scatterv ---- */                                                                       \
  COLL_ALGO(scatterv, linear, 0, "root posts every send at once")                                \
  /* ---- allgather ---- */                                                                      \
  COLL_ALGO(allgather, linear, 0, "everyone posts a send to and a receive from every peer")      \
  COLL_ALGO(allgather, ring, COLL_SG, "step i: own block to rank + i, from rank - i")            \
  COLL_ALGO(allgather, ompi_ring, 0, "Open MPI ring: pass the last block on to rank + 1")        \
  COLL_ALGO(allgather, pair, COLL_F_POW2 | COLL_SG, "pairwise exchange with rank ^ i")           \
  COLL_ALGO(allgather, rdb, COLL_SG, "recursive doubling (MPICH; any size)")                     \
  COLL_ALGO(allgather, bruck, COLL_SG, "Bruck: blocks double each step towards rank - 2^k")      \
  COLL_ALGO(allgather, GB, COLL_SG, "gather to rank 0, then bcast")                              \
  COLL_ALGO(allgather, ompi_neighborexchange, COLL_SG, "neighbour exchange, 2 blocks per step")  \
  COLL_ALGO(allgather, 2dmesh, COLL_F_MESH2 | COLL_SG,                                           \
            "rows, then columns, all posted at once per phase")                                  \
  COLL_ALGO(allgather, 3dmesh, COLL_F_MESH3 | COLL_SG,                                           \
            "rows, columns, then planes of an X*X*Z mesh")                                       \
  COLL_ALGO(allgather, NTSLR, COLL_SG,                                                           \
            "logical ring, one blocking exchange per step (STAR-MPI)")                           \
  COLL_ALGO(allgather, NTSLR_NB, COLL_SG, "logical ring, every receive posted first (STAR-MPI)") \
  COLL_ALGO(allgather, spreading_simple, COLL_SG,                                                \
            "all at once, to and from rank + 1, rank + 2, ...")                                  \
  COLL_ALGO(allgather, rhv, COLL_F_POW2 | COLL_SG,                                               \
            "recursive doubling over bit-reversed positions, farthest first")                    \
  COLL_ALGO(allgather, smp_simple, COLL_F_SMP | COLL_SG,                                         \
            "inside hosts, leaders all at once, then a flat bcast in each host")                 \
  COLL_ALGO(allgather, loosely_lr, COLL_F_SMP | COLL_SG,                                         \
            "one logical ring per host-rank, host exchanges posted each round")                  \
  COLL_ALGO(allgather, SMP_NTS, COLL_F_SMP | COLL_SG,                                            \
            "inside hosts, then a ring of leaders forwarding chunks down host chains")           \
  COLL_ALGO(allgather, mvapich2_smp, COLL_F_SMP | COLL_SG,                                       \
            "gather in hosts, MPICH's allgather among leaders, bcast in hosts")                  \
  /* ---- allgatherv ---- */                                                                     \
  COLL_ALGO(allgatherv, linear, 0, "everyone posts a send to and a receive from every peer")     \
  COLL_ALGO(allgatherv, ring, COLL_SG, "step i: own block to rank + i, from rank - i")           \
  COLL_ALGO(allgatherv, mpich_ring, COLL_SG, "MPICH ring: pass the last block on to rank + 1")   \
  COLL_ALGO(allgatherv, pair, COLL_F_POW2 | COLL_SG, "pairwise exchange with rank ^ i")          \
  COLL_ALGO(allgatherv, mpich_rdb, COLL_SG, "recursive doubling (MPICH; any size)")              \
  COLL_ALGO(allgatherv, ompi_bruck, COLL_SG, "Bruck (Open MPI)")                                 \
  COLL_ALGO(allgatherv, GB, COLL_SG, "gatherv to rank 0, then bcast")                            \
  COLL_ALGO(allgatherv, ompi_neighborexchange, COLL_SG, "neighbour exchange, 2 blocks per step") \
  /* ---- alltoall ---- */                                                                       \
  COLL_ALGO(alltoall, basic_linear, COLL_SG, "every send and receive posted at once")            \
  COLL_ALGO(alltoall, pair, COLL_F_POW2 | COLL_SG, "pairwise exchange with rank ^ i")            \
  COLL_ALGO(alltoall, ring, COLL_SG, "step i: send to rank + i, receive from rank - i")          \
  COLL_ALGO(alltoall, bruck, COLL_SG, "Bruck: log2 n steps of packed blocks")                    \
  COLL_ALGO(alltoall, 2dmesh, COLL_SG,                                                           \
            "rows exchange whole buffers, then columns exchange blocks")                         \
  COLL_ALGO(alltoall, 3dmesh, COLL_F_MESH3 | COLL_SG,                                            \
            "rows and columns swap whole buffers, then planes swap blocks")                      \
  COLL_ALGO(alltoall, rdb, COLL_SG,                                                              \
            "recursive-doubling allgather of whole send buffers (n^2 blocks of memory)")         \
  COLL_ALGO(alltoall, mpich_scattered, 0, "batches of 32 peers posted at once (MPICH medium)")   \
  COLL_ALGO(alltoall, mpich_pairwise, 0,                                                         \
            "n-1 exchanges: rank ^ i (powers of two) or +-i (MPICH long)")                       \
  COLL_ALGO(alltoall, ompi_pairwise, 0, "n-1 exchanges with rank + i / rank - i (Open MPI)")     \
  COLL_ALGO(alltoall, mvapich2_scatter_dest, COLL_SG,                                            \
            "batches of 4 peers posted at once, own block a message (MVAPICH2)")                 \
  COLL_ALGO(alltoall, pair_light_barrier, COLL_F_POW2 | COLL_SG,                                 \
            "rank ^ i; 1-byte handshake with the next partners between steps")                   \
  COLL_ALGO(alltoall, pair_mpi_barrier, COLL_F_POW2 | COLL_SG,                                   \
            "rank ^ i; Barrier before every step")                                               \
  COLL_ALGO(alltoall, pair_one_barrier, COLL_F_POW2 | COLL_SG,                                   \
            "rank ^ i; one Barrier, then the steps")                                             \
  COLL_ALGO(alltoall, ring_light_barrier, COLL_SG,                                               \
            "ring; 1-byte handshake with the next partners between steps")                       \
  COLL_ALGO(alltoall, ring_mpi_barrier, COLL_SG, "ring; Barrier before every step")              \
  COLL_ALGO(alltoall, ring_one_barrier, COLL_SG, "ring; one Barrier, then the steps")            \
  COLL_ALGO(alltoall, pair_rma, COLL_F_POW2 | COLL_SG,                                           \
            "MPI_Put to rank ^ i between two fences of a window on the receive buffers")         \
  /* ---- alltoallv ---- */                                                                      \
  COLL_ALGO(alltoallv, linear, 0, "every send and receive posted at once")                       \
  COLL_ALGO(alltoallv, pair, COLL_F_POW2 | COLL_SG, "pairwise exchange with rank ^ i")           \
  COLL_ALGO(alltoallv, ring, COLL_SG, "step i: send to rank + i, receive from rank - i")         \
  COLL_ALGO(alltoallv, bruck, COLL_SG, "MPICH's scattered algorithm in batches of 4 peers")      \
  COLL_ALGO(alltoallv, ompi_basic_linear, COLL_SG, "Open MPI: every send and receive at once")   \
  COLL_ALGO(alltoallv, ompi_pairwise, 0, "n-1 exchanges with rank + i / rank - i (Open MPI)")    \
  COLL_ALGO(alltoallv, mpich_scattered, 0, "batches of 32 peers posted at once (MPICH)")         \
  COLL_ALGO(alltoallv, pair_light_barrier, COLL_F_POW2 | COLL_SG,                                \
            "rank ^ i; 1-byte handshake with the next partners between steps")                   \
  COLL_ALGO(alltoallv, pair_mpi_barrier, COLL_F_POW2 | COLL_SG,                                  \
            "rank ^ i; Barrier before every step")                                               \
  COLL_ALGO(alltoallv, pair_one_barrier, COLL_F_POW2 | COLL_SG,                                  \
            "rank ^ i; one Barrier, then the steps")                                             \
  COLL_ALGO(alltoallv, ring_light_barrier, COLL_SG,                                              \
            "ring; 1-byte handshake with the next partners between steps")                       \
  COLL_ALGO(alltoallv, ring_mpi_barrier, COLL_SG, "ring; Barrier before every step")             \
  COLL_ALGO(alltoallv, ring_one_barrier, COLL_SG, "ring; one Barrier, then the steps")           \
  /* ---- alltoallw ---- */                                                                      \
  COLL_ALGO(alltoallw, linear, 0, "every send and receive posted at once")                       \
  /* ---- reduce ---- */                                                                         \
  COLL_ALGO(reduce, linear, 0,                                                                   \
            "non-roots send at once, root combines in rank order (SimGrid's default)")           \
  COLL_ALGO(reduce, binomial, COLL_SG,                                                           \
            "binomial tree, blocking messages (MPICH short messages)")                           \
  COLL_ALGO(reduce, flat_tree, COLL_SG, "the root receives from every rank in turn")             \
  COLL_ALGO(reduce, NTSL, COLL_F_COMMUTATIVE | COLL_SG,                                          \
            "pipelined chain towards the root, 8 KiB segments")                                  \
  COLL_ALGO(reduce, scatter_gather, COLL_F_COMMUTATIVE | COLL_F_COUNT_POW2 | COLL_SG,            \
            "Rabenseifner: recursive-halving reduce-scatter + binomial gather (MPICH long)")     \
  COLL_ALGO(reduce, rab, COLL_F_COMMUTATIVE | COLL_SG,                                           \
            "Rabenseifner's own: halving fold and halving, then a gather at every level")        \
  COLL_ALGO(reduce, ompi_basic_linear, COLL_SG, "root folds in n-1, n-2, ..., 0 one at a time")  \
  COLL_ALGO(reduce, ompi_binomial, COLL_F_COMMUTATIVE | COLL_SG,                                 \
            "Open MPI in-order binomial tree")                                                   \
  COLL_ALGO(reduce, ompi_binary, COLL_F_COMMUTATIVE | COLL_SG,                                   \
            "Open MPI binary tree, 32 KiB segments")                                             \
  COLL_ALGO(reduce, ompi_chain, COLL_F_COMMUTATIVE | COLL_SG,                                    \
            "Open MPI n/2 chains, 64 KiB segments")                                              \
  COLL_ALGO(reduce, ompi_pipeline, COLL_F_COMMUTATIVE | COLL_SG,                                 \
            "Open MPI pipeline (one chain), segmented")                                          \
  COLL_ALGO(reduce, ompi_in_order_binary, COLL_SG,                                               \
            "Open MPI in-order binary tree (operand order kept)")                                \
  COLL_ALGO(reduce, smp_binomial, COLL_F_SMP,                                                    \
            "binomial inside each host, then binomial among host leaders")                       \
  COLL_ALGO(reduce, mvapich2_knomial, COLL_F_COMMUTATIVE | COLL_SG,                              \
            "4-nomial tree, all children received at once (MVAPICH2)")                           \
  COLL_ALGO(reduce, mvapich2_two_level, COLL_F_SMP | COLL_SG,                                    \
            "reduce in hosts, then among leaders (binomial/scatter_gather each)")                \
  COLL_ALGO(reduce, arrival_pattern_aware, COLL_F_COMMUTATIVE | COLL_SG,                         \
            "rank 0 probes who has arrived; each group reduces along a chain to it")             \
  /* ---- allreduce ---- */                                                                      \
  COLL_ALGO(allreduce, redbcast, COLL_SG, "reduce to rank 0 (selected reduce), then bcast")      \
  COLL_ALGO(allreduce, rdb, COLL_SG, "recursive doubling (MPICH short messages)")                \
  COLL_ALGO(allreduce, lr, COLL_F_COMMUTATIVE | COLL_SG,                                         \
            "logical ring reduce-scatter + ring allgather")                                      \
  COLL_ALGO(allreduce, rab_rdb, COLL_F_COMMUTATIVE | COLL_F_COUNT_POW2 | COLL_SG,                \
            "Rabenseifner: recursive halving + recursive doubling (MPICH long messages)")        \
  COLL_ALGO(allreduce, rab, COLL_F_COMMUTATIVE | COLL_SG,                                        \
            "Rabenseifner's own: halving fold and halving, then doubling back")                  \
  COLL_ALGO(allreduce, ompi_ring, COLL_F_COMMUTATIVE, "Open MPI ring")                           \
  COLL_ALGO(allreduce, ompi_ring_segmented, COLL_F_COMMUTATIVE | COLL_SG,                        \
            "Open MPI ring in phases of 1 MiB segments")                                         \
  COLL_ALGO(allreduce, smp_binomial, COLL_F_SMP | COLL_SG,                                       \
            "binomial reduce + bcast inside hosts and among host leaders")                       \
  COLL_ALGO(allreduce, smp_binomial_pipeline, COLL_F_SMP | COLL_SG,                              \
            "smp_binomial's four stages pipelined on 4096-element segments")                     \
  COLL_ALGO(allreduce, smp_rdb, COLL_F_SMP | COLL_SG,                                            \
            "hosts reduce to a leader, leaders do rdb")                                          \
  COLL_ALGO(allreduce, smp_rsag, COLL_F_SMP | COLL_F_COMMUTATIVE | COLL_SG,                      \
            "hosts reduce to a leader, leaders do ring reduce-scatter + allgather")              \
  COLL_ALGO(allreduce, smp_rsag_lr, COLL_F_SMP | COLL_F_COMMUTATIVE | COLL_SG,                   \
            "hosts reduce to a leader, leaders do a logical-ring reduce-scatter + allgather")    \
  COLL_ALGO(allreduce, smp_rsag_rab, COLL_F_SMP | COLL_F_POW2 | COLL_F_COMMUTATIVE | COLL_SG,    \
            "hosts reduce to a leader, leaders do recursive halving + doubling")                 \
  COLL_ALGO(allreduce, rab1, COLL_F_POW2 | COLL_F_COMMUTATIVE | COLL_SG,                         \
            "recursive-halving reduce-scatter, then the selected allgather")                     \
  COLL_ALGO(allreduce, rab2, COLL_F_COMMUTATIVE | COLL_SG,                                       \
            "the selected alltoall, local reduction, the selected allgather")                    \
  COLL_ALGO(allreduce, mvapich2_rs, COLL_F_COMMUTATIVE | COLL_SG,                                \
            "MVAPICH2: rdb below p elements, else recursive halving + doubling")                 \
  COLL_ALGO(allreduce, mvapich2_two_level, COLL_F_SMP | COLL_SG,                                 \
            "allreduce in hosts (rdb/rab_rdb), rdb among leaders, bcast in hosts")               \
  /* ---- reduce_scatter ---- */                                                                 \
  COLL_ALGO(reduce_scatter, reduce_scatterv, 0, "reduce to rank 0, then scatterv")               \
  COLL_ALGO(reduce_scatter, ompi_basic_recursivehalving, COLL_F_COMMUTATIVE | COLL_SG,           \
            "recursive halving, largest distance first (Open MPI)")                              \
  COLL_ALGO(reduce_scatter, ompi_ring, COLL_F_COMMUTATIVE | COLL_SG, "ring (Open MPI)")          \
  COLL_ALGO(reduce_scatter, mpich_pair, COLL_F_COMMUTATIVE | COLL_SG,                            \
            "pairwise exchange (MPICH long)")                                                    \
  COLL_ALGO(reduce_scatter, mpich_rdb, COLL_SG, "recursive doubling, any op (MPICH)")            \
  COLL_ALGO(reduce_scatter, mpich_noncomm, COLL_F_POW2 | COLL_F_REGULAR | COLL_SG,               \
            "recursive halving in bit-reversed order, any op (MPICH)")                           \
  COLL_ALGO(reduce_scatter, ompi_butterfly, COLL_SG,                                             \
            "butterfly: pairs fold in, recursive halving, mirror-permuted exchange (any op)")    \
  /* ---- reduce_scatter_block ---- */                                                           \
  COLL_ALGO(reduce_scatter_block, reduce_scatter, 0, "reduce to rank 0, then scatter")           \
  COLL_ALGO(reduce_scatter_block, ompi_basic_recursivehalving, COLL_F_COMMUTATIVE,               \
            "reduce_scatter's recursive halving")                                                \
  COLL_ALGO(reduce_scatter_block, ompi_ring, COLL_F_COMMUTATIVE, "reduce_scatter's ring")        \
  COLL_ALGO(reduce_scatter_block, ompi_butterfly, 0, "reduce_scatter's butterfly")               \
  COLL_ALGO(reduce_scatter_block, mpich_pair, COLL_F_COMMUTATIVE, "reduce_scatter's pairwise")   \
  COLL_ALGO(reduce_scatter_block, mpich_rdb, 0, "reduce_scatter's recursive doubling")           \
  COLL_ALGO(reduce_scatter_block, mpich_noncomm, COLL_F_POW2, "reduce_scatter's noncomm")        \
  /* ---- scan ---- */                                                                           \
  COLL_ALGO(scan, linear, 0, "every rank sends to all higher ranks at once")                     \
  COLL_ALGO(scan, rdb, 0, "recursive doubling (MPICH)")                                          \
  COLL_ALGO(scan, ompi_linear, 0, "chain: each rank gets the prefix from the previous one")      \
  /* ---- exscan ---- */                                                                         \
  COLL_ALGO(exscan, linear, 0, "every rank sends to all higher ranks at once")                   \
  COLL_ALGO(exscan, rdb, 0, "recursive doubling (MPICH)")                                        \
  COLL_ALGO(exscan, ompi_linear, 0, "chain: each rank gets the prefix from the previous one")

#endif
