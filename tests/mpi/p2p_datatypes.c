/* p2p_datatypes: messages with derived datatypes on either side. The type signatures must
 * match, not the layouts: a strided vector is received into a contiguous buffer and back,
 * a struct with padding travels as its members, at sizes on both sides of the
 * detached/rendezvous switch (the data is packed at the send or copied at the end of the
 * transfer); a truncated derived receive fills what fits; MPI_Get_count/MPI_Get_elements
 * see the received elements. Needs 2 ranks. */
#define MPITEST_NAME "p2p_datatypes"
#include "mpitest.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  char c;
  double d; /* padding before it */
  int i[3];
} item;

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mpitest_need(size == 2, "2 ranks");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int peer = 1 - rank;

  /* every other double of an array: small (detached) and large (rendezvous) */
  const int counts[2] = {10, 20000};
  for (int k = 0; k < 2; k++) {
    int n = counts[k];
    MPI_Datatype strided;
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &strided);
    MPI_Type_commit(&strided);
    double *sparse = malloc(2 * (size_t)n * sizeof(double));
    double *dense = malloc((size_t)n * sizeof(double));
    if (rank == 0) {
      for (int i = 0; i < 2 * n; i++)
        sparse[i] = i % 2 ? -1 : i / 2 + 0.25;
      MPI_Send(sparse, 1, strided, 1, k, MPI_COMM_WORLD); /* vector -> contiguous */
      MPI_Recv(sparse, 1, strided, 1, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* and back */
      int bad = -1;
      for (int i = 0; i < 2 * n && bad < 0; i++)
        if (sparse[i] != (i % 2 ? -1 : 2 * (i / 2) + 0.5))
          bad = i;
      CHECK(bad < 0, "n %d: strided receive wrong at %d", n, bad);
    } else {
      MPI_Status st;
      MPI_Recv(dense, n, MPI_DOUBLE, 0, k, MPI_COMM_WORLD, &st);
      int c;
      MPI_Get_count(&st, MPI_DOUBLE, &c);
      CHECK(c == n, "count %d", c);
      int bad = -1;
      for (int i = 0; i < n && bad < 0; i++)
        if (dense[i] != i + 0.25)
          bad = i;
      CHECK(bad < 0, "n %d: dense receive wrong at %d", n, bad);
      for (int i = 0; i < n; i++)
        dense[i] = 2 * i + 0.5;
      MPI_Send(dense, n, MPI_DOUBLE, 0, k, MPI_COMM_WORLD);
    }
    free(sparse);
    free(dense);
    MPI_Type_free(&strided);
  }

  /* structs with padding, both sides derived: Sendrecv (rendezvous) and Sendrecv_replace
   * (detached; MPICH 4.0 corrupts Sendrecv_replace of such a type beyond 8 KiB) */
  {
    MPI_Datatype t;
    int bl[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(item, c), offsetof(item, d), offsetof(item, i)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(3, bl, disp, types, &t);
    MPI_Type_commit(&t);
    enum { N = 5000, NR = 300 }; /* 5000 x 21 bytes: rendezvous; 300 x 21: detached */
    item *a = malloc(N * sizeof *a), *got = malloc(N * sizeof *got);
    for (int i = 0; i < N; i++)
      a[i] = (item){(char)('a' + rank), i * 1.5 + rank, {i, -i, rank}};
    MPI_Status st;
    MPI_Sendrecv(a, N, t, peer, 3, got, N, t, peer, 3, MPI_COMM_WORLD, &st);
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++)
      if (got[i].c != 'a' + peer || got[i].d != i * 1.5 + peer || got[i].i[0] != i ||
          got[i].i[1] != -i || got[i].i[2] != peer)
        bad = i;
    CHECK(bad < 0, "struct exchange wrong at %d", bad);
    int c, e;
    MPI_Get_count(&st, t, &c);
    MPI_Get_elements(&st, t, &e);
    CHECK(c == N && e == 5 * N, "struct count %d elements %d", c, e);
    MPI_Sendrecv_replace(a, NR, t, peer, 5, peer, 5, MPI_COMM_WORLD, &st);
    bad = -1;
    for (int i = 0; i < NR && bad < 0; i++)
      if (a[i].c != 'a' + peer || a[i].d != i * 1.5 + peer || a[i].i[2] != peer)
        bad = i;
    CHECK(bad < 0 && a[NR].i[2] == rank, "struct replace wrong at %d", bad);
    free(got);

    /* truncated: 7 items sent, room for 4: 4 received, error class MPI_ERR_TRUNCATE */
    if (rank == 0) {
      MPI_Send(a + NR, 7, t, 1, 4, MPI_COMM_WORLD); /* items NR.. are still rank 0's */
    } else {
      item b[5];
      b[4].c = 'z';
      int rc = MPI_Recv(b, 4, t, 0, 4, MPI_COMM_WORLD, &st), cls;
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_TRUNCATE, "truncated struct receive returned %d", rc);
#ifndef MPICH_VERSION /* MPICH 4.0 leaves the buffer alone on truncation */
      CHECK(b[3].i[0] == NR + 3 && b[3].c == 'a', "truncated struct data: %d %c", b[3].i[0],
            b[3].c);
#endif
      CHECK(b[4].c == 'z', "wrote past the buffer");
    }
    free(a);
    MPI_Type_free(&t);
  }

  return mpitest_finalize();
}
