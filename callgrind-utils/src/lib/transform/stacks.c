/* stacks.c - folded stacks as frame arrays, see stacks.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "digits.h"
#include "grow.h"
#include "stacks.h"

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

	f->off = cgu_grow(f->off, &cap, f->n + 1, sizeof(*f->off));
	f->len = cgu_grow(f->len, &f->cap, f->n + 1, sizeof(*f->len));
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

	s->pool = cgu_grow(s->pool, &s->pool_cap, s->npool + n, sizeof(*s->pool));
	s->v = cgu_grow(s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n].off = s->npool;
	s->v[s->n].len = (uint32_t)n;
	s->v[s->n].cost = cost;
	s->n++;
	for (i = n; i-- > 0;)
		s->pool[s->npool++] = frames[i];
}

int cgu_stacks_same_as_last(const struct cgu_stacks *s,
			    const uint32_t *frames, size_t n)
{
	const struct cgu_stack *last = s->n ? &s->v[s->n - 1] : NULL;
	size_t i;

	if (!last || last->len != n)
		return 0;
	for (i = 0; i < n; i++)
		if (s->pool[last->off + i] != frames[n - 1 - i])
			return 0;
	return 1;
}

/* While sorting, the pool holds every frame's rank instead of the frame:
 * stacks compare frame by frame, by rank; a stack sorts before the stacks
 * it is a prefix of. */

/* The rank of stack x's frame d, -1 past its end. */
static inline int64_t key_at(const uint32_t *pool, const struct cgu_stack *x,
			     uint32_t d)
{
	return d < x->len ? (int64_t)pool[x->off + d] : -1;
}

static int same_stack(const uint32_t *pool, const struct cgu_stack *x,
		      const struct cgu_stack *y)
{
	return x->len == y->len &&
	       !memcmp(pool + x->off, pool + y->off, x->len * sizeof(*pool));
}

static inline void swap_stacks(struct cgu_stack *x, struct cgu_stack *y)
{
	struct cgu_stack t = *x;

	*x = *y;
	*y = t;
}

/* v[0..n), which share their first d frames, in order from frame d on:
 * the order of frame d, then of d + 1 among the equals, and so on. */
static void insertion_sort(const uint32_t *pool, struct cgu_stack *v,
			   size_t n, uint32_t d)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0; j--) {
			uint32_t k = d;
			int64_t x, y;

			do {
				x = key_at(pool, &v[j - 1], k);
				y = key_at(pool, &v[j], k);
				k++;
			} while (x == y && x >= 0);
			if (x <= y)
				break;
			swap_stacks(&v[j - 1], &v[j]);
		}
}

