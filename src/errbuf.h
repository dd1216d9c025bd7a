/* Error messages of the second tier (environment failures returned as codes): a function
 * that can fail takes a caller's buffer (err, errlen) and fills it with the actionable
 * message. */
#ifndef SMPI_SRC_ERRBUF_H
#define SMPI_SRC_ERRBUF_H

#include <stddef.h>

/* printf into err (errlen bytes, always terminated); nothing when err is NULL or errlen 0 */
void errbuf_set(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
