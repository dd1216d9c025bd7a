/* hpl_seed: the shape of the seed study's modified HPL (HPL at Stampede scale: 6 006 ranks,
 * N = 3 875 000, NB = 1 024), to measure what simulating it costs. Model only: nothing is
 * computed, every kernel is smpi_execute_benched(seconds of the simulated host) from a
 * model, the matrix is folded (SMPI_SHARED_MALLOC) and so is the panel's matrix data
 * (SMPI_PARTIAL_SHARED_MALLOC, its pivot vector private).
 *
 *   hpl_seed N NB P Q [ITERS [FIRST]]
 *
 * P x Q = ranks; ITERS: stop after that many panels; FIRST: start at that panel, as if the
 * ones before had been factored (to measure a panel late in the factorisation without
 * simulating the ones before it).
 *
 * One iteration per panel of NB columns j .. j + jb (HPL_pdgesv0: no look-ahead), as HPL
 * does it with BCAST = 2ringM and SWAP = binary-exchange:
 *
 *   1. panel factorisation on process column pc = panel % Q: for every column, the local
 *      update (dger/dtrsm-sized smpi_execute_benched) and the pivot search and swap, a
 *      binary exchange over the P processes of the column of 4 + 2 jb doubles
 *      (HPL_pdmxswp: hypercube on the largest power of two, the others folded in);
 *   2. panel broadcast along each process row, "2-ring modified" (HPL_bcast_2rinM): the root
 *      sends to root+1 (the next panel's owner, which does not forward), then to the heads
 *      of two rings that split the other Q - 2 processes; every other process polls
 *      MPI_Iprobe for its predecessor's message (HPL_bcast's loop, until HPL_SUCCESS), then
 *      receives and forwards. Message: (mp + jb + 1) x jb doubles, pivots first (private);
 *   3. row swaps, binary exchange over the P processes of each column (HPL_pdlaswp00T: each
 *      round swaps jb rows of the nt trailing columns: jb x nt doubles, folded);
 *   4. dtrsm (jb x jb x nt) on every process, dgemm (mt x nt x jb) on the trailing matrix.
 *
 * Kernel models (seconds), one rank per Stampede node as in the study's run (two 8-core
 * Sandy Bridge sockets and a Xeon Phi: ~1 Tflop/s of dgemm, the run reached 5.17 Pflop/s on
 * 6 006 nodes): dgemm 2e-12 M N K + 1e-6, dtrsm 1e-12 jb^2 nt + 1e-6, panel column update
 * (recursive, mostly BLAS 3 on the host's cores: ~100 Gflop/s) 2e-11 mp (jb - k) + 2e-7.
 * The first panel of the target then takes ~6 s of simulated time. The models set the
 * simulated waits, hence how often the ring broadcast polls; the simulator's own cost does
 * not depend on their values otherwise.
 *
 * Rank 0 prints: "hpl_seed: N .. NB .. PxQ .. iters .. first .. time .. s msgs .. probes .. OK",
 * msgs the point-to-point messages sent by all ranks, probes the MPI_Iprobe calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SMPI_SHARED_MALLOC /* a real MPI: nothing folded, nothing modelled */
#define SMPI_SHARED_MALLOC(n) malloc(n)
#define SMPI_PARTIAL_SHARED_MALLOC(n, o, c) ((void)(o), malloc(n))
#define SMPI_SHARED_FREE(p) free(p)
static void smpi_execute_benched(double t) { (void)t; }
#endif

static int N, NB, P, Q, me, myrow, mycol;
static MPI_Comm rowc, colc;
static long long nmsgs, nprobes;

static int count_below(int g, int p, int nprocs) /* global indices < g that p owns */
{
  int full = g / (NB * nprocs), rest = g % (NB * nprocs);
  int extra = rest - p * NB;
  return full * NB + (extra < 0 ? 0 : extra > NB ? NB : extra);
}

static void compute(double seconds) { smpi_execute_benched(seconds); }

/* HPL's binary exchange over n processes of comm (my index i): the largest power of two p2
 * exchanges pairwise in log2(p2) rounds; i >= p2 first hands its buffer to i - p2 and gets
 * the result back at the end. */
static void binary_exchange(double *buf, int count, int i, int n, MPI_Comm comm, int tag)
{
  if (n < 2 || count <= 0)
    return;
  int p2 = 1;
  while (2 * p2 <= n)
    p2 *= 2;
  if (i >= p2) {
    MPI_Send(buf, count, MPI_DOUBLE, i - p2, tag, comm);
    MPI_Recv(buf, count, MPI_DOUBLE, i - p2, tag, comm, MPI_STATUS_IGNORE);
    nmsgs++;
    return;
  }
  if (i + p2 < n) {
    MPI_Recv(buf, count, MPI_DOUBLE, i + p2, tag, comm, MPI_STATUS_IGNORE);
  }
  for (int mask = 1; mask < p2; mask *= 2) {
    MPI_Sendrecv_replace(buf, count, MPI_DOUBLE, i ^ mask, tag, i ^ mask, tag, comm,
                         MPI_STATUS_IGNORE);
    nmsgs++;
  }
  if (i + p2 < n) {
    MPI_Send(buf, count, MPI_DOUBLE, i + p2, tag, comm);
    nmsgs++;
  }
}

/* HPL_bcast_2rinM along my process row: root -> root+1; root -> head of ring A and of ring
 * B, each ring forwarding to its next member. Non-roots poll with MPI_Iprobe. */
