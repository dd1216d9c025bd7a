/* Async-signal-safe formatting (sigsafe.h): the few conversions crash reports need, done by
 * hand into the caller's buffer, and a write(2) loop. */
#include "src/sigsafe.h"

#include <errno.h>
#include <unistd.h>

static void put(sig_buf *b, char c)
{
  if (b->len < b->cap)
    b->buf[b->len++] = c;
}

void sig_strn(sig_buf *b, const char *s, size_t max)
{
  if (!s) {
    sig_str(b, "(null)");
    return;
  }
  for (size_t i = 0; i < max && s[i] && b->len < b->cap; i++) {
    unsigned char c = (unsigned char)s[i];
    put(b, c >= 0x20 && c < 0x7f ? (char)c : '?');
  }
}

void sig_str(sig_buf *b, const char *s) { sig_strn(b, s, b->cap); }

void sig_unum(sig_buf *b, unsigned long long v)
{
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    put(b, digits[--n]);
}

void sig_num(sig_buf *b, long long v)
{
  if (v < 0) {
    put(b, '-');
    sig_unum(b, 0ull - (unsigned long long)v);
  } else {
    sig_unum(b, (unsigned long long)v);
  }
}

void sig_hex(sig_buf *b, uintptr_t v)
{
  char digits[2 * sizeof v];
  size_t n = 0;
  do {
    digits[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  put(b, '0');
  put(b, 'x');
  while (n)
    put(b, digits[--n]);
}

void sig_fixed(sig_buf *b, double v, int decimals)
{
  if (v != v) {
    sig_str(b, "nan");
    return;
  }
  if (v < 0) {
    put(b, '-');
    v = -v;
  }
  if (!(v < 9.2e18)) {
    sig_str(b, "inf");
    return;
  }
  unsigned long long scale = 1;
  for (int i = 0; i < decimals && i < 18; i++)
    scale *= 10;
  unsigned long long whole = (unsigned long long)v;
  double frac = (v - (double)whole) * (double)scale + 0.5;
  unsigned long long f = (unsigned long long)frac;
  if (f >= scale) { /* rounded up to the next unit */
    whole++;
    f -= scale;
  }
  sig_unum(b, whole);
  if (decimals <= 0)
    return;
  put(b, '.');
  for (unsigned long long d = scale / 10; d; d /= 10)
    put(b, (char)('0' + f / d % 10));
}

void sig_flush_line(sig_buf *b, int fd)
{
  if (b->cap == 0)
    return;
  if (b->len == b->cap)
    b->buf[b->len - 1] = '\n';
  else if (b->len == 0 || b->buf[b->len - 1] != '\n')
    b->buf[b->len++] = '\n';
  const char *p = b->buf;
  size_t left = b->len;
  while (left) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    p += w;
    left -= (size_t)w;
  }
}
