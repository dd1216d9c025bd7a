/* Every rank parses its own arguments with getopt_long, before MPI_Init (CoMD's way) and again
 * after it (optind = 1, a second pass), and with getopt (short options only) on a copy: each
 * must find every option and the same operands, as each process does under MPICH.
 *
 *   getopt_args -v -n 3 --size=128 -ab in.dat --name foo out.dat
 *
 * Before issue 21 the first rank consumed the arguments (optind is libc's, one per process)
 * and every other rank saw none. */
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct parsed {
  int verbose, n, size, a, b;
  char name[16], ops[2][16];
  int nops;
};

static const struct option longopts[] = {{"size", required_argument, NULL, 's'},
                                         {"name", required_argument, NULL, 'N'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {NULL, 0, NULL, 0}};

static void parse(int argc, char **argv, struct parsed *p, int use_long)
{
  memset(p, 0, sizeof *p);
  int c;
  while ((c = use_long ? getopt_long(argc, argv, "vn:ab", longopts, NULL)
                       : getopt(argc, argv, "vn:ab")) != -1) {
    switch (c) {
    case 'v':
      p->verbose++;
      break;
    case 'n':
      p->n = atoi(optarg);
      break;
    case 's':
      p->size = atoi(optarg);
      break;
    case 'N':
      snprintf(p->name, sizeof p->name, "%s", optarg);
      break;
    case 'a':
      p->a++;
      break;
    case 'b':
      p->b++;
      break;
    default:
      break;
    }
  }
  for (int i = optind; i < argc && p->nops < 2; i++)
    snprintf(p->ops[p->nops++], sizeof p->ops[0], "%s", argv[i]);
}

static int check(const struct parsed *p, int rank, const char *when, int use_long)
{
  int ok = p->verbose == 1 && p->n == 3 && p->a == 1 && p->b == 1 && p->nops == 2 &&
           !strcmp(p->ops[0], "in.dat") && !strcmp(p->ops[1], "out.dat");
  if (use_long)
    ok = ok && p->size == 128 && !strcmp(p->name, "foo");
  if (!ok)
    printf("getopt_args: rank %d, %s: verbose %d n %d size %d a %d b %d name '%s' %d "
           "operands '%s' '%s'\n",
           rank, when, p->verbose, p->n, p->size, p->a, p->b, p->name, p->nops, p->ops[0],
           p->ops[1]);
  return ok;
}

int main(int argc, char **argv)
{
  struct parsed before, after, shortp;
  parse(argc, argv, &before, 1);
  MPI_Init(&argc, &argv);
  int rank, ok = 1, all = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  optind = 1;
  parse(argc, argv, &after, 1);
  /* the short-option pass on argv as it was given (getopt_long permuted the operands) */
  char *copy[] = {argv[0], "-v", "-n", "3", "-ab", "--", "in.dat", "out.dat", NULL};
  optind = 1;
  parse(8, copy, &shortp, 0);
  ok &= check(&before, rank, "before MPI_Init", 1);
  ok &= check(&after, rank, "after MPI_Init", 1);
  ok &= check(&shortp, rank, "getopt", 0);
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0 && all)
    printf("getopt_args: OK\n");
  MPI_Finalize();
  return all ? 0 : 1;
}
