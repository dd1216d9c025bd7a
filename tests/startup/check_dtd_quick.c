/* The loader's quick validity check (src/plat_dtd.h) against libxml2's own validation of
 * the same documents with the same DTD: it may answer "not sure" (libxml2 then decides and
 * explains), never "valid" for a document libxml2 refuses.
 *
 * - every platform file of the repository: valid, and seen valid by the quick check (so a
 *   normal run parses no DTD);
 * - 20 000 random documents built from the DTD's names with mutations (undeclared
 *   elements and attributes, children where the model has none, missing required
 *   attributes, enumerated values near the right ones, text, blanks, comments, PIs, CDATA,
 *   namespaces, standalone="yes"): quick "valid" implies libxml2 valid, and the quick check
 *   must decide most of the valid ones (else it would only ever fall back);
 * - the loader: a valid platform leaves the DTD unparsed, an invalid one parses it once and
 *   reports as before. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/valid.h>
#include <libxml/xmlIO.h>

#include "src/plat_dtd.h"
#include "src/platform.h"

static void quiet(void *ctx, const xmlError *e)
{
  (void)e;
  ++*(int *)ctx;
}

static xmlDtdPtr the_dtd(void)
{
  static xmlDtdPtr dtd;
  if (!dtd) {
    const char *text = plat_dtd_text();
    xmlParserInputBufferPtr buf = xmlParserInputBufferCreateMem(text, (int)strlen(text),
                                                                XML_CHAR_ENCODING_NONE);
    dtd = xmlIOParseDTD(NULL, buf, XML_CHAR_ENCODING_NONE);
    ck_assert_ptr_nonnull(dtd);
  }
  return dtd;
}

/* -1: not well-formed; else quick * 2 + libxml2 (1: valid) */
static int judge(const char *xml, size_t len)
{
  int errors = 0;
  xmlSetStructuredErrorFunc(&errors, (xmlStructuredErrorFunc)quiet);
  /* the loader's options (src/platform_load.c, parse_xml) */
  xmlDocPtr doc = xmlReadMemory(xml, (int)len, "t.xml", NULL,
                                XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS |
                                    XML_PARSE_COMPACT | XML_PARSE_NOWARNING);
  if (!doc || errors) {
    if (doc)
      xmlFreeDoc(doc);
    xmlSetStructuredErrorFunc(NULL, NULL);
    return -1;
  }
  int quick = plat_dtd_quick_valid(doc);
  xmlValidCtxtPtr v = xmlNewValidCtxt();
  int full = xmlValidateDtd(v, doc, the_dtd()) && errors == 0;
  xmlFreeValidCtxt(v);
  xmlFreeDoc(doc);
  xmlSetStructuredErrorFunc(NULL, NULL);
  return quick * 2 + full;
}

START_TEST(repository_platforms)
{
  const char *dir = SOURCE_ROOT "/platforms";
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  int files = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".xml") != 0)
      continue;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    int r = judge(buf, len);
    ck_assert_msg(r == 3, "%s: quick %d, libxml2 %d (want both valid)", e->d_name, r >> 1, r & 1);
    files++;
  }
  closedir(d);
  ck_assert_int_ge(files, 8);
}
END_TEST

/* ---- random documents ---- */

typedef struct text {
  char *s;
  size_t len, cap;
} text;

static void put(text *t, const char *s)
{
  size_t n = strlen(s);
  if (t->len + n + 1 > t->cap) {
    t->cap = 2 * (t->len + n + 1);
    t->s = realloc(t->s, t->cap);
    ck_assert_ptr_nonnull(t->s);
  }
  memcpy(t->s + t->len, s, n + 1);
  t->len += n;
}

static unsigned long long rng_state;
static unsigned rnd(unsigned n) /* 0 .. n-1 */
{
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)((rng_state >> 33) % n);
}

static const plat_dtd_elem *any_elem(void)
{
  return &plat_dtd_elems[rnd((unsigned)plat_dtd_nelems)];
}

static void attrs(text *t, const plat_dtd_elem *e, int noise)
{
  for (size_t i = 0; i < e->nattrs; i++) {
    const plat_dtd_attr *a = &e->attrs[i];
    if (a->required ? noise && rnd(30) == 0 : rnd(3) != 0)
      continue; /* a required one left out, now and then */
    put(t, " ");
    put(t, a->name);
    put(t, "=\"");
    if (a->values) {
      size_t nv = 0;
      while (a->values[nv])
        nv++;
      const char *v = a->values[rnd((unsigned)nv)];
      unsigned how = noise ? rnd(20) : 1;
      if (how == 0)
        put(t, " "); /* not the same string */
      if (how == 2)
        put(t, "x");
      put(t, how == 3 ? "" : v);
      if (how == 4)
        put(t, " ");
    } else {
      put(t, rnd(4) ? "v" : "");
    }
    put(t, "\"");
  }
  if (noise && rnd(40) == 0)
    put(t, " colour=\"red\"");
  if (noise && rnd(80) == 0)
    put(t, " q:id=\"x\" xmlns:q=\"urn:q\"");
  if (noise && rnd(80) == 0)
    put(t, rnd(2) ? " xml:lang=\"en\"" : " xml:id=\"x\"");
}

