/* Payload copies of one simulation: every byte of message data, datatype pack/unpack,
 * collective or one-sided buffer and file data that the MPI layer moves with memcpy.
 *
 *   MPI_Send(1 MiB) detached, receive not yet posted:   sender -> bounce -> receiver: 2 MiB
 *   MPI_Send(1 MiB) detached, receive already posted:   sender -> receiver:           1 MiB
 *   MPI_Send(1 MiB) rendezvous:                         sender -> receiver:           1 MiB
 *
 * smpi/display-timing prints the total beside the time memcpy would need for it on this
 * machine (the floor of any simulator that must move the payload):
 *
 *   smpi: bytes copied: 3145728 in 3 copies (floor 0.000310 s at 10.1 GB/s memcpy)
 *
 * Bytes of folded memory (SMPI_SHARED_MALLOC) are not moved and not counted. */
#ifndef SMPI_RUNTIME_COPIES_H
#define SMPI_RUNTIME_COPIES_H

#include <stddef.h>
#include <stdio.h>

typedef struct smpi_copy_stats {
  unsigned long long bytes;  /* payload bytes moved with memcpy */
  unsigned long long copies; /* calls that moved at least one byte */
} smpi_copy_stats;

extern smpi_copy_stats smpi_copies;

/* n payload bytes were just copied (one copy, however many runs it had) */
static inline void smpi_copy_note(size_t n)
{
  if (n > 0) {
    smpi_copies.bytes += n;
    smpi_copies.copies++;
  }
}

/* This machine's memcpy bandwidth in bytes/s: configured (> 0, smpi/memcpy-bandwidth), or
 * the best of five copies of 8 MiB, measured on the first run on this host and cached in
 * ~/.cache/smpi/memcpy-bandwidth (copies.c says why 8 MiB). */
double smpi_memcpy_bandwidth(double configured);

/* The display-timing line above, on f. */
void smpi_copies_report(FILE *f, double configured);

#endif
