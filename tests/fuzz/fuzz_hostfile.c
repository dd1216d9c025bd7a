/* Fuzz target: hostfiles (smpi/runtime/hostfile.h), the text smpirun -hostfile reads.
 *
 * The whole input is the file, NUL bytes included (the parser takes a length). Oracles: a
 * successful parse has at least one entry; every name is non-empty, has no blank at either
 * end and no ':', '#', newline or NUL; slots are within 1..SMPI_HOSTFILE_MAX_SLOTS and add up
 * to total_slots; lines increase. Writing the entries back as "name:slots" lines and parsing
 * that again gives the same entries (the format loses nothing the runtime uses). */
#include "fuzz_common.h"

#include "smpi/runtime/hostfile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  fuzz_quiet();
  return 0;
}

static void check_entries(const smpi_hostfile *hf)
{
  FUZZ_REQUIRE(hf->count >= 1, "success with no entry");
  long total = 0;
  int last = 0;
  for (size_t i = 0; i < hf->count; i++) {
    const smpi_hostfile_entry *e = &hf->entries[i];
    size_t n = strlen(e->name);
    FUZZ_REQUIRE(n > 0, "entry %zu: empty name", i);
    FUZZ_REQUIRE(!strpbrk(e->name, ":#\n"), "entry %zu: name '%s' holds a separator", i, e->name);
    FUZZ_REQUIRE(!strchr(" \t\r\v\f", e->name[0]) && !strchr(" \t\r\v\f", e->name[n - 1]),
                 "entry %zu: name '%s' not trimmed", i, e->name);
    FUZZ_REQUIRE(e->slots >= 1 && e->slots <= SMPI_HOSTFILE_MAX_SLOTS, "entry %zu: %ld slots", i,
                 e->slots);
    FUZZ_REQUIRE(e->line > last, "entry %zu: line %d after %d", i, e->line, last);
    last = e->line;
    total += e->slots;
  }
  FUZZ_REQUIRE(total == hf->total_slots, "slots add up to %ld, total_slots says %ld", total,
               hf->total_slots);
  FUZZ_REQUIRE(total <= SMPI_HOSTFILE_MAX_TOTAL, "%ld slots in total", total);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char err[FUZZ_ERRLEN];
  fuzz_err_init(err, sizeof err);
  smpi_hostfile hf;
  int rc = smpi_hostfile_parse((const char *)data, size, "fuzz.hosts", &hf, err, sizeof err);
  fuzz_check_result("smpi_hostfile_parse", rc, err, sizeof err);
  if (rc != 0) {
    FUZZ_REQUIRE(hf.count == 0 && hf.entries == NULL, "failed parse left %zu entries", hf.count);
    return 0;
  }
  check_entries(&hf);

  /* round trip */
  size_t cap = 1;
  for (size_t i = 0; i < hf.count; i++)
    cap += strlen(hf.entries[i].name) + 16;
  char *text = malloc(cap);
  FUZZ_REQUIRE(text != NULL, "out of memory");
  size_t len = 0;
  for (size_t i = 0; i < hf.count; i++)
    len += (size_t)snprintf(text + len, cap - len, "%s:%ld\n", hf.entries[i].name,
                            hf.entries[i].slots);
  smpi_hostfile again;
  fuzz_err_init(err, sizeof err);
  rc = smpi_hostfile_parse(text, len, "again.hosts", &again, err, sizeof err);
  FUZZ_REQUIRE(rc == 0, "the written-back file does not parse: %s", err);
  FUZZ_REQUIRE(again.count == hf.count && again.total_slots == hf.total_slots,
               "round trip: %zu entries / %ld slots, then %zu / %ld", hf.count, hf.total_slots,
               again.count, again.total_slots);
  for (size_t i = 0; i < hf.count; i++) {
    FUZZ_REQUIRE(!strcmp(again.entries[i].name, hf.entries[i].name) &&
                     again.entries[i].slots == hf.entries[i].slots,
                 "round trip: entry %zu '%s':%ld became '%s':%ld", i, hf.entries[i].name,
                 hf.entries[i].slots, again.entries[i].name, again.entries[i].slots);
    FUZZ_REQUIRE(again.entries[i].line == (int)i + 1, "round trip: entry %zu on line %d", i,
                 again.entries[i].line);
  }
  smpi_hostfile_free(&again);
  smpi_hostfile_free(&hf);
  free(text);
  return 0;
}
