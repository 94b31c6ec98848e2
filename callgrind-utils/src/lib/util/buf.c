/* buf.c - owned growable string buffer, see buf.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/buf.h>
#include "digits.h"
#include "utf8.h"

char cgu_buf_empty[1];

void cgu_buf_init(struct cgu_buf *b)
{
	b->data = cgu_buf_empty;
	b->len = b->cap = 0;
}

void cgu_buf_release(struct cgu_buf *b)
{
	if (b->cap)
		free(b->data);
	cgu_buf_init(b);
}

void cgu_buf_reset(struct cgu_buf *b)
{
	cgu_buf_truncate(b, 0);
}

void cgu_buf_truncate(struct cgu_buf *b, size_t len)
{
	if (len >= b->len)
		return;
	b->len = len;
	b->data[len] = '\0';
}

void cgu_buf_grow(struct cgu_buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;
	size_t cap = b->cap ? b->cap : 64;
	char *p;

	if (want <= b->cap)
		return;
	while (cap < want)
		cap *= 2;
	p = realloc(b->cap ? b->data : NULL, cap);
	if (!p)
		abort();
	if (!b->cap)
		p[0] = '\0';
	b->data = p;
	b->cap = cap;
}

void cgu_buf_add(struct cgu_buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	cgu_buf_grow(b, len);
	memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void cgu_buf_adds(struct cgu_buf *b, const char *s)
{
	cgu_buf_add(b, s, strlen(s));
}

void cgu_buf_addch(struct cgu_buf *b, char c)
{
	cgu_buf_grow(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void cgu_buf_addu64(struct cgu_buf *b, uint64_t v)
{
	char tmp[CGU_U64_DIGITS];
	char *d = cgu_u64_digits(tmp + sizeof(tmp), v);

	cgu_buf_add(b, d, (size_t)(tmp + sizeof(tmp) - d));
}

void cgu_buf_addf(struct cgu_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	cgu_buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* s as the inside of a string literal of JSON (dot 0) or DOT (dot 1):
 * '"' and '\' escaped, a byte that is not part of well-formed UTF-8 as
 * U+FFFD; control characters as \uXXXX in JSON (U+2028 and U+2029 too),
 * spaces in DOT. */
static void add_quoted(struct cgu_buf *b, const char *s, int dot)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	while (left) {
		uint32_t cp;
		size_t n = cgu_utf8_next(p, left, &cp);

		if (cp == '"' || cp == '\\') {
			cgu_buf_addch(b, '\\');
			cgu_buf_addch(b, (char)cp);
		} else if (cp == CGU_UTF8_BAD) {
			cgu_buf_adds(b, dot ? "\xef\xbf\xbd" : "\\ufffd");
		} else if (dot && cgu_is_control(cp)) {
			cgu_buf_addch(b, ' ');
		} else if (!dot && (cgu_is_control(cp) || cp == 0x2028 ||
				    cp == 0x2029)) {
			cgu_buf_addf(b, "\\u%04x", (unsigned)cp);
		} else {
			cgu_buf_add(b, (const char *)p, n);
		}
		p += n;
		left -= n;
	}
}

void cgu_buf_add_json(struct cgu_buf *b, const char *s)
{
	cgu_buf_addch(b, '"');
	add_quoted(b, s, 0);
	cgu_buf_addch(b, '"');
}

void cgu_buf_add_dot(struct cgu_buf *b, const char *s)
{
	add_quoted(b, s, 1);
}

void cgu_buf_add_utf8(struct cgu_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	while (len) {
		uint32_t cp;
		size_t n = cgu_utf8_next(p, len, &cp);

		if (cp == CGU_UTF8_BAD)
			cgu_buf_adds(b, "\xef\xbf\xbd");
		else
			cgu_buf_add(b, (const char *)p, n);
		p += n;
		len -= n;
	}
}

int cgu_buf_write(const struct cgu_buf *b, FILE *f)
{
	if (b->len && fwrite(b->data, 1, b->len, f) != b->len)
		return -1;
	return 0;
}

int cgu_buf_flush(struct cgu_buf *b, FILE *f, size_t above)
{
	int rc;

	if (b->len <= above)
		return 0;
	rc = cgu_buf_write(b, f);
	cgu_buf_reset(b);
	return rc;
}
