// C++ globals whose constructors allocate, mutated by every rank: each rank must have its own
// objects (as each process has under MPICH), built before its main and destroyed after it.
//
//   cxx_globals       every rank appends to a long std::string, a pre-filled std::vector and a
//                     std::map, a static local and a thread_local, with MPI calls in between
//                     (the ranks interleave), checks that it sees only its own changes, throws
//                     an exception across an MPI call and catches it. Each rank's Tracker prints
//                     "cxx_globals: destructor of rank R" once, after its main: porting.py counts
//                     them (np lines, no more: the objects built before the simulation are not
//                     destroyed again).
// Before issue 21: "double free or corruption" (one heap block per object, shared by all).
#include <mpi.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

static std::string text(200, 'x');
static std::vector<int> numbers(1000, 7);
static std::map<int, std::string> table = {{1, std::string(100, 'a')}, {2, "b"}};
static std::ostringstream log_stream;
static int constructed; // how many Trackers this rank built

struct Tracker {
  int rank = -1;
  std::string name;
  Tracker() : name(64, 't') { constructed++; }
  ~Tracker()
  {
    if (rank >= 0)
      std::printf("cxx_globals: destructor of rank %d\n", rank);
  }
};
static Tracker tracker;

static std::string &static_local()
{
  static std::string s(80, 's');
  return s;
}

thread_local std::vector<int> per_thread(50, 1);

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  tracker.rank = rank;
  if (constructed != 1 || text != std::string(200, 'x') || numbers.size() != 1000 ||
      table.size() != 2)
    bad++;
  for (int round = 0; round < 20; round++) {
    text += std::string(100, char('A' + rank));
    numbers.push_back(rank);
    table[100 + round] = std::string(64 + rank, char('a' + rank));
    static_local() += std::to_string(rank);
    per_thread.push_back(rank);
    log_stream << "rank " << rank << " round " << round << "\n";
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (text.size() != 200 + 20 * 100 || text.find_first_not_of(std::string("x") + char('A' + rank)) != std::string::npos)
    bad++;
  if (numbers.size() != 1020 || numbers.back() != rank || table.size() != 22 ||
      table[119] != std::string(64 + rank, char('a' + rank)))
    bad++;
  if (static_local() != std::string(80, 's') + std::string(20, char('0' + rank % 10)))
    bad++;
  if (per_thread.size() != 70 || per_thread.back() != rank)
    bad++;
  if (log_stream.str().find("rank " + std::to_string((rank + 1) % size)) != std::string::npos && size > 1)
    bad++;
  try {
    MPI_Barrier(MPI_COMM_WORLD);
    throw std::runtime_error("across MPI");
  } catch (const std::runtime_error &e) {
    if (std::string(e.what()) != "across MPI")
      bad++;
  }
  int all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (bad)
    std::printf("cxx_globals: rank %d saw another rank's objects (%d checks failed)\n", rank, bad);
  if (rank == 0 && all == 0)
    std::printf("cxx_globals: OK\n");
  MPI_Finalize();
  return all != 0;
}
