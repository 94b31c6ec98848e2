/* buf.h - a small owned, growable, NUL-terminated byte buffer.
 *
 * A cgu_buf owns its memory.  CGU_BUF_INIT is a valid empty buffer (its
 * data points at a static empty string), so a buffer never needs a NULL
 * check before use.  All appends grow the buffer as needed; on allocation
 * failure the library aborts (it is not worth threading ENOMEM through
 * every caller of a command-line tool).
 */
#ifndef CALLGRIND_UTILS_BUF_H
#define CALLGRIND_UTILS_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cgu_buf {
	char *data;   /* always NUL-terminated */
	size_t len;   /* bytes used, excluding the NUL */
	size_t cap;   /* bytes allocated; 0 while data is the static "" */
};

extern char cgu_buf_empty[];
#define CGU_BUF_INIT { cgu_buf_empty, 0, 0 }

void cgu_buf_init(struct cgu_buf *b);
void cgu_buf_release(struct cgu_buf *b);
void cgu_buf_reset(struct cgu_buf *b);
void cgu_buf_grow(struct cgu_buf *b, size_t extra);
void cgu_buf_add(struct cgu_buf *b, const void *data, size_t len);
void cgu_buf_adds(struct cgu_buf *b, const char *s);
void cgu_buf_addch(struct cgu_buf *b, char c);
void cgu_buf_addu64(struct cgu_buf *b, uint64_t v);
void cgu_buf_addf(struct cgu_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append s as a JSON string literal, quotes included, valid UTF-8
 * whatever s holds: control characters (C0, DEL, C1) and U+2028/U+2029
 * are written \uXXXX, a byte that is not part of well-formed UTF-8
 * \ufffd (the replacement character). */
void cgu_buf_add_json(struct cgu_buf *b, const char *s);
/* Append s as the inside of a Graphviz DOT double-quoted string: '"'
 * and '\' escaped, control characters as spaces, a byte that is not
 * part of well-formed UTF-8 as U+FFFD. */
void cgu_buf_add_dot(struct cgu_buf *b, const char *s);
/* Append s[0..len) with every byte that is not part of well-formed
 * UTF-8 replaced by U+FFFD. */
void cgu_buf_add_utf8(struct cgu_buf *b, const char *s, size_t len);
void cgu_buf_truncate(struct cgu_buf *b, size_t len);
/* Write the buffer to f; returns 0, or -1 on a write error. */
int cgu_buf_write(const struct cgu_buf *b, FILE *f);
/* Write the buffer to f and empty it once it holds more than above
 * bytes (the writers' output in pieces); 0, or -1 on a write error. */
int cgu_buf_flush(struct cgu_buf *b, FILE *f, size_t above);

#ifdef __cplusplus
}
#endif
#endif
