/* hpl_like: an HPL-like blocked LU factorisation with partial pivoting, to show that folding
 * the matrix (SMPI_SHARED_MALLOC) and modelling dgemm let one machine simulate a run whose
 * matrix would not fit in it, without changing its simulated performance.
 *
 *   hpl_like N NB P Q [--check]
 *
 * The N x N matrix is distributed 2-D block-cyclically over a P x Q process grid (rank =
 * row * Q + col; block b of rows lives on process row b % P). For each panel of NB columns
 * starting at column j (owned by process column pc = (j / NB) % Q):
 *
 *   1. panel factorisation, on process column pc only: for every column k of the panel, the
 *      pivot is found by an MPI_Allreduce(MAXLOC) over the process column, rows k and the
 *      pivot row are exchanged within the panel, the pivot row is broadcast down the process
 *      column, and the rest of the panel is updated (rank-1);
 *   2. the panel (the local rows >= j of the NB columns) and the pivot indices are
 *      broadcast along each process row, from pc, in one buffer made with
 *      SMPI_PARTIAL_SHARED_MALLOC: pivot indices first, private, matrix data after, folded;
 *   3. row swaps: every process column applies the panel's pivots to its trailing columns,
 *      exchanging rows with MPI_Sendrecv_replace and a strided (vector) datatype when the
 *      two rows live on different process rows;
 *   4. the owner process row of rows j..j+NB computes U12 = L11^-1 A12 (dtrsm) and
 *      broadcasts it down each process column;
 *   5. trailing update A22 -= L21 U12, the dgemm.
 *
 * Default (model) mode: the matrix, panel data and U12 buffer are folded, nothing is
 * computed, and every kernel is injected from a model, as flops: dgemm by the HPL study's
 * form t = coef * M * N * K + intercept in seconds of a 1 Gflop/s host (the bench platforms'
 * speed), the others by their flop counts. Flops because they mean the same to every
 * simulator and option set, while seconds do not: SMPI_SAMPLE_DELAY(t) is smpi_execute(t),
 * t seconds of the machine running the simulation times smpi/host-speed (20 kflop/s by
 * default, so the dgemm all but vanishes; SimGrid 3.32 and we read it so, and until
 * 2026-11-22 we read it as t seconds of the simulated host, which set the two apart).
 * Since the values are garbage, the pivot of column k is a fixed pseudo-random row >= k
 * (the same on every process), so the communication pattern, and the simulated time, do not
 * depend on what the memory holds: a run with --cfg=smpi/shared-malloc:no must give the same
 * time. The MAXLOC reduction still runs (one MPI_DOUBLE_INT: 12 bytes by the MPI standard
 * and here, 16 in SimGrid 3.32, whose pair types count their padding).
 *
 * --check: real arithmetic on ordinary memory (malloc), real pivoting; at the end rank 0
 * gathers L and U and checks max |P A - L U| / (N max |A|) < 1e-12. For small N.
 *
 * Rank 0 prints one line: "hpl_like: N .. NB .. PxQ .. time .. s gflops .. [residual ..] OK".
 * Also compiled as tests/mpi/hpl_lu.c (check mode, small size, no arguments). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SMPI_SAMPLE_FLOPS /* a real MPI: no folding, no model (check mode only) */
#define SMPI_SHARED_MALLOC(n) malloc(n)
#define SMPI_PARTIAL_SHARED_MALLOC(n, o, c) ((void)(o), malloc(n))
#define SMPI_SHARED_FREE(p) free(p)
#define SMPI_SAMPLE_FLOPS(f) for (int once_ = 1; once_; once_ = 0)
static void smpi_execute_flops(double f) { (void)f; }
#endif

/* dgemm model, t = coef * M * N * K + intercept (a fit on a ~180 Gflop/s core), in seconds
 * of a DGEMM_HOST_FLOPS host: the flops injected are t * DGEMM_HOST_FLOPS */
#define DGEMM_COEF 1.1e-11
#define DGEMM_INTERCEPT 2.0e-6
#define DGEMM_HOST_FLOPS 1e9

/* no libm needed (smpicc links none by default) */
static double absd(double x) { return x < 0 ? -x : x; }
static double maxd(double a, double b) { return a > b ? a : b; }

