/* Simulated I/O times on platforms/io_cluster.xml against what the models give by hand
 * (simulator-only: smpi_execute_flops, SMPI_SHARED_MALLOC). 5 ranks: rank r on node r+1,
 * rank 4 on the storage host. Local disks (/scratch): read 500 MB/s, write 250 MB/s
 * (readwrite 500 MB/s); storage disk ("/" : every other name): read 1 GB/s, write 400 MB/s.
 *
 *   write 25 MB to /scratch                 25e6 / 250e6                = 0.100 s
 *   read 50 MB from /scratch                50e6 / 500e6                = 0.100 s
 *   write 25 MB and read 50 MB together     both 250 MB/s (readwrite 500 shared; write
 *                                           capped at 250): write 0.100 s, read 0.100 +
 *                                           25e6 / 500e6                = 0.150 s
 *   ranks 0 and 1 write 25 MB each          their own disks             = 0.100 s each
 *   write 40 MB to the storage host         pipelined in 1 MiB pieces (smpi/io-rpc-size):
 *                                           the disk's 0.1 s plus one piece's message, far
 *                                           less than the 40 MB message (timed here as an
 *                                           MPI_Send to rank 4) that store-and-forward adds
 *   4 ranks write 40 MB there together      the storage disk shared: 0.4 s plus a piece
 *   ... while ranks 1-3 send 100 MB each    the storage link's share (1.25 GB/s / 4) falls
 *       to rank 4                           below the disk's 400 MB/s: > 15 % slower
 *   iwrite 25 MB overlapping 1e8 flops      max(0.1, 0.1), not the sum  = 0.100 s
 *   write 100 MB from SMPI_SHARED_MALLOC    0.4 s, the file is 100 MB, no data allocated
 *   interleaved 4 x 4 MiB, 1 KiB blocks     collective (two-phase) at least 4 x faster
 *                                           than independent (data sieving)
 *   smpirun -np 5 -platform platforms/io_cluster.xml --cfg=smpi/cpu-threshold:-1
 *           --cfg=smpi/wtime:0 io_timing */
#define MPITEST_NAME "io_timing"
#include "../mpi/mpitest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MB 1000000
#define NEAR(a, b) (fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-12)

