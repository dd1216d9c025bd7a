/* Hostfile parser: text in, (name, slots) entries out. Format in smpi/runtime/hostfile.h. */
#include "smpi/runtime/hostfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/mem.h"

static bool is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A name or count shown in a message: at most 40 bytes, non-printable bytes as '?', so that
 * a binary file gives a readable message. */
static void quote(char *dst, size_t dstlen, const char *s, size_t n)
{
  size_t k = 0;
  for (size_t i = 0; i < n && k + 4 < dstlen; i++) {
    if (i == 40) {
      memcpy(dst + k, "...", 3);
      k += 3;
      break;
    }
    unsigned char c = (unsigned char)s[i];
    dst[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  dst[k] = 0;
}

/* slots: decimal digits only, 1 .. SMPI_HOSTFILE_MAX_SLOTS (no sign, no spaces inside) */
static long parse_slots(const char *s, size_t n)
{
  if (n == 0 || n > 7)
    return -1;
  long v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v >= 1 && v <= SMPI_HOSTFILE_MAX_SLOTS ? v : -1;
}

int smpi_hostfile_parse(const char *text, size_t len, const char *name, smpi_hostfile *out,
                        char *err, size_t errlen)
{
  size_t cap = 0;
  *out = (smpi_hostfile){0};
  const char *end = text + len;
  const char *p = text;
  int lineno = 0;
  while (p < end) {
    lineno++;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    const char *s = p, *e = eol;
    p = eol < end ? eol + 1 : end;
    const char *nul = memchr(s, 0, (size_t)(e - s));
    if (nul) {
      snprintf(err, errlen,
               "%s:%d: NUL byte in the file (a hostfile is text: one 'host' or "
               "'host:slots' per line)",
               name, lineno);
      goto fail;
    }
    const char *hash = memchr(s, '#', (size_t)(e - s));
    if (hash)
      e = hash;
    while (s < e && is_blank(*s))
      s++;
    while (e > s && is_blank(e[-1]))
      e--;
    if (s == e)
      continue;
    const char *colon = memchr(s, ':', (size_t)(e - s));
    const char *ne = colon ? colon : e;
    while (ne > s && is_blank(ne[-1]))
      ne--;
    char shown[64];
    if (ne == s) {
      quote(shown, sizeof shown, s, (size_t)(e - s));
      snprintf(err, errlen,
               "%s:%d: no host name before ':' in '%s' (expected 'host' or "
               "'host:slots')",
               name, lineno, shown);
      goto fail;
    }
    /* a name may hold spaces ("Cpu A" in SimGrid's two_hosts_profiles.xml): as in
     * SimGrid's hostfiles, the whole line up to ':' is the name, trimmed at both ends */
    long slots = 1;
    if (colon) {
      const char *ss = colon + 1;
      while (ss < e && is_blank(*ss))
        ss++;
      slots = parse_slots(ss, (size_t)(e - ss));
      if (slots < 0) {
        quote(shown, sizeof shown, ss, (size_t)(e - ss));
        snprintf(err, errlen,
                 "%s:%d: bad slot count '%s' (expected 'host' or 'host:slots' "
                 "with slots from 1 to %ld)",
                 name, lineno, shown, SMPI_HOSTFILE_MAX_SLOTS);
        goto fail;
      }
    }
    if (out->total_slots + slots > SMPI_HOSTFILE_MAX_TOTAL) {
      snprintf(err, errlen, "%s:%d: more than %ld slots in total", name, lineno,
               SMPI_HOSTFILE_MAX_TOTAL);
      goto fail;
    }
    XGROW(out->entries, cap, out->count + 1);
    smpi_hostfile_entry *en = &out->entries[out->count++];
    en->name = xmalloc((size_t)(ne - s) + 1);
    memcpy(en->name, s, (size_t)(ne - s));
    en->name[ne - s] = 0;
    en->slots = slots;
    en->line = lineno;
    out->total_slots += slots;
  }
  if (out->count == 0) {
    snprintf(err, errlen,
             "%s: the hostfile lists no host (expected one 'host' or "
             "'host:slots' per line)",
             name);
    goto fail;
  }
  return 0;
fail:
  smpi_hostfile_free(out);
  return -1;
}

int smpi_hostfile_read(const char *path, smpi_hostfile *out, char *err, size_t errlen)
{
  *out = (smpi_hostfile){0};
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot open hostfile '%s': %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0) {
    snprintf(err, errlen, "cannot read hostfile '%s': %s", path, strerror(errno));
    fclose(f);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "cannot read hostfile '%s': %s", path,
             S_ISDIR(st.st_mode) ? "it is a directory" : "not a regular file");
    fclose(f);
    return -1;
  }
  if (st.st_size > SMPI_HOSTFILE_MAX_BYTES) {
    snprintf(err, errlen,
             "hostfile '%s' is too large (%lld bytes; a hostfile lists host "
             "names)",
             path, (long long)st.st_size);
    fclose(f);
    return -1;
  }
  size_t n = (size_t)st.st_size;
  char *buf = xmalloc(n ? n : 1);
  size_t got = fread(buf, 1, n, f);
  bool bad = ferror(f) != 0;
  int e = errno;
  fclose(f);
  if (bad) {
    snprintf(err, errlen, "cannot read hostfile '%s': %s", path, strerror(e));
    free(buf);
    return -1;
  }
  int rc = smpi_hostfile_parse(buf, got, path, out, err, errlen);
  free(buf);
  return rc;
}

void smpi_hostfile_free(smpi_hostfile *hf)
{
  for (size_t i = 0; i < hf->count; i++)
    free(hf->entries[i].name);
  free(hf->entries);
  *hf = (smpi_hostfile){0};
}
