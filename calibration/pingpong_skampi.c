/* pingpong_skampi: a minimal MPI ping-pong that writes its results in SKaMPI's output
 * format, for users who cannot build SKaMPI. It is OURS (the smpi project's), not SKaMPI:
 * its output says so in the first line, and it measures only what smpi-calibrate needs, the
 * Pingpong_Send_Recv pattern.
 *
 * Per message size, per repetition: rank 1 posts its receive and sends rank 0 an empty
 * "ready" message; then rank 0 times MPI_Send + MPI_Recv (one round trip) and rank 1 times
 * the completion of its receive + MPI_Send. Repetitions go
 * on until there are at least -reps-min of them and the relative standard error of rank 0's
 * mean is at most -rse, or -reps-max are done (SKaMPI's rule). The line written per size is
 *
 *   count= <size> <size> <mean round trip us> <std error us> <reps> <rank 0 us> <rank 1 us>
 *
 * exactly as SKaMPI 5 writes a Pingpong_Send_Recv block over MPI_CHAR (count = bytes), with
 * -decimals digits (SKaMPI prints 1; the default 3 keeps nanoseconds).
 *
 * Standard MPI only. Build and run with any MPI, e.g. Debian's MPICH:
 *   mpicc -O2 -o pingpong_skampi calibration/pingpong_skampi.c -lm
 *   mpirun -np 2 ./pingpong_skampi -o pp1.sko; mpirun -np 2 ./pingpong_skampi -o pp2.sko
 *   smpi-calibrate pp1.sko pp2.sko
 * The first line of the output names this program: smpi-calibrate's closed-loop fit models
 * its runs as this pattern (a round trip after a handshake), not as SKaMPI's. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VERSION "1.0"

typedef struct params {
  const char *out;
  long min, max;
  double step;
  int reps_min, reps_max;
  double rse;
  int decimals;
  const char *name;
  long *list; /* -sizes: explicit sizes, instead of min/max/step */
  int nlist;
} params;

static void usage(FILE *f)
{
  fprintf(f, "Usage: mpirun -np 2 pingpong_skampi [-o FILE] [-min BYTES] [-max BYTES]\n"
             "         [-step 2|sqrt2] [-reps-min N] [-reps-max N] [-rse X] [-decimals D]\n"
             "         [-name BLOCK] [-sizes S1,S2,...]\n"
             "Defaults: stdout, 1 .. 4194304 bytes, step 2, 16 .. 64 repetitions, relative\n"
             "standard error 0.02, 3 decimals, block \"Pingpong_Send_Recv\".\n");
}

/* Returns 0, or 1 after printing why (rank 0 only prints). */
static int parse(int argc, char **argv, params *p, int rank)
{
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char *end = NULL;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      if (rank == 0)
        usage(stdout);
      return 1;
    }
    if (!v) {
      if (rank == 0)
        fprintf(stderr, "pingpong_skampi: %s needs a value\n", a);
      return 1;
    }
    i++;
    if (strcmp(a, "-o") == 0)
      p->out = v;
    else if (strcmp(a, "-min") == 0)
      p->min = strtol(v, &end, 10);
    else if (strcmp(a, "-max") == 0)
      p->max = strtol(v, &end, 10);
    else if (strcmp(a, "-step") == 0)
      p->step = strcmp(v, "sqrt2") == 0 ? sqrt(2.0) : strtod(v, &end);
    else if (strcmp(a, "-reps-min") == 0)
      p->reps_min = (int)strtol(v, &end, 10);
    else if (strcmp(a, "-reps-max") == 0)
      p->reps_max = (int)strtol(v, &end, 10);
    else if (strcmp(a, "-rse") == 0)
      p->rse = strtod(v, &end);
    else if (strcmp(a, "-decimals") == 0)
      p->decimals = (int)strtol(v, &end, 10);
    else if (strcmp(a, "-name") == 0)
      p->name = v;
    else if (strcmp(a, "-sizes") == 0) {
      for (const char *c = v; *c; c++)
        p->nlist += *c == ',';
      p->nlist++;
      p->list = malloc((size_t)p->nlist * sizeof *p->list);
      const char *c = v;
      for (int k = 0; k < p->nlist; k++) {
        p->list[k] = strtol(c, &end, 10);
        if (end == c || (*end != ',' && *end != '\0') || p->list[k] < 0 ||
            (k > 0 && p->list[k] < p->list[k - 1])) {
          if (rank == 0)
            fprintf(stderr,
                    "pingpong_skampi: -sizes %s: increasing non-negative integers "
                    "separated by commas expected\n",
                    v);
          return 1;
        }
        c = *end ? end + 1 : end;
      }
      end = NULL;
      p->min = p->list[0];
      p->max = p->list[p->nlist - 1];
    } else {
      if (rank == 0) {
        fprintf(stderr, "pingpong_skampi: unknown option %s\n", a);
        usage(stderr);
      }
      return 1;
    }
    if (end && *end) {
      if (rank == 0)
        fprintf(stderr, "pingpong_skampi: %s %s: not a number\n", a, v);
      return 1;
    }
  }
  if (p->min < 0 || p->max < p->min || p->step <= 1 || p->reps_min < 1 ||
      p->reps_max < p->reps_min || p->rse < 0 || p->decimals < 0 || p->decimals > 9) {
    if (rank == 0)
      fprintf(stderr, "pingpong_skampi: need 0 <= min <= max, step > 1, 1 <= reps-min <= "
                      "reps-max, rse >= 0, 0 <= decimals <= 9\n");
    return 1;
  }
  return 0;
}

