/* Async-signal-safe formatting, for the messages written from signal handlers (the crash
 * reports of kernel/context.c and smpi/launch/launch.c): no malloc, no stdio, no lock, no
 * assertion. A sig_buf is a caller's array; what does not fit is dropped, and the text ends
 * with "\n" even then, so a report is always a whole line. Strings read from possibly
 * corrupted memory are bounded (sig_str stops after max bytes) and bytes that are not
 * printable come out as '?', so garbage cannot scramble the terminal. */
#ifndef SMPI_SRC_SIGSAFE_H
#define SMPI_SRC_SIGSAFE_H

#include <stddef.h>
#include <stdint.h>

typedef struct sig_buf {
  char *buf;
  size_t cap; /* bytes of buf */
  size_t len; /* bytes written so far (at most cap) */
} sig_buf;

#define SIG_BUF(array) ((sig_buf){.buf = (array), .cap = sizeof(array), .len = 0})

void sig_str(sig_buf *b, const char *s);              /* NULL prints "(null)" */
void sig_strn(sig_buf *b, const char *s, size_t max); /* at most max bytes of s */
void sig_num(sig_buf *b, long long v);                /* decimal */
void sig_unum(sig_buf *b, unsigned long long v);      /* decimal */
void sig_hex(sig_buf *b, uintptr_t v);                /* 0x... */
void sig_fixed(sig_buf *b, double v, int decimals);   /* like %.*f, for |v| < 2^63 */
/* Ends the text with a newline (replacing the last byte if the buffer is full) and writes it
 * to fd, retrying on EINTR and short writes. */
void sig_flush_line(sig_buf *b, int fd);

#endif
