/* MPI_Init_thread reports the thread level smpi provides, honestly (docs/porting.md, "What is
 * refused"): ranks are user-level threads of one OS thread, so a rank's threads may not call
 * MPI, and the answer is MPI_THREAD_FUNNELED at most, whatever is asked; MPI_Query_thread
 * agrees; the rank's own thread is the main one. Argument: the level to ask (0..3). A
 * thread of the program calling MPI anyway is refused: tests/badinput, case thread-send. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  int required = argc > 1 ? atoi(argv[1]) : MPI_THREAD_MULTIPLE;
  static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                               MPI_THREAD_MULTIPLE};
  int asked = levels[required & 3], provided = -1, queried = -1, main_thread = 0, rank;
  MPI_Init_thread(&argc, &argv, asked, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Query_thread(&queried);
  MPI_Is_thread_main(&main_thread);
  int want = asked < MPI_THREAD_FUNNELED ? asked : MPI_THREAD_FUNNELED;
  int ok = provided == want && queried == want && main_thread;
  if (!ok)
    printf("rank %d: FAIL: asked %d, provided %d, MPI_Query_thread %d, main %d (want %d)\n", rank,
           asked, provided, queried, main_thread, want);
  int all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0 && all)
    printf("thread_level %d: provided %d: OK\n", asked, provided);
  MPI_Finalize();
  return !all;
}