static int N, NB, P, Q, me, myrow, mycol, check;
static MPI_Comm rowc, colc; /* my process row (ranked by column), my process column (by row) */
static int mloc, nloc;      /* local matrix: mloc x nloc, column-major, leading dim lld */
static size_t lld;
static double *A;

#define A_(i, j) A[(size_t)(j)*lld + (size_t)(i)]

/* global index g (rows with nprocs = P, or columns with Q) -> owner and local index */
static int owner(int g, int nprocs) { return (g / NB) % nprocs; }
static int local_of(int g, int nprocs) { return (g / (NB * nprocs)) * NB + g % NB; }
static int global_of(int l, int p, int nprocs)
{
  return (l / NB) * NB * nprocs + p * NB + l % NB;
}
/* how many global indices < g process p owns (= local index of the first one >= g) */
static int count_below(int g, int p, int nprocs)
{
  int full = g / (NB * nprocs), rest = g % (NB * nprocs);
  int extra = rest - p * NB;
  return full * NB + (extra < 0 ? 0 : extra > NB ? NB : extra);
}

static double orig(int i, int j) /* the test matrix, reproducible anywhere */
{
  uint64_t x = (uint64_t)i * 2654435761u + (uint64_t)j * 40503u + 12345;
  x ^= x >> 13;
  x *= 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return (double)(x % 2000001) / 1000000.0 - 1.0 + (i == j ? 2.0 : 0.0);
}

static int model_pivot(int k) /* model mode: a fixed pseudo-random row in [k, N) */
{
  uint64_t x = (uint64_t)k * 0x9E3779B97F4A7C15ull + 7;
  x ^= x >> 31;
  return k + (int)(x % (uint64_t)(N - k));
}

