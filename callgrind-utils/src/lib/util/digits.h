/* digits.h - private: a number in decimal without stdio, for the
 * library's hot output paths (cgu_buf_addu64, folded lines). */
#ifndef CGU_DIGITS_H
#define CGU_DIGITS_H

#include <stdint.h>

#define CGU_U64_DIGITS 20

/* v in decimal, written backwards so that it ends just before end (at
 * most CGU_U64_DIGITS chars); returns where it starts. */
static inline char *cgu_u64_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

#endif
