/* Time-independent (TI) traces, SimGrid 3.32's format: parsing one line, and the replay.
 *
 * A TI trace is one text line per MPI action of a rank, "<rank> <action> <args...>":
 *
 *   0 init
 *   0 compute 1e+06                 flops on the rank's host
 *   0 send 1 7 1000 6               dst tag count datatype   (isend, Ssend, Issend alike)
 *   1 recv 0 7 1000 6               src tag count datatype   (irecv alike; src -333/-555 =
 *                                                             any source)
 *   0 wait 0 1 7                    src dst tag of an isend/irecv still pending
 *   0 test 0 1 7                    same key, MPI_Test instead of MPI_Wait
 *   0 waitall 2                     every request still pending
 *   0 sendRecv 10 1 10 3 0 0        sendcount dst recvcount src sendtype recvtype
 *   0 bcast 50 1 0                  count root datatype
 *   0 reduce 50 0 0 0               count comp_flops root datatype
 *   0 allreduce 50 0 0              count comp_flops datatype     (scan, exscan alike)
 *   0 alltoall 2 2 0 0              sendcount recvcount sendtype recvtype (allgather alike)
 *   0 gather 3 3 0 0 0              sendcount recvcount root sendtype recvtype (scatter alike)
 *   0 alltoallv 10 1 2 3 4 4 1 1 1 1 0 0
 *                                   sendsum sendcounts[n] recvsum recvcounts[n] types
 *   0 gatherv 1 1 2 3 4 0 0 0       sendcount recvcounts[n] root sendtype recvtype
 *   0 allgatherv 1 1 2 3 4 0 0      sendcount recvcounts[n] sendtype recvtype
 *   0 scatterv 1 2 3 4 1 0 0 0      sendcounts[n] recvcount root sendtype recvtype
 *   0 reducescatter 1 2 3 4 0 0     recvcounts[n] comp_flops datatype
 *   0 barrier | finalize | comm_dup | ibarrier
 *   0 ibcast 10 0 0                 like bcast, nonblocking (iallreduce like allreduce)
 *   0 comm_size 4 | comm_split 1 0 | sleep 0.5
 *
 * Datatypes are SimGrid's numeric ids (replay_dt_*); trailing datatypes may be left out
 * (the default type: MPI_BYTE, or MPI_DOUBLE after "init" with an argument, as SimGrid
 * does for TAU/MPE traces); -1 is what SimGrid writes for a derived type (replayed as the
 * default type, with a warning). n in the v-collectives is the communicator's size, which
 * the parser must be told (a trace does not say it).
 *
 * The main trace file either lists one file per rank (one path a line, rank r reads the
 * r-th), or holds every rank's lines itself, or lists one file that does
 * (tracing/smpi/format/ti-one-file). */
#ifndef SMPI_SMPI_REPLAY_H
#define SMPI_SMPI_REPLAY_H

#include <stddef.h>

typedef enum {
  TI_INIT,
  TI_FINALIZE,
  TI_COMM_SIZE,
  TI_COMM_SPLIT,
  TI_COMM_DUP,
  TI_SEND,
  TI_ISEND,
  TI_SSEND,
  TI_ISSEND,
  TI_RECV,
  TI_IRECV,
  TI_SENDRECV,
  TI_TEST,
  TI_WAIT,
  TI_WAITALL,
  TI_BARRIER,
  TI_BCAST,
  TI_REDUCE,
  TI_ALLREDUCE,
  TI_SCAN,
  TI_EXSCAN,
  TI_ALLTOALL,
  TI_ALLGATHER,
  TI_GATHER,
  TI_SCATTER,
  TI_ALLTOALLV,
  TI_GATHERV,
  TI_ALLGATHERV,
  TI_SCATTERV,
  TI_REDUCESCATTER,
  TI_IBARRIER,
  TI_IBCAST,
  TI_IALLREDUCE,
  TI_COMPUTE,
  TI_SLEEP,
  TI_LOCATION,
  TI_FILE_READ, /* MPI-IO, our own verbs (SimGrid's TI has none): see smpi/observe/trace_ti.c */
  TI_FILE_WRITE,
  TI_FILE_READ_ALL,
  TI_FILE_WRITE_ALL,
  TI_KIND_COUNT
} ti_kind;

/* The datatype fields hold SimGrid ids; this marks a datatype the line left out. */
#define TI_DT_DEFAULT (-2)
/* SimGrid's id for a derived datatype (whose layout the trace does not keep). */
#define TI_DT_DERIVED (-1)

/* One parsed line. Which fields mean what depends on kind (see the table above):
 *   peer      dst (send family, sendRecv), src (recv family, wait/test), root, color
 *   peer2     dst of wait/test, src of sendRecv, key of comm_split
 *   count     count of p2p and of the plain collectives, sendcount (alltoall, gather...,
 *             sendRecv, gatherv, allgatherv), recvcount of scatterv, n of waitall/comm_size
 *   count2    recvcount (alltoall, gather, scatter, allgather, sendRecv)
 *   amount    flops (compute, reduce's comp_flops...), seconds (sleep)
 *   counts1   sendcounts (alltoallv, scatterv), recvcounts (gatherv, allgatherv,
 *             reducescatter), ncounts entries; counts2 recvcounts of alltoallv
 *   name      file_*: the file name (owned), with count = bytes, offset, span, pieces, and
 *             peer = the size of the file's communicator */
typedef struct ti_action {
  ti_kind kind;
  int rank; /* the line's first field */
  int peer, peer2, tag;
  long long count, count2;
  double amount;
  int dt1, dt2;
  int ncounts;
  long long *counts1, *counts2; /* owned; ti_action_clear frees them */
  char *name;                   /* owned */
  long long offset, span, pieces;
} ti_action;

/* Parses one line (without or with its '\n'). comm_size is the n of the v-collectives;
 * 0 accepts only lines that do not need it. Returns 1 with *out filled, 0 for a line with
 * nothing to do (blank, or a '#' comment), -1 with a message in err (never longer than
 * errlen) for a malformed line. *out must be zeroed or cleared before the first call; a
 * call frees what a previous one left in it. */
int ti_parse_line(const char *line, int comm_size, ti_action *out, char *err, size_t errlen);
void ti_action_clear(ti_action *a);
const char *ti_kind_name(ti_kind k);

/* SimGrid 3.32's numeric datatype ids, as its TI recorder writes them: the MPI name and
 * the size in bytes SimGrid gives the type. NULL for an id SimGrid does not use. */
const char *ti_dt_name(int id);
int ti_dt_size(int id);
/* The id of an MPI datatype name ("MPI_DOUBLE" -> 0), -1 if SimGrid has none. */
int ti_dt_id(const char *mpi_name);

/* Replay (smpi/replay/replay.c), run by each rank of the smpi-replay program: replays the rank's
 * actions of the trace through the MPI layer and returns 0, or prints "file:line: what"
 * and returns 1. Call between MPI_Init and MPI_Finalize. */
int smpi_replay_run(const char *trace_path);
/* The whole program: main(argc, argv) of tools/smpi-replay.c. argv[1] is the trace. */
int smpi_replay_main(int argc, char **argv);

#endif
