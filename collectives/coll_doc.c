/* `smpirun -help-coll` and the tables of docs/collectives.md, generated from coll_list.h
 * and from the selectors themselves: the "who picks what" part evaluates each selector on a
 * grid of communicator sizes and message sizes, so it cannot drift from the code.
 *
 * A selector's choices for one message size are printed as runs over the size grid:
 *
 *   mpich  m=16 KiB   n=2..4: binomial_tree, n=8..64: scatter_rdb_allgather, ... */
#include <stdio.h>
#include <string.h>

#include "collectives/coll_private.h"

/* the grids: communicator sizes and bytes (m, as coll_list.h defines it per collective) */
static const int grid_n[] = {2, 3, 4, 8, 12, 13, 16, 17, 32, 64, 128, 256, 1024};
#define NN ((int)(sizeof grid_n / sizeof grid_n[0]))
static const size_t grid_m[] = {8, 256, 2048, 16384, 65536, 262144, 1048576, 8388608};
#define NM ((int)(sizeof grid_m / sizeof grid_m[0]))

static bool is_reduction(coll_id c)
{
  return c == COLL_reduce || c == COLL_allreduce || c == COLL_reduce_scatter ||
         c == COLL_reduce_scatter_block || c == COLL_scan || c == COLL_exscan;
}

static bool has_blocks(coll_id c) /* m is one block among n */
{
  return c == COLL_gather || c == COLL_gatherv || c == COLL_scatter || c == COLL_scatterv ||
         c == COLL_allgather || c == COLL_allgatherv || c == COLL_alltoall ||
         c == COLL_reduce_scatter || c == COLL_reduce_scatter_block;
}

/* features of a call with n ranks and m bytes, 8-byte elements */
static coll_features features(coll_id c, int n, size_t m, bool commutative)
{
  coll_features f;
  memset(&f, 0, sizeof f);
  f.coll = c;
  f.size = n;
  f.dtsize = 8;
  f.count = m / 8 ? m / 8 : 1;
  f.bytes = f.count * 8;
  f.total = has_blocks(c) ? f.bytes * (size_t)n : f.bytes;
  if (c == COLL_reduce_scatter)
    f.count *= (size_t)n; /* the whole vector */
  f.commutative = commutative;
  f.ppn = 1; /* one rank per host (the impi selector decides on it) */
  return f;
}

static const char *pick(size_t sel, coll_id c, int n, size_t m, bool commutative)
{
  coll_features f = features(c, n, m, commutative);
  if (c == COLL_barrier)
    f.bytes = f.count = f.total = 0;
  return coll_algos[coll_selectors[sel].select(&f)].name;
}

static void human_size(size_t m, char *buf, size_t len)
{
  if (m >= 1048576 && m % 1048576 == 0)
    snprintf(buf, len, "%zu MiB", m / 1048576);
  else if (m >= 1024 && m % 1024 == 0)
    snprintf(buf, len, "%zu KiB", m / 1024);
  else
    snprintf(buf, len, "%zu B", m);
}

/* one selector's choices for one m, as runs over the n grid, into buf */
static void runs(char *buf, size_t len, size_t sel, coll_id c, size_t m, bool commutative)
{
  buf[0] = 0;
  const char *all = pick(sel, c, grid_n[0], m, commutative);
  bool same = true;
  for (int k = 1; k < NN; k++)
    same &= !strcmp(all, pick(sel, c, grid_n[k], m, commutative));
  if (same) {
    snprintf(buf, len, "%s", all);
    return;
  }
  for (int i = 0; i < NN;) {
    const char *a = pick(sel, c, grid_n[i], m, commutative);
    int j = i;
    while (j + 1 < NN && !strcmp(a, pick(sel, c, grid_n[j + 1], m, commutative)))
      j++;
    size_t used = strlen(buf);
    if (i == j)
      snprintf(buf + used, len - used, "%sn=%d: %s", i ? ", " : "", grid_n[i], a);
    else
      snprintf(buf + used, len - used, "%sn=%d..%d: %s", i ? ", " : "", grid_n[i], grid_n[j], a);
    i = j + 1;
  }
}

/* calls emit(m range, choice) for one selector, merging message sizes with the same
 * choices: "8 B .. 2 KiB" */
typedef void (*emit_fn)(FILE *out, const char *sel, const char *mrange, const char *choice);
static void table(FILE *out, size_t sel, coll_id c, bool commutative, emit_fn emit)
{
  if (coll_selectors[sel].select == coll_select_automatic)
    return; /* it tries them all: no table of choices */
  char cur[1024], next[1024], range[80], lo[32], hi[32];
  int nm = c == COLL_barrier ? 1 : NM;
  bool first = true;
  for (int j = 0; j < nm;) {
    runs(cur, sizeof cur, sel, c, grid_m[j], commutative);
    int k = j;
    while (k + 1 < nm) {
      runs(next, sizeof next, sel, c, grid_m[k + 1], commutative);
      if (strcmp(cur, next))
        break;
      k++;
    }
    human_size(grid_m[j], lo, sizeof lo);
    human_size(grid_m[k], hi, sizeof hi);
    if (c == COLL_barrier)
      snprintf(range, sizeof range, "-");
    else if (j == k)
      snprintf(range, sizeof range, "%s", lo);
    else
      snprintf(range, sizeof range, "%s .. %s", lo, hi);
    emit(out, first ? coll_selectors[sel].name : "", range, cur);
    first = false;
    j = k + 1;
  }
}

