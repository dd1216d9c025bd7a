/* A program written for SimGrid's SMPI, with its spellings: <smpi/smpi.h> and <smpi/mpi.h>
 * (with <mpi.h> too), <simgrid/instr.h> and its categories, SMPI_NO_OVERRIDE_MALLOC, and the
 * simulator detected with `#ifdef SMPI_H`. Built by our smpicc on a machine where SimGrid's
 * headers are installed in /usr/include (they must not be picked up: the types conflict), and
 * with SMPI_PRETEND_CC=1 in the environment (SimGrid's switch for configure runs). */
#define SMPI_NO_OVERRIDE_MALLOC
#include <smpi/smpi.h>
#include <smpi/mpi.h>
#include <mpi.h>
#include <simgrid/instr.h>
#include <stdio.h>

#ifndef SMPI_H
#error "SMPI_H must be defined: programs detect the simulator with it"
#endif
#ifndef SMPI_SMPI_H
#error "<smpi/smpi.h> is not smpi's"
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  TRACE_category("compute");
  TRACE_category_with_color("exchange", "1 0 0");
  TRACE_smpi_set_category("exchange");
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  TRACE_smpi_set_category(NULL);
#ifdef SMPI_H
  smpi_execute_flops(1e6); /* what such a program does instead of computing for real */
#endif
  if (rank == 0 && sum == size * (size - 1) / 2)
    printf("simgrid_spellings: OK\n");
  MPI_Finalize();
  return sum == size * (size - 1) / 2 ? 0 : 1;
}