static double timed_write_at(MPI_File fh, MPI_Offset off, const void *buf, int n)
{
  double t = MPI_Wtime();
  MPI_File_write_at(fh, off, buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
  return MPI_Wtime() - t;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank = wrank();
  mpitest_need(wsize() == 5, "5 ranks");
  MPI_Comm nodes; /* the compute ranks 0..3 */
  MPI_Comm_split(MPI_COMM_WORLD, rank < 4 ? 0 : MPI_UNDEFINED, rank, &nodes);
  char *buf = calloc(100 * MB, 1);
  MPI_File loc, pfs;
  double t, t2;

  /* ---- local disks ---- */
  MPI_File_open(MPI_COMM_SELF, "/scratch/io_timing.dat", MPI_MODE_CREATE | MPI_MODE_RDWR,
                MPI_INFO_NULL, &loc);
  if (rank == 0) {
    t = timed_write_at(loc, 0, buf, 25 * MB);
    CHECK(NEAR(t, 0.1), "local write 25 MB: %.9f s", t);
    MPI_File_write_at(loc, 0, buf, 50 * MB, MPI_BYTE, MPI_STATUS_IGNORE);
    t = MPI_Wtime();
    MPI_File_read_at(loc, 0, buf, 50 * MB, MPI_BYTE, MPI_STATUS_IGNORE);
    t = MPI_Wtime() - t;
    CHECK(NEAR(t, 0.1), "local read 50 MB: %.9f s", t);
    MPI_Request rq[2];
    double t0 = MPI_Wtime(), tw, tr;
    MPI_File_iwrite_at(loc, 50 * MB, buf, 25 * MB, MPI_BYTE, &rq[0]);
    MPI_File_iread_at(loc, 0, buf + 25 * MB, 50 * MB, MPI_BYTE, &rq[1]);
    int idx;
    MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
    CHECK(idx == 0, "the write ends first");
    tw = MPI_Wtime() - t0;
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    tr = MPI_Wtime() - t0;
    CHECK(NEAR(tw, 0.1) && NEAR(tr, 0.15), "write and read together: %.9f and %.9f s", tw, tr);
    /* a nonblocking write overlaps computation */
    t0 = MPI_Wtime();
    MPI_File_iwrite_at(loc, 0, buf, 25 * MB, MPI_BYTE, &rq[0]);
    smpi_execute_flops(1e8);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    t = MPI_Wtime() - t0;
    CHECK(NEAR(t, 0.1), "iwrite overlapping 0.1 s of computation: %.9f s", t);
    /* folded memory is written without being there */
    char *big = SMPI_SHARED_MALLOC(100 * MB);
    t = timed_write_at(loc, 0, big, 100 * MB);
    MPI_Offset sz;
    MPI_File_get_size(loc, &sz);
    CHECK(NEAR(t, 0.4) && sz == 100 * MB, "shared-malloc write: %.9f s, size %lld", t,
          (long long)sz);
    SMPI_SHARED_FREE(big);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank < 2) { /* two nodes, two disks: no sharing */
    t = timed_write_at(loc, 0, buf, 25 * MB);
    CHECK(NEAR(t, 0.1), "local write on node %d alongside another: %.9f s", rank + 1, t);
  }
  MPI_File_close(&loc);

  /* ---- the storage host, over the network ---- */
  MPI_Barrier(MPI_COMM_WORLD);
  double tsend = 0;
  if (rank == 0) {
    t = MPI_Wtime();
    MPI_Send(buf, 40 * MB, MPI_BYTE, 4, 0, MPI_COMM_WORLD);
    tsend = MPI_Wtime() - t;
  } else if (rank == 4) {
    MPI_Recv(buf, 40 * MB, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Bcast(&tsend, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank < 4) {
    MPI_File_open(nodes, "io_timing_pfs.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                  &pfs);
    if (rank == 0) {
      t = timed_write_at(pfs, 0, buf, 40 * MB);
      CHECK(t > 0.1 && t < 0.1 + 0.05 * tsend, "remote write 40 MB: %.9f s (send %.9f)", t,
            tsend);
    }
    MPI_Barrier(nodes);
    t = timed_write_at(pfs, (MPI_Offset)rank * 40 * MB, buf, 40 * MB);
    double tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, nodes);
    CHECK(tmax > 0.4 && tmax < 0.4 + 0.2 * tsend, "4 remote writes of 40 MB: %.9f s", tmax);
  }
  /* contention with application messages on the storage link */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    t = timed_write_at(pfs, 0, buf, 40 * MB);
    MPI_Barrier(MPI_COMM_WORLD);
    t2 = timed_write_at(pfs, 0, buf, 40 * MB);
    CHECK(t2 > 1.15 * t, "write with 3 messages on its link: %.9f s, alone %.9f s", t2, t);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank >= 1 && rank <= 3)
      MPI_Send(buf, 100 * MB, MPI_BYTE, 4, 1, MPI_COMM_WORLD);
    if (rank == 4) {
      char *in = malloc(300 * MB); /* three receives posted at once: they share the link */
      MPI_Request rq[3];
      for (int i = 0; i < 3; i++)
        MPI_Irecv(in + i * 100 * MB, 100 * MB, MPI_BYTE, i + 1, 1, MPI_COMM_WORLD, &rq[i]);
      MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
      free(in);
    }
  }

  /* ---- collective buffering: interleaved 1 KiB blocks ---- */
  if (rank < 4) {
    MPI_Datatype blk, ft;
    MPI_Type_contiguous(1024, MPI_BYTE, &blk);
    MPI_Type_create_resized(blk, 0, 4 * 1024, &ft);
    MPI_Type_commit(&ft);
    MPI_Type_free(&blk);
    double tc, ti;
    for (int coll = 1; coll >= 0; coll--) {
      MPI_File_set_view(pfs, 200 * MB + rank * 1024, MPI_BYTE, ft, "native", MPI_INFO_NULL);
      MPI_Barrier(nodes);
      t = MPI_Wtime();
      if (coll)
        MPI_File_write_all(pfs, buf, 4 << 20, MPI_BYTE, MPI_STATUS_IGNORE);
      else
        MPI_File_write(pfs, buf, 4 << 20, MPI_BYTE, MPI_STATUS_IGNORE);
      t = MPI_Wtime() - t;
      MPI_Allreduce(&t, coll ? &tc : &ti, 1, MPI_DOUBLE, MPI_MAX, nodes);
    }
    CHECK(ti > 4 * tc, "interleaved: collective %.6f s, independent %.6f s", tc, ti);
    if (rank == 0)
      printf("io_timing: interleaved 4 x 4 MiB: collective %.6f s, independent %.6f s\n", tc, ti);
    MPI_Type_free(&ft);
    MPI_File_close(&pfs);
    MPI_Comm_free(&nodes);
  }
  free(buf);
  return mpitest_finalize();
}
