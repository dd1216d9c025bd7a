/* shared_sends: messages whose buffers lie in folded memory move only the bytes that are
 * private on both sides (docs/emulation.md, "Messages").
 *
 *   1. folded -> folded, 4 MiB contiguous, 4 KiB eager, and a strided vector type: the block
 *      backing folded memory is never touched (mincore: no page of it is resident, whereas a
 *      plain memcpy would read and write it);
 *   2. private -> folded: the folded destination is not written (still no resident page);
 *   3. folded -> private (a rendezvous-sized message, then a 4 KiB eager one and a 100-byte
 *      detached one, which are not copied into a bounce buffer either): the destination keeps
 *      its contents;
 *   4. partially folded panel (private header and trailer, folded middle) -> the same layout,
 *      contiguous and with a vector type: the private bytes arrive, the folded ones are skipped.
 *
 * Nothing else in this program touches folded memory, so "no resident page" means "the copy
 * did not touch it". Under a real MPI the macros are malloc and only the private checks run.
 * Two ranks or more (pairs 0->1 only). */
#define MPITEST_NAME "shared_sends"
#include "mpitest.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef SMPI_VERSION_MAJOR
#define FOLDED 1
#else
#define FOLDED 0
#define SMPI_SHARED_MALLOC(n) calloc(1, n)
#define SMPI_PARTIAL_SHARED_MALLOC(n, offsets, count) calloc(1, n)
#define SMPI_SHARED_FREE(p) free(p)
#endif

#define BIG ((size_t)4 << 20)
#define PAGE ((size_t)4096)

static int rank;

/* pages of [p, p + len) resident in memory (p page-aligned) */
static size_t resident(const void *p, size_t len)
{
  size_t n = (len + PAGE - 1) / PAGE, count = 0;
  unsigned char *vec = malloc(n);
  if (mincore((void *)p, len, vec) != 0) {
    perror("mincore");
    free(vec);
    return (size_t)-1;
  }
  for (size_t i = 0; i < n; i++)
    count += vec[i] & 1;
  free(vec);
  return count;
}

static unsigned char pattern(int r, size_t i) { return (unsigned char)(r * 31 + i % 251 + 1); }

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Datatype vec; /* every other 1 KiB of BIG bytes */
  MPI_Type_vector((int)(BIG / 2048), 1024, 2048, MPI_BYTE, &vec);
  MPI_Type_commit(&vec);

  if (rank <= 1) {
    int peer = 1 - rank;
    unsigned char *f = SMPI_SHARED_MALLOC(BIG);
    unsigned char *p = malloc(BIG);
    CHECK(f && p, "allocation failed");

    /* 1. folded -> folded */
    if (rank == 0) {
      MPI_Send(f, (int)BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Send(f, 4096, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
      MPI_Send(f, 1, vec, peer, 3, MPI_COMM_WORLD);
    } else {
      MPI_Recv(f, (int)BIG, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(f, 4096, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(f, 1, vec, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (FOLDED)
      CHECK(resident(f, BIG) == 0, "%zu pages of folded memory became resident",
            resident(f, BIG));

    /* 2. private -> folded */
    for (size_t i = 0; i < BIG; i++)
      p[i] = pattern(rank, i);
    if (rank == 0)
      MPI_Send(p, (int)BIG, MPI_BYTE, peer, 4, MPI_COMM_WORLD);
    else
      MPI_Recv(f, (int)BIG, MPI_BYTE, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (FOLDED)
      CHECK(resident(f, BIG) == 0, "a private -> folded send wrote %zu folded pages",
            resident(f, BIG));

    /* 3. folded -> private: under smpi the destination keeps its own bytes */
    if (rank == 0) {
      MPI_Send(f, (int)BIG, MPI_BYTE, peer, 5, MPI_COMM_WORLD);
    } else {
      MPI_Recv(p, (int)BIG, MPI_BYTE, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      size_t bad = 0;
      for (size_t i = 0; i < BIG; i++)
        bad += p[i] != pattern(rank, i);
      if (FOLDED)
        CHECK(bad == 0, "%zu bytes of the private destination were overwritten", bad);
    }

    /* 3b. the same with eager and detached sizes (no bounce buffer: nothing to deliver) */
    for (int k = 0; k < 2; k++) {
      int n = k ? 100 : (int)PAGE;
      if (rank == 0) {
        MPI_Send(f, n, MPI_BYTE, peer, 6 + k, MPI_COMM_WORLD);
      } else {
        MPI_Status st;
        MPI_Recv(p, n, MPI_BYTE, peer, 6 + k, MPI_COMM_WORLD, &st);
        int got = -1;
        MPI_Get_count(&st, MPI_BYTE, &got);
        CHECK(got == n, "received %d bytes instead of %d", got, n);
        size_t bad = 0;
        for (size_t i = 0; i < (size_t)n; i++)
          bad += p[i] != pattern(rank, i);
        if (FOLDED)
          CHECK(bad == 0,
                "%zu bytes of the private destination were overwritten (%d-byte "
                "message)",
                bad, n);
      }
    }

    /* 4. a panel: private first page and last page, folded middle, on both sides */
    size_t offsets[] = {PAGE, BIG - PAGE};
    unsigned char *q = SMPI_PARTIAL_SHARED_MALLOC(BIG, offsets, 1);
    CHECK(q != NULL, "partial allocation failed");
    for (size_t i = 0; i < PAGE; i++) {
      q[i] = pattern(rank, i);
      q[BIG - PAGE + i] = pattern(rank, BIG - PAGE + i);
    }
    for (int round = 0; round < 2; round++) {
      MPI_Datatype t = round ? vec : MPI_BYTE;
      int count = round ? 1 : (int)BIG;
      if (rank == 0) {
        MPI_Send(q, count, t, peer, 6, MPI_COMM_WORLD);
      } else {
        memset(q, 0, PAGE);
        memset(q + BIG - PAGE, 0, PAGE);
        MPI_Recv(q, count, t, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        size_t bad = 0;
        for (size_t i = 0; i < PAGE; i++) {
          size_t j = BIG - PAGE + i; /* the vector moves the first KiB of every 2 */
          bool moved0 = !round || i % 2048 < 1024, moved1 = !round || j % 2048 < 1024;
          bad += q[i] != (moved0 ? pattern(0, i) : 0);
          bad += q[j] != (moved1 ? pattern(0, j) : 0);
        }
        CHECK(bad == 0, "round %d: %zu private bytes of the panel did not arrive", round, bad);
      }
    }
    if (FOLDED)
      CHECK(resident(q + PAGE, BIG - 2 * PAGE) == 0, "the panel's folded part became resident");
    SMPI_SHARED_FREE(q);
    SMPI_SHARED_FREE(f);
    free(p);
  }
  MPI_Type_free(&vec);

  return mpitest_finalize();
}
