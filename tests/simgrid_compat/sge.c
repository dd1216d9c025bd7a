/* The energy program of the SimGrid-compatibility cases (run.py): each rank computes at its
 * host's initial pstate, switches to its last pstate and computes again, then back to 0 for
 * a ring exchange. Rank 0 prints the time, and each rank's host energy as SimGrid's
 * sg_host_get_consumed_energy gives it (same source under SimGrid: its headers have these
 * names too; tools/simgrid-ref/record_compat.py). */
#include <mpi.h>
#include <simgrid/host.h>
#include <simgrid/plugins/energy.h>
#include <stdio.h>

void smpi_execute_flops(double flops);

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  sg_host_t host = sg_host_self();
  unsigned long np = sg_host_get_nb_pstates(host);
  smpi_execute_flops(5e7);
  sg_host_set_pstate(host, np - 1);
  smpi_execute_flops(5e7 * (rank + 1));
  MPI_Barrier(MPI_COMM_WORLD);
  sg_host_set_pstate(host, 0);
  static char buf[2][100000];
  MPI_Sendrecv(buf[0], 100000, MPI_CHAR, (rank + 1) % size, 0, buf[1], 100000, MPI_CHAR,
               (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double mine[3] = {sg_host_get_consumed_energy(host), (double)sg_host_get_pstate(host),
                    sg_host_get_pstate_speed(host, np - 1)};
  double all[3 * 16];
  MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double t = MPI_Wtime(), tmax;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("time %.17g\n", tmax);
    for (int r = 0; r < size && r < 16; r++)
      printf("rank%d_energy %.17g\nrank%d_pstate %g\nrank%d_slowest %g\n", r, all[3 * r], r,
             all[3 * r + 1], r, all[3 * r + 2]);
  }
  MPI_Finalize();
  return 0;
}