static int64_t median3(int64_t a, int64_t b, int64_t c)
{
	if (a > b) {
		int64_t t = a;

		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

/* Multikey quicksort (Bentley and Sedgewick, 1997) of v[0..n), which
 * share their first d frames.  Folded stacks share long prefixes (all
 * climb to a few roots); comparing whole stacks would go over a common
 * prefix at every comparison, this goes over each frame of it once per
 * partition.  The loop goes on with the largest of the three parts and
 * recursion takes the others, each at most half as large, so the
 * recursion is at most log2(n) deep. */
static void sort_from(const uint32_t *pool, struct cgu_stack *v, size_t n,
		      uint32_t d)
{
	while (n > 16) {
		int64_t pivot = median3(key_at(pool, &v[0], d),
					key_at(pool, &v[n / 2], d),
					key_at(pool, &v[n - 1], d));
		size_t lt = 0, i = 0, gt = n, neq;

		while (i < gt) {
			int64_t k = key_at(pool, &v[i], d);

			if (k < pivot)
				swap_stacks(&v[lt++], &v[i++]);
			else if (k > pivot)
				swap_stacks(&v[i], &v[--gt]);
			else
				i++;
		}
		/* [0, lt) < pivot, [lt, gt) = pivot, [gt, n) > pivot; stacks
		 * that end at d (pivot -1) are equal. */
		neq = pivot < 0 ? 0 : gt - lt;
		if (lt >= neq && lt >= n - gt) {
			sort_from(pool, v + lt, neq, d + 1);
			sort_from(pool, v + gt, n - gt, d);
			n = lt;
		} else if (neq >= n - gt) {
			sort_from(pool, v, lt, d);
			sort_from(pool, v + gt, n - gt, d);
			v += lt;
			n = neq;
			d++;
		} else {
			sort_from(pool, v, lt, d);
			sort_from(pool, v + lt, neq, d + 1);
			v += gt;
			n -= gt;
		}
	}
	insertion_sort(pool, v, n, d);
}

/* A frame's name, by rank (the pool holds ranks while sorting). */
struct rank_name {
	const char *s;
	size_t len;
};

/* The text of stack st in line, which holds the text of stack prev
 * (NULL: none) with ends[i] the length of its first i + 1 frames:
 * sorted neighbours share most of their frames, so only the frames after
 * the common prefix are copied. */
static void add_line(struct cgu_buf *line, size_t *ends,
		     const struct cgu_stacks *s, const struct cgu_stack *prev,
		     const struct cgu_stack *st, const struct rank_name *names)
{
	const uint32_t *keys = s->pool + st->off;
	uint32_t i = 0, n = prev && prev->len < st->len ? prev->len : st->len;
	size_t extra = 0;
	char *o;

	if (prev)
		while (i < n && keys[i] == s->pool[prev->off + i])
			i++;
	for (n = i; n < st->len; n++)
		extra += 1 + names[keys[n]].len;
	line->len = i ? ends[i - 1] : 0;
	cgu_buf_grow(line, extra);
	o = line->data + line->len;
	for (; i < st->len; i++) {
		const struct rank_name *r = &names[keys[i]];

		if (i)
			*o++ = ';';
		memcpy(o, r->s, r->len);
		o += r->len;
		ends[i] = (size_t)(o - line->data);
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
	const struct cgu_stack *prev = NULL;
	size_t *ends = NULL, nends = 0;
	size_t i, j;
	int rc = 0;

	if (!names)
		abort();
	for (i = 0; i < f->n; i++) {
		names[rank[i]].s = f->text.data + f->off[i];
		names[rank[i]].len = f->len[i];
	}
	for (i = 0; i < s->npool; i++)
		s->pool[i] = rank[s->pool[i]];
	sort_from(s->pool, s->v, s->n, 0);
	for (i = 0; i < s->n && !rc; i = j) {
		cgu_cost cost = s->v[i].cost;

		for (j = i + 1; j < s->n && same_stack(s->pool, &s->v[i], &s->v[j]); j++)
			cost += s->v[j].cost;
		if (!cost)
			continue;
		ends = cgu_grow(ends, &nends, s->v[i].len, sizeof(*ends));
		add_line(&line, ends, s, prev, &s->v[i], names);
		prev = &s->v[i];
		rc = cb(line.data, line.len, cost, ctx);
	}
	free(rank);
	free(names);
	free(ends);
	cgu_buf_release(&line);
	return rc;
}

/* ---------------------------------------------------------- lines */

int cgu_stacks_line_to_file(const char *stack, size_t len, cgu_cost cost,
			    void *ctx)
{
	char tail[CGU_U64_DIGITS + 2], *end = tail + sizeof(tail), *d;

	end[-1] = '\n';
	d = cgu_u64_digits(end - 1, cost);
	*--d = ' ';
	return fwrite(stack, 1, len, ctx) != len ||
	       fwrite(d, 1, (size_t)(end - d), ctx) != (size_t)(end - d);
}

int cgu_stacks_line_to_buf(const char *stack, size_t len, cgu_cost cost,
			   void *ctx)
{
	cgu_buf_add(ctx, stack, len);
	cgu_buf_addch(ctx, ' ');
	cgu_buf_addu64(ctx, cost);
	cgu_buf_addch(ctx, '\n');
	return 0;
}
