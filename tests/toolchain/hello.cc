// A C++ MPI program for smpicxx: C++ library, exceptions and main with C linkage.
#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> mine(4, rank), all(4 * static_cast<size_t>(size));
  MPI_Allgather(mine.data(), 4, MPI_INT, all.data(), 4, MPI_INT, MPI_COMM_WORLD);
  long sum = std::accumulate(all.begin(), all.end(), 0L);
  try {
    if (sum != 4L * size * (size - 1) / 2)
      throw std::runtime_error("allgather sum " + std::to_string(sum));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hello_cxx: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  if (rank == 0)
    std::printf("hello_cxx: OK\n");
  return 0;
}