/* SKaMPI's loop "for count = min to max step *f" keeps the exact product and uses it rounded,
 * skipping a rounded value equal to the previous one: with *sqrt(2), 1 2 3 4 6 8 11 16 23 32. */
static long next_size(double *x, long s, double step)
{
  if (*x < 1)
    *x = 1;
  long n;
  do {
    *x *= step;
    n = (long)floor(*x + 0.5);
  } while (n <= s);
  return n;
}

static void now_string(char *buf, size_t len)
{
  time_t t = time(NULL);
  snprintf(buf, len, "%s", ctime(&t)); /* ends in '\n', as in SKaMPI's output */
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  params p = {.out = NULL,
              .min = 1,
              .max = 4194304,
              .step = 2,
              .reps_min = 16,
              .reps_max = 64,
              .rse = 0.02,
              .decimals = 3,
              .name = "Pingpong_Send_Recv"};
  if (parse(argc, argv, &p, rank) != 0) {
    MPI_Finalize();
    return 1;
  }
  if (size < 2) {
    if (rank == 0)
      fprintf(stderr, "pingpong_skampi: run it with 2 processes (mpirun -np 2)\n");
    MPI_Finalize();
    return 1;
  }
  FILE *out = stdout;
  if (rank == 0 && p.out && !(out = fopen(p.out, "w"))) {
    perror(p.out);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char *buf = malloc((size_t)(p.max > 0 ? p.max : 1));
  double *samples = malloc((size_t)p.reps_max * sizeof *samples);
  if (!buf || !samples) {
    fprintf(stderr, "pingpong_skampi: out of memory for %ld-byte messages\n", p.max);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(buf, 'x', (size_t)(p.max > 0 ? p.max : 1));
  double t_start = MPI_Wtime();
  if (rank == 0) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], when[64];
    int len;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl)
      *nl = '\0';
    now_string(when, sizeof when);
    fprintf(out,
            "# pingpong_skampi %s (smpi project) -- NOT SKaMPI: a minimal ping-pong "
            "writing SKaMPI's output format\n# MPI: %s\n\n# Started at %s\n\n",
            VERSION, lib, when);
    fprintf(out, "# begin result \"%s\"\n", p.name);
  }
  /* the first barriers and messages of a run set up connections: keep them out of the
   * first size's numbers */
  for (int w = 0; w < 16; w++) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(buf, 1, MPI_CHAR, 0, MPI_COMM_WORLD);
  }
  /* ranks beyond 1 only take part in the broadcasts */
  double x = (double)p.min; /* the loop variable before rounding */
  for (long s = p.list ? p.list[0] : p.min, li = 0; s <= p.max;
       s = p.list ? (++li < p.nlist ? p.list[li] : p.max + 1) : next_size(&x, s, p.step)) {
    int count = (int)s, reps = 0, go = 1;
    if (rank == 0) { /* warm-up round trip, not timed */
      MPI_Send(buf, count, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, count, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, count, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, count, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
    double sum = 0, sumsq = 0, own = 0;
    while (go) {
      /* Start handshake: rank 1 posts its receive, then tells rank 0 it is ready with an
       * empty message. Rank 0 starts its clock once that message is in: the receive is
       * posted (a late receive would delay a rendezvous message by the skew between the
       * ranks) and no earlier message is still in flight between them (a barrier's or a
       * broadcast's last message could otherwise share the link with the ping). */
      MPI_Request req = MPI_REQUEST_NULL;
      double t0 = 0, dt;
      if (rank == 1) {
        MPI_Irecv(buf, count, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Send(NULL, 0, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send(buf, count, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      } else if (rank == 0) {
        MPI_Recv(NULL, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        t0 = MPI_Wtime();
        MPI_Send(buf, count, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, count, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      dt = (MPI_Wtime() - t0) * 1e6;
      samples[reps++] = dt;
      own += dt;
      if (rank == 0) {
        sum += dt;
        sumsq += dt * dt;
        double mean = sum / reps;
        double var = reps > 1 ? (sumsq - reps * mean * mean) / (reps - 1) : 0;
        double se = reps > 1 && var > 0 ? sqrt(var / reps) : 0;
        go = reps < p.reps_max && (reps < p.reps_min || se > p.rse * mean);
      }
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    double own_mean = own / reps, other = 0;
    if (rank == 1)
      MPI_Send(&own_mean, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    if (rank == 0) {
      MPI_Recv(&other, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      double mean = sum / reps, m2 = 0;
      for (int i = 0; i < reps; i++)
        m2 += (samples[i] - mean) * (samples[i] - mean);
      double se = reps > 1 ? sqrt(m2 / (reps - 1) / reps) : 0;
      int d = p.decimals;
      fprintf(out, "count= %ld %8ld %9.*f %9.*f %8d %9.*f %9.*f\n", s, s, d, mean, d, se, reps, d,
              own_mean, d, other);
      fflush(out);
    }
  }
  if (rank == 0) {
    char when[64];
    now_string(when, sizeof when);
    fprintf(out, "# end result \"%s\"\n# duration = %4.2f sec\n\n", p.name,
            MPI_Wtime() - t_start);
    fprintf(out, "\n# Finished at %s# Total runtime %0.0f seconds\n\n", when,
            MPI_Wtime() - t_start);
    if (out != stdout)
      fclose(out);
  }
  free(buf);
  free(samples);
  free(p.list);
  MPI_Finalize();
  return 0;
}