static void element(text *t, const plat_dtd_elem *e, int depth, int noise)
{
  const char *name = e->name;
  if (noise && rnd(60) == 0)
    name = rnd(2) ? "bogus" : "q:host";
  put(t, "<");
  put(t, name);
  attrs(t, e, noise);
  if (strcmp(name, "q:host") == 0)
    put(t, " xmlns:q=\"urn:q\"");
  unsigned kids = depth < 4 ? rnd(5) : 0;
  if (e->content == PLAT_DTD_EMPTY && (!noise || rnd(15) != 0))
    kids = 0;
  if (!kids && rnd(2)) {
    put(t, "/>");
    return;
  }
  put(t, ">");
  for (unsigned k = 0; k < kids; k++) {
    unsigned what = rnd(noise ? 16 : 12);
    if (what < 8) {
      const plat_dtd_elem *c = any_elem();
      if (e->children && (!noise || rnd(8) != 0)) { /* mostly an allowed child */
        size_t nc = 0;
        while (e->children[nc])
          nc++;
        const char *want = e->children[rnd((unsigned)nc)];
        for (size_t i = 0; i < plat_dtd_nelems; i++)
          if (strcmp(plat_dtd_elems[i].name, want) == 0)
            c = &plat_dtd_elems[i];
      }
      element(t, c, depth + 1, noise);
    } else if (what < 10) {
      put(t, rnd(2) ? "\n  " : " ");
    } else if (what < 11) {
      put(t, "<!-- c -->");
    } else if (what < 12) {
      put(t, "<?pi x?>");
    } else if (what < 14) {
      put(t, "text");
    } else {
      put(t, "<![CDATA[ ]]>");
    }
  }
  put(t, "</");
  put(t, name);
  put(t, ">");
}

START_TEST(random_documents)
{
  rng_state = 27;
  int counts[4] = {0}, ill = 0;
  const plat_dtd_elem *platform = NULL;
  for (size_t i = 0; i < plat_dtd_nelems; i++)
    if (strcmp(plat_dtd_elems[i].name, "platform") == 0)
      platform = &plat_dtd_elems[i];
  ck_assert_ptr_nonnull(platform);
  for (int i = 0; i < 20000; i++) {
    text t = {0};
    int noise = i % 4 != 0; /* a quarter built to be valid */
    put(&t, noise && rnd(50) == 0 ? "<?xml version=\"1.0\" standalone=\"yes\"?>\n"
                                  : "<?xml version=\"1.0\"?>\n");
    element(&t, rnd(4) ? platform : any_elem(), 0, noise);
    int r = judge(t.s, t.len);
    if (r < 0)
      ill++;
    else
      counts[r]++;
    ck_assert_msg(r != 2, "quick check says valid, libxml2 does not:\n%s", t.s);
    free(t.s);
  }
  fprintf(stderr,
          "dtd_quick: %d not well-formed; quick/libxml2: both valid %d, only libxml2 %d, "
          "neither %d\n",
          ill, counts[3], counts[1], counts[0]);
  /* the quick check decides most valid documents, and the mutations do make invalid ones */
  ck_assert_int_gt(counts[3], 4 * counts[1]);
  ck_assert_int_gt(counts[0], 5000);
}
END_TEST

START_TEST(loader_parses_dtd_only_when_needed)
{
  plat_platform *p = NULL;
  char err[1024];
  const char *ok = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                   "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>"
                   "<host id=\"b\" speed=\"1Gf\"/><link id=\"l\" bandwidth=\"1GBps\" "
                   "sharing_policy=\"FATPIPE\"/><route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/>"
                   "</route></zone></platform>\n";
  ck_assert_int_eq(plat_load_string(ok, "ok.xml", &p, err, sizeof err), 0);
  plat_free(p);
  ck_assert_uint_eq(plat_dtd_parses(), 0);
  const char *bad = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                    "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\" "
                    "sharing_policy=\"SHARED\"/></zone></platform>\n";
  p = NULL;
  ck_assert_int_ne(plat_load_string(bad, "bad.xml", &p, err, sizeof err), 0);
  ck_assert_uint_eq(plat_dtd_parses(), 1);
  ck_assert_msg(strstr(err, "bad.xml:4: unknown attribute 'sharing_policy' in <host>"), "%s",
                err);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("dtd_quick");
  TCase *tc = tcase_create("quick");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, loader_parses_dtd_only_when_needed); /* first: counts from a fresh state */
  tcase_add_test(tc, repository_platforms);
  tcase_add_test(tc, random_documents);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
