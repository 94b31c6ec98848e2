/* lines.c - sorted, merged text keys, see lines.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "lines.h"

void cgu_lines_init(struct cgu_lines *l)
{
	cgu_buf_init(&l->text);
	l->v = NULL;
	l->n = l->cap = 0;
}

void cgu_lines_release(struct cgu_lines *l)
{
	cgu_buf_release(&l->text);
	free(l->v);
	cgu_lines_init(l);
}

void cgu_lines_add(struct cgu_lines *l, size_t start, uint64_t a, uint64_t b)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	l->v[l->n].off = start;
	l->v[l->n].len = l->text.len - start;
	l->v[l->n].a = a;
	l->v[l->n].b = b;
	l->n++;
}

static int cmp_line(const void *x, const void *y, void *ctx)
{
	const struct cgu_line *p = x, *q = y;
	const char *text = ctx;
	size_t n = p->len < q->len ? p->len : q->len;
	int c = memcmp(text + p->off, text + q->off, n);

	if (c)
		return c;
	return p->len < q->len ? -1 : p->len > q->len;
}

void cgu_lines_sort_merge(struct cgu_lines *l)
{
	size_t i, out = 0;

	if (l->n == 0)
		return;
	qsort_r(l->v, l->n, sizeof(*l->v), cmp_line, l->text.data);
	for (i = 0; i < l->n; i++) {
		if (out && !cmp_line(&l->v[out - 1], &l->v[i], l->text.data)) {
			l->v[out - 1].a += l->v[i].a;
			l->v[out - 1].b += l->v[i].b;
			continue;
		}
		l->v[out++] = l->v[i];
	}
	l->n = out;
}