static void bcast_2ringm(double *buf, int count, int root)
{
  if (Q < 2)
    return;
  int rel = (mycol - root + Q) % Q; /* 0 root, 1 next owner, 2 .. Q-1 the two rings */
  int rest = Q - 2, half = (rest + 1) / 2;
  int headB = 2 + half; /* ring A: 2 .. headB-1, ring B: headB .. Q-1 */
  int from, to = -1;
  if (rel == 0) {
    MPI_Send(buf, count, MPI_DOUBLE, (root + 1) % Q, 7, rowc);
    nmsgs++;
    if (rest > 0) {
      MPI_Send(buf, count, MPI_DOUBLE, (root + 2) % Q, 7, rowc);
      nmsgs++;
    }
    if (headB < Q) {
      MPI_Send(buf, count, MPI_DOUBLE, (root + headB) % Q, 7, rowc);
      nmsgs++;
    }
    return;
  }
  if (rel == 1 || rel == 2 || rel == headB)
    from = root;
  else
    from = (mycol - 1 + Q) % Q;
  if (rel >= 2 && rel + 1 < Q && rel + 1 != headB)
    to = (mycol + 1) % Q;
  int flag = 0;
  while (!flag) { /* HPL_bcast: HPL_KEEP_TESTING until the message is there */
    MPI_Iprobe(from, 7, rowc, &flag, MPI_STATUS_IGNORE);
    nprobes++;
  }
  MPI_Recv(buf, count, MPI_DOUBLE, from, 7, rowc, MPI_STATUS_IGNORE);
  if (to >= 0) {
    MPI_Send(buf, count, MPI_DOUBLE, to, 7, rowc);
    nmsgs++;
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 5) {
    if (me == 0)
      fprintf(stderr, "usage: hpl_seed N NB P Q [ITERS [FIRST]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  N = atoi(argv[1]), NB = atoi(argv[2]), P = atoi(argv[3]), Q = atoi(argv[4]);
  int panels = (N + NB - 1) / (NB > 0 ? NB : 1);
  int iters = argc > 5 ? atoi(argv[5]) : panels;
  int first = argc > 6 ? atoi(argv[6]) : 0;
  if (N < 1 || NB < 1 || P * Q != size || iters < 1 || first < 0 || first >= panels) {
    if (me == 0)
      fprintf(stderr,
              "hpl_seed: need N, NB, ITERS >= 1, 0 <= FIRST < N / NB and P x Q = %d "
              "ranks\n",
              size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (iters > panels - first)
    iters = panels - first;
  myrow = me / Q, mycol = me % Q;
  MPI_Comm_split(MPI_COMM_WORLD, myrow, mycol, &rowc);
  MPI_Comm_split(MPI_COMM_WORLD, mycol, myrow, &colc);
  int mloc = count_below(N, myrow, P), nloc = count_below(N, mycol, Q);

  /* the matrix, folded */
  size_t lld = mloc > 0 ? (size_t)mloc : 1;
  char *A = SMPI_SHARED_MALLOC(lld * (size_t)(nloc > 0 ? nloc : 1) * sizeof(double));
  /* the panel: pivots (jb doubles, private), then L1 (jb x jb) and L2 (mloc x jb), folded */
  size_t piv = (size_t)NB * sizeof(double);
  size_t pbytes = piv + ((size_t)NB + lld) * (size_t)NB * sizeof(double);
  size_t pfold[] = {piv, pbytes};
  double *panel = SMPI_PARTIAL_SHARED_MALLOC(pbytes, pfold, 1);
  /* the row-swap buffer: jb rows of the trailing columns, folded */
  double *work = SMPI_SHARED_MALLOC((size_t)NB * (size_t)(nloc > 0 ? nloc : 1) * sizeof(double));
  double *mx = malloc((4 + 2 * (size_t)NB) * sizeof(double));
  if (!A || !panel || !work || !mx) {
    fprintf(stderr, "hpl_seed: rank %d: allocation failed\n", me);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = first; it < first + iters; it++) {
    int j = it * NB, jb = N - j < NB ? N - j : NB;
    int pc = it % Q;
    int r0 = count_below(j, myrow, P), mp = mloc - r0;      /* my panel rows */
    int ct = count_below(j + jb, mycol, Q), nt = nloc - ct; /* my trailing columns */
    int mt = mloc - count_below(j + jb, myrow, P);          /* my trailing rows */

    if (mycol == pc) /* 1. panel factorisation, column by column */
      for (int k = 0; k < jb; k++) {
        compute(2e-11 * (double)mp * (jb - k) + 2e-7);
        binary_exchange(mx, 4 + 2 * jb, myrow, P, colc, 5);
        panel[k] = (double)(j + k); /* the pivot row, private */
      }
    /* 2. the panel along the process row */
    bcast_2ringm(panel, (mp + jb + 1) * jb, pc);
    if (panel[0] != (double)j) {
      fprintf(stderr, "hpl_seed: rank %d: pivots of panel %d lost in the broadcast\n", me, it);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* 3. row swaps on the trailing columns */
    if (nt > 0)
      binary_exchange(work, jb * nt, myrow, P, colc, 6);
    /* 4. the update */
    if (nt > 0) {
      compute(1e-12 * (double)jb * jb * nt + 1e-6);
      if (mt > 0)
        compute(2e-12 * (double)mt * nt * jb + 1e-6);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0;
  long long mine[2] = {nmsgs, nprobes}, all[2];
  MPI_Reduce(mine, all, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0)
    printf("hpl_seed: N %d NB %d %dx%d iters %d first %d time %.9g s msgs %lld probes %lld OK\n",
           N, NB, P, Q, iters, first, t, all[0], all[1]);
  free(mx);
  SMPI_SHARED_FREE(work);
  SMPI_SHARED_FREE(panel);
  SMPI_SHARED_FREE(A);
  MPI_Comm_free(&rowc);
  MPI_Comm_free(&colc);
  MPI_Finalize();
  return 0;
}