/* Exchanges global rows r1 and r2 over local columns [c0, c1) within my process column. */
static void swap_rows(int r1, int r2, int c0, int c1)
{
  if (r1 == r2 || c1 <= c0)
    return;
  int o1 = owner(r1, P), o2 = owner(r2, P);
  if (o1 != myrow && o2 != myrow)
    return;
  if (o1 == myrow && o2 == myrow) {
    if (check) {
      int l1 = local_of(r1, P), l2 = local_of(r2, P);
      for (int c = c0; c < c1; c++) {
        double t = A_(l1, c);
        A_(l1, c) = A_(l2, c);
        A_(l2, c) = t;
      }
    }
    return;
  }
  int mine = o1 == myrow ? r1 : r2, other = o1 == myrow ? o2 : o1;
  MPI_Datatype row;
  MPI_Type_vector(c1 - c0, 1, (int)lld, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Sendrecv_replace(&A_(local_of(mine, P), c0), 1, row, other, 3, other, 3, colc,
                       MPI_STATUS_IGNORE);
  MPI_Type_free(&row);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc >= 5) {
    N = atoi(argv[1]), NB = atoi(argv[2]), P = atoi(argv[3]), Q = atoi(argv[4]);
    check = argc > 5 && strcmp(argv[5], "--check") == 0;
  } else {
#ifdef HPL_TEST_DEFAULTS /* tests/mpi/hpl_lu.c without arguments: a small check */
    N = 100, NB = 8, P = 2, Q = 2, check = 1;
#else
    if (me == 0)
      fprintf(stderr, "usage: hpl_like N NB P Q [--check]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
#endif
  }
  if (N < 1 || NB < 1 || P * Q != size) {
    if (me == 0)
      fprintf(stderr, "hpl_like: need N, NB >= 1 and P x Q = %d ranks\n", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  myrow = me / Q, mycol = me % Q;
  MPI_Comm_split(MPI_COMM_WORLD, myrow, mycol, &rowc);
  MPI_Comm_split(MPI_COMM_WORLD, mycol, myrow, &colc);
  mloc = count_below(N, myrow, P), nloc = count_below(N, mycol, Q);
  lld = mloc > 0 ? (size_t)mloc : 1;

  size_t abytes = lld * (size_t)(nloc > 0 ? nloc : 1) * sizeof(double);
  A = check ? malloc(abytes) : SMPI_SHARED_MALLOC(abytes);
  /* the panel: NB pivot indices (private) then up to lld x NB doubles (folded) */
  size_t hdr = ((size_t)NB * sizeof(int) + 15) / 16 * 16;
  size_t pbytes = hdr + lld * (size_t)NB * sizeof(double);
  size_t pfold[] = {hdr, pbytes};
  char *panel = check ? malloc(pbytes) : SMPI_PARTIAL_SHARED_MALLOC(pbytes, pfold, 1);
  int *ipiv = (int *)panel;
  double *L = (double *)(panel + hdr);
  size_t ubytes = (size_t)NB * (size_t)(nloc > 0 ? nloc : 1) * sizeof(double);
  double *U = check ? malloc(ubytes) : SMPI_SHARED_MALLOC(ubytes);
  double *prow = malloc((size_t)NB * sizeof(double));
  int *allpiv = check ? malloc((size_t)N * sizeof(int)) : NULL; /* for the residual */
  if (!A || !panel || !U || !prow || (check && !allpiv)) {
    fprintf(stderr, "hpl_like: rank %d: allocation failed\n", me);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (check)
    for (int c = 0; c < nloc; c++)
      for (int r = 0; r < mloc; r++)
        A_(r, c) = orig(global_of(r, myrow, P), global_of(c, mycol, Q));

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int j = 0; j < N; j += NB) {
    int jb = N - j < NB ? N - j : NB;
    int pc = owner(j, Q), pr = owner(j, P);
    int r0 = count_below(j, myrow, P);        /* my first local row >= j */
    int rend = count_below(j + jb, myrow, P); /* my first local row >= j + jb */
    int mp = mloc - r0;                       /* my rows of the panel */
    int ct = count_below(j + jb, mycol, Q);   /* my first trailing local column */
    int nt = nloc - ct;

    /* 1. panel factorisation on process column pc */
    if (mycol == pc) {
      int lc0 = local_of(j, Q);
      for (int k = j; k < j + jb; k++) {
        int lk = lc0 + (k - j), lr = count_below(k, myrow, P);
        struct {
          double v;
          int row;
        } best = {-1.0, N}, piv;
        if (check)
          for (int r = lr; r < mloc; r++)
            if (absd(A_(r, lk)) > best.v)
              best.v = absd(A_(r, lk)), best.row = global_of(r, myrow, P);
        MPI_Allreduce(&best, &piv, 1, MPI_DOUBLE_INT, MPI_MAXLOC, colc);
        int gp = check ? piv.row : model_pivot(k);
        ipiv[k - j] = gp;
        swap_rows(k, gp, lc0, lc0 + jb);
        /* the pivot row, from column k on, to every process of the column */
        int w = j + jb - k;
        if (check && owner(k, P) == myrow)
          for (int c = 0; c < w; c++)
            prow[c] = A_(local_of(k, P), lk + c);
        MPI_Bcast(prow, w, MPI_DOUBLE, owner(k, P), colc);
        int below = count_below(k + 1, myrow, P);
        if (check) {
          for (int r = below; r < mloc; r++) {
            double l = A_(r, lk) /= prow[0];
            for (int c = 1; c < w; c++)
              A_(r, lk + c) -= l * prow[c];
          }
        } else {
          smpi_execute_flops((double)(mloc - below) * (2.0 * (w - 1) + 1.0));
        }
      }
      if (check)
        for (int c = 0; c < jb; c++)
          memcpy(&L[(size_t)c * (mp > 0 ? mp : 1)], &A_(r0, lc0 + c),
                 (size_t)mp * sizeof(double));
    }
    /* 2. panel and pivots along the process row */
    MPI_Bcast(panel, (int)(hdr + (size_t)mp * jb * sizeof(double)), MPI_BYTE, pc, rowc);
    size_t ldl = mp > 0 ? (size_t)mp : 1;
    if (check)
      memcpy(allpiv + j, ipiv, (size_t)jb * sizeof(int));

    /* 3. row swaps on the trailing columns (and, to check P A = L U, on the columns left
     *    of the panel: HPL does not need those) */
    for (int k = j; k < j + jb; k++) {
      swap_rows(k, ipiv[k - j], ct, nloc);
      if (check)
        swap_rows(k, ipiv[k - j], 0, count_below(j, mycol, Q));
    }
    if (nt <= 0 && !check)
      continue;

    /* 4. U12 = L11^-1 A12 on process row pr, then down each process column */
    if (myrow == pr) {
      if (check) {
        for (int c = ct; c < nloc; c++)
          for (int k = 0; k < jb; k++) {
            double s = A_(r0 + k, c);
            for (int i = 0; i < k; i++)
              s -= L[(size_t)i * ldl + k] * A_(r0 + i, c);
            A_(r0 + k, c) = s;
            U[(size_t)(c - ct) * jb + k] = s;
          }
      } else {
        smpi_execute_flops((double)jb * jb * nt);
      }
    }
    if (nt > 0)
      MPI_Bcast(U, jb * nt, MPI_DOUBLE, pr, colc);

    /* 5. trailing update A22 -= L21 U12: the dgemm (M = my rows below the panel) */
    int m = mloc - rend;
    if (m > 0 && nt > 0) {
      if (check) {
        for (int c = 0; c < nt; c++)
          for (int k = 0; k < jb; k++) {
            double u = U[(size_t)c * jb + k];
            for (int r = rend; r < mloc; r++)
              A_(r, ct + c) -= L[(size_t)k * ldl + (r - r0)] * u;
          }
      } else {
        SMPI_SAMPLE_FLOPS((DGEMM_COEF * (double)m * nt * jb + DGEMM_INTERCEPT) * DGEMM_HOST_FLOPS)
        {
          /* the real dgemm would be here: never runs under the simulator */
        }
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0;
  double gflops = (2.0 / 3.0 * N * (double)N * N + 1.5 * (double)N * N) / t / 1e9;

  double resid = 0;
  int ok = 1;
  if (check) { /* rank 0 rebuilds L U and compares with the pivoted original */
    if (me == 0) {
      double *F = malloc((size_t)N * N * sizeof(double));
      int *perm = allpiv;
      for (int p = 0; p < size; p++) {
        int prw = p / Q, pcl = p % Q;
        int ml = count_below(N, prw, P), nl = count_below(N, pcl, Q);
        double *buf = p == 0 ? A : malloc((size_t)ml * nl * sizeof(double) + 1);
        if (p)
          MPI_Recv(buf, ml * nl, MPI_DOUBLE, p, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int c = 0; c < nl; c++)
          for (int r = 0; r < ml; r++)
            F[(size_t)global_of(c, pcl, Q) * N + global_of(r, prw, P)] =
                buf[(size_t)c * (ml > 0 ? ml : 1) + r];
        if (p)
          free(buf);
      }
      int *rows = malloc((size_t)N * sizeof(int));
      for (int i = 0; i < N; i++)
        rows[i] = i;
      for (int k = 0; k < N; k++) {
        int t2 = rows[k];
        rows[k] = rows[perm[k]];
        rows[perm[k]] = t2;
      }
      double amax = 0;
      for (int i = 0; i < N; i++)
        for (int c = 0; c < N; c++)
          amax = maxd(amax, absd(orig(i, c)));
      for (int i = 0; i < N; i++)
        for (int c = 0; c < N; c++) {
          double s = 0;
          int kmax = i < c ? i : c;
          for (int k = 0; k <= kmax; k++) {
            double l = k == i ? 1.0 : F[(size_t)k * N + i];
            s += l * F[(size_t)c * N + k];
          }
          resid = maxd(resid, absd(s - orig(rows[i], c)));
        }
      resid /= N * amax;
      ok = resid < 1e-12;
      free(F), free(rows);
    } else {
      MPI_Send(A, mloc * nloc, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD);
    }
  }
  free(allpiv);
  if (me == 0) {
    printf("hpl_like: N %d NB %d %dx%d time %.9g s gflops %.9g", N, NB, P, Q, t, gflops);
    if (check)
      printf(" residual %.3g", resid);
    printf(" %s\n", ok ? "OK" : "FAILED");
#ifdef HPL_TEST_DEFAULTS
    if (ok)
      printf("hpl_lu: OK\n");
#endif
  }
  free(prow);
  if (check) {
    free(A), free(panel), free(U);
  } else {
    SMPI_SHARED_FREE(A), SMPI_SHARED_FREE(panel), SMPI_SHARED_FREE(U);
  }
  MPI_Comm_free(&rowc);
  MPI_Comm_free(&colc);
  MPI_Finalize();
  return !ok;
}