static void emit_text(FILE *out, const char *sel, const char *mrange, const char *choice)
{
  fprintf(out, "    %-8s %-18s %s\n", sel, mrange, choice);
}

static void emit_md(FILE *out, const char *sel, const char *mrange, const char *choice)
{
  fprintf(out, "| %s | %s | %s |\n", sel, mrange, choice);
}

static void flags_text(unsigned fl, char *buf, size_t len)
{
  buf[0] = 0;
  struct {
    unsigned bit;
    const char *what;
  } names[] = {{COLL_F_COMMUTATIVE, "commutative op"},
               {COLL_F_POW2, "power-of-two size"},
               {COLL_F_EVEN, "even size"},
               {COLL_F_SIZE2, "2 ranks"},
               {COLL_F_COUNT_POW2, "count >= 2^floor(log2 n)"},
               {COLL_F_SMP, "equal blocks of ranks per host"},
               {COLL_F_REGULAR, "equal blocks"},
               {COLL_F_MESH2, "n = X * Y, X from sqrt(n) up"},
               {COLL_F_MESH3, "n = X * X * Z, X from cbrt(n) up"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (fl & names[i].bit)
      snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "", names[i].what);
}

void coll_print_help(FILE *out)
{
  fprintf(out,
          "Collective algorithms. Choose one with --cfg=smpi/<collective>:<algorithm>, or a\n"
          "selector for one collective with --cfg=smpi/<collective>:<selector>; unset\n"
          "collectives follow --cfg=smpi/coll-selector:<selector> (default: default).\n"
          "A forced algorithm that cannot serve a call (see 'needs') falls back to the\n"
          "selector's choice with a warning.\n\nSelectors:\n");
  for (size_t k = 0; k < coll_nselectors; k++)
    fprintf(out, "  %-10s %s\n", coll_selectors[k].name, coll_selectors[k].desc);
  for (int c = 0; c < COLL_COUNT; c++) {
    fprintf(out, "\n%s (--cfg=smpi/%s:...)", coll_infos[c].mpi_name, coll_infos[c].name);
    if (c != COLL_barrier)
      fprintf(out, ", m = %s", coll_infos[c].desc);
    fputc('\n', out);
    for (int i = 0; i < COLL_ALG_COUNT; i++) {
      if (coll_algos[i].coll != (coll_id)c)
        continue;
      char fl[160];
      flags_text(coll_algos[i].flags, fl, sizeof fl);
      fprintf(out, "  %-28s %s%s%s%s\n", coll_algos[i].name, coll_algos[i].desc,
              fl[0] ? " [needs " : "", fl, fl[0] ? "]" : "");
    }
    for (int pass = 0; pass < (is_reduction((coll_id)c) ? 2 : 1); pass++) {
      fprintf(out, "  picks%s (n ranks, m bytes):\n", pass ? " for a non-commutative op" : "");
      for (size_t k = 0; k < coll_nselectors; k++)
        table(out, k, (coll_id)c, pass == 0, emit_text);
    }
  }
}

void coll_print_markdown(FILE *out)
{
  fprintf(out, "### Selectors\n\n| selector | what it reproduces |\n|---|---|\n");
  for (size_t k = 0; k < coll_nselectors; k++)
    fprintf(out, "| `%s` | %s |\n", coll_selectors[k].name, coll_selectors[k].desc);
  for (int c = 0; c < COLL_COUNT; c++) {
    fprintf(out, "\n### %s (`smpi/%s`)\n\n", coll_infos[c].mpi_name, coll_infos[c].name);
    if (c != COLL_barrier)
      fprintf(out, "m = %s.\n\n", coll_infos[c].desc);
    fprintf(out, "| algorithm | SimGrid 3.32 | needs | what it does |\n|---|---|---|---|\n");
    for (int i = 0; i < COLL_ALG_COUNT; i++) {
      if (coll_algos[i].coll != (coll_id)c)
        continue;
      char fl[160];
      flags_text(coll_algos[i].flags, fl, sizeof fl);
      fprintf(out, "| `%s` | %s | %s | %s |\n", coll_algos[i].name,
              coll_algos[i].flags & COLL_SG ? "same" : "-", fl[0] ? fl : "-", coll_algos[i].desc);
    }
    for (int pass = 0; pass < (is_reduction((coll_id)c) ? 2 : 1); pass++) {
      fprintf(out, "\nChoices%s (n ranks, among n = %d", pass ? " for a non-commutative op" : "",
              grid_n[0]);
      for (int i = 1; i < NN; i++)
        fprintf(out, ", %d", grid_n[i]);
      fprintf(out, "):\n\n| selector | m | algorithm |\n|---|---|---|\n");
      for (size_t k = 0; k < coll_nselectors; k++)
        table(out, k, (coll_id)c, pass == 0, emit_md);
    }
  }
}
