/* stacks.c - folded stacks as frame arrays, see stacks.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <endian.h>
#include "stacks.h"

static void *grow(void *v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return v;
	*cap = *cap ? *cap * 2 : 256;
	if (*cap < need)
		*cap = need;
	v = realloc(v, *cap * size);
	if (!v)
		abort();
	return v;
}

/* ---------------------------------------------------------- frames */

void cgu_frames_init(struct cgu_frames *f)
{
	memset(f, 0, sizeof(*f));
	cgu_buf_init(&f->text);
	cgu_itab_init(&f->tab);
}

void cgu_frames_release(struct cgu_frames *f)
{
	cgu_buf_release(&f->text);
	free(f->off);
	free(f->len);
	cgu_itab_release(&f->tab);
}

uint32_t cgu_frames_add(struct cgu_frames *f, const char *s, size_t len)
{
	size_t cap = f->cap;

	f->off = grow(f->off, &cap, f->n + 1, sizeof(*f->off));
	f->len = grow(f->len, &f->cap, f->n + 1, sizeof(*f->len));
	f->off[f->n] = f->text.len;
	f->len[f->n] = (uint32_t)len;
	cgu_buf_add(&f->text, s, len);
	return (uint32_t)f->n++;
}

struct frame_key {
	const char *s;
	size_t len;
};

static int frame_eq(const void *ctx, uint32_t i, const void *key)
{
	const struct cgu_frames *f = ctx;
	const struct frame_key *k = key;

	return f->len[i] == k->len && !memcmp(f->text.data + f->off[i], k->s,
					      k->len);
}

uint32_t cgu_frames_intern(struct cgu_frames *f, const char *s, size_t len)
{
	struct frame_key k = { s, len };
	uint32_t h = cgu_hash_bytes(s, len);
	uint32_t i = cgu_itab_find(&f->tab, h, frame_eq, f, &k);

	if (i != UINT32_MAX)
		return i;
	i = cgu_frames_add(f, s, len);
	cgu_itab_insert(&f->tab, h, i);
	return i;
}

/* ---------------------------------------------------------- ranks */

/* Names compared as if followed by ';'. */
static int cmp_names(const struct cgu_frames *f, uint32_t a, uint32_t b)
{
	const unsigned char *s = (const unsigned char *)f->text.data + f->off[a];
	const unsigned char *r = (const unsigned char *)f->text.data + f->off[b];
	size_t ls = f->len[a], lr = f->len[b], n = ls < lr ? ls : lr;
	int d = memcmp(s, r, n);

	if (d || ls == lr)
		return d;
	return ls < lr ? (';' < r[n] ? -1 : 1) : (s[n] < ';' ? -1 : 1);
}

static int cmp_frames(const void *a, const void *b, void *ctx)
{
	return cmp_names(ctx, *(const uint32_t *)a, *(const uint32_t *)b);
}

/* rank[frame]: its place in name order, equal names equal ranks. */
static uint32_t *rank_frames(const struct cgu_frames *f)
{
	uint32_t *order = malloc((f->n ? f->n : 1) * sizeof(*order));
	uint32_t *rank = malloc((f->n ? f->n : 1) * sizeof(*rank));
	size_t i;
	uint32_t r = 0;

	if (!order || !rank)
		abort();
	for (i = 0; i < f->n; i++)
		order[i] = (uint32_t)i;
	if (f->n)
		qsort_r(order, f->n, sizeof(*order), cmp_frames, (void *)f);
	for (i = 0; i < f->n; i++) {
		if (i && cmp_names(f, order[i - 1], order[i]))
			r++;
		rank[order[i]] = r;
	}
	free(order);
	return rank;
}

/* ---------------------------------------------------------- stacks */

void cgu_stacks_init(struct cgu_stacks *s)
{
	memset(s, 0, sizeof(*s));
}

void cgu_stacks_release(struct cgu_stacks *s)
{
	free(s->pool);
	free(s->v);
	cgu_stacks_init(s);
}

void cgu_stacks_add_reversed(struct cgu_stacks *s, const uint32_t *frames,
			     size_t n, cgu_cost cost)
{
	size_t i;

	s->pool = grow(s->pool, &s->pool_cap, s->npool + n, sizeof(*s->pool));
	s->v = grow(s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n].off = s->npool;
	s->v[s->n].len = (uint32_t)n;
	s->v[s->n].cost = cost;
	s->n++;
	for (i = n; i-- > 0;)
		s->pool[s->npool++] = frames[i];
}

/* While sorting, the pool holds every frame's rank as a big-endian
 * number, so that memcmp() compares two stacks frame by frame. */
static int cmp_stacks(const struct cgu_stacks *s, const struct cgu_stack *x,
		      const struct cgu_stack *y)
{
	uint32_t n = x->len < y->len ? x->len : y->len;
	int d = memcmp(s->pool + x->off, s->pool + y->off, n * sizeof(uint32_t));

	if (d)
		return d;
	return x->len < y->len ? -1 : x->len > y->len;
}

static int cmp_stacks_qsort(const void *a, const void *b, void *ctx)
{
	return cmp_stacks(ctx, a, b);
}

/* A frame's name, by rank (the pool holds ranks while sorting). */
struct rank_name {
	const char *s;
	size_t len;
};

/* The text of a stack: its length first, so that the frames are copied
 * without a check each. */
static void add_line(struct cgu_buf *line, const struct cgu_stacks *s,
		     const struct cgu_stack *st, const struct rank_name *names)
{
	const uint32_t *keys = s->pool + st->off;
	size_t len = st->len;
	uint32_t i;
	char *o;

	for (i = 0; i < st->len; i++)
		len += names[be32toh(keys[i])].len;
	cgu_buf_reset(line);
	cgu_buf_grow(line, len);
	o = line->data;
	for (i = 0; i < st->len; i++) {
		const struct rank_name *r = &names[be32toh(keys[i])];

		if (i)
			*o++ = ';';
		memcpy(o, r->s, r->len);
		o += r->len;
	}
	line->len = (size_t)(o - line->data);
	line->data[line->len] = '\0';
}

int cgu_stacks_walk(struct cgu_stacks *s, const struct cgu_frames *f,
		    cgu_stacks_cb cb, void *ctx)
{
	struct cgu_buf line = CGU_BUF_INIT;
	uint32_t *rank = rank_frames(f);
	struct rank_name *names = malloc((f->n ? f->n : 1) * sizeof(*names));
	size_t i, j;
	int rc = 0;

	if (!names)
		abort();
	for (i = 0; i < f->n; i++) {
		names[rank[i]].s = f->text.data + f->off[i];
		names[rank[i]].len = f->len[i];
	}
	for (i = 0; i < s->npool; i++)
		s->pool[i] = htobe32(rank[s->pool[i]]);
	if (s->n)
		qsort_r(s->v, s->n, sizeof(*s->v), cmp_stacks_qsort, s);
	for (i = 0; i < s->n && !rc; i = j) {
		cgu_cost cost = s->v[i].cost;

		for (j = i + 1; j < s->n && !cmp_stacks(s, &s->v[i], &s->v[j]); j++)
			cost += s->v[j].cost;
		if (!cost)
			continue;
		add_line(&line, s, &s->v[i], names);
		rc = cb(line.data, line.len, cost, ctx);
	}
	free(rank);
	free(names);
	cgu_buf_release(&line);
	return rc;
}
