/* utf8.h - private: decode UTF-8 for the writers whose output must be
 * valid UTF-8 text whatever bytes a name holds (JSON, SVG).  Function
 * and file names come from symbol tables and paths: any bytes but NUL
 * and newline. */
#ifndef CGU_UTF8_H
#define CGU_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* A byte that starts no valid sequence. */
#define CGU_UTF8_BAD UINT32_MAX

/* The code point at s[0..len) (len >= 1) into *cp; returns its length in
 * bytes.  A byte that does not start a well-formed sequence (Unicode
 * table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF, no
 * sequence cut short) is CGU_UTF8_BAD, one byte long. */
static inline size_t cgu_utf8_next(const unsigned char *s, size_t len,
				   uint32_t *cp)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;
	uint32_t v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		*cp = CGU_UTF8_BAD;
		return 1;
	}
	if (len < n) {
		*cp = CGU_UTF8_BAD;
		return 1;
	}
	for (i = 1; i < n; i++) {
		unsigned char b = s[i];

		if (b < lo || b > hi) {
			*cp = CGU_UTF8_BAD;
			return 1;
		}
		lo = 0x80;
		hi = 0xbf;
		v = v << 6 | (b & 0x3f);
	}
	*cp = v;
	return n;
}

/* A C0 or C1 control character, or DEL. */
static inline int cgu_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

#endif
