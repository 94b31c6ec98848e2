/* lines.h - private: collect text keys with two counters, then sort
 * them bytewise and sum the counters of equal keys.  Used by the edges
 * and fold outputs, whose lines must be stable and diff-able. */
#ifndef CGU_LINES_H
#define CGU_LINES_H

#include <stdint.h>
#include <callgrind-utils/buf.h>

struct cgu_line {
	size_t off, len;     /* key in text */
	uint64_t a, b;
};

struct cgu_lines {
	struct cgu_buf text;
	struct cgu_line *v;
	size_t n, cap;
};

void cgu_lines_init(struct cgu_lines *l);
void cgu_lines_release(struct cgu_lines *l);
/* Record text[start..text.len) as a key with counters a and b. */
void cgu_lines_add(struct cgu_lines *l, size_t start, uint64_t a, uint64_t b);
/* Sort by key and merge equal keys (summing a and b). */
void cgu_lines_sort_merge(struct cgu_lines *l);

static inline const char *cgu_line_key(const struct cgu_lines *l, size_t i)
{
	return l->text.data + l->v[i].off;
}

#endif
