/* mpi-coverage: prints which MPI functions smpi implements, as Markdown, straight from
 * include/smpi/mpi_functions.h (so the table can never drift from the code).
 *
 *   ninja -C build mpi-coverage            (or: build/tools/mpi-coverage [--stubs])
 *
 * One table per chapter of the standard, then a summary line "N of M implemented".
 * --stubs lists only the functions still to implement. */
#include <stdio.h>
#include <string.h>

#include "smpi/mpi.h"

enum { COV_SECTION, COV_STUB, COV_IMPL };

typedef struct {
  int what;
  const char *text; /* section title or function name */
} cov_entry;

#define SMPI_SECTION(title) {COV_SECTION, title},
#define COV_STATUS_STUB COV_STUB
#define COV_STATUS_IMPL COV_IMPL
#define SMPI_FN(ret, name, params, args, status) {COV_STATUS_##status, "MPI_" #name},
static const cov_entry cov_entries[] = {
#include "smpi/mpi_functions.h"
};
#undef SMPI_FN
#undef SMPI_SECTION

#define COV_N (sizeof cov_entries / sizeof cov_entries[0])

/* counts the functions of the section starting at entry i (a COV_SECTION) */
static void cov_count(size_t i, int *impl, int *total)
{
  *impl = *total = 0;
  for (size_t j = i + 1; j < COV_N && cov_entries[j].what != COV_SECTION; j++) {
    (*total)++;
    *impl += cov_entries[j].what == COV_IMPL;
  }
}

int main(int argc, char **argv)
{
  int stubs_only = argc > 1 && strcmp(argv[1], "--stubs") == 0;
  if (argc > 1 && !stubs_only) {
    fprintf(stderr, "usage: %s [--stubs]\n", argv[0]);
    return 2;
  }
  int impl_all = 0, total_all = 0;
  printf("# MPI %d.%d functions in smpi\n", MPI_VERSION, MPI_SUBVERSION);
  for (size_t i = 0; i < COV_N; i++) {
    const cov_entry *e = &cov_entries[i];
    if (e->what == COV_SECTION) {
      int impl, total;
      cov_count(i, &impl, &total);
      printf("\n## %s: %d of %d implemented\n\n| function | status |\n| --- | --- |\n", e->text,
             impl, total);
      continue;
    }
    total_all++;
    impl_all += e->what == COV_IMPL;
    if (!stubs_only || e->what == COV_STUB)
      printf("| %s | %s |\n", e->text, e->what == COV_IMPL ? "implemented" : "stub");
  }
  printf("\n**%d of %d MPI functions implemented** (%d stubs)\n", impl_all, total_all,
         total_all - impl_all);
  return 0;
}
