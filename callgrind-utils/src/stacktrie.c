/* stacktrie.c - stacks summed in a prefix tree, see stacktrie.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "stacktrie.h"

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

/* ------------------------------------------------------------ trie */

void cgu_trie_init(struct cgu_trie *t)
{
	t->n = 1;
	t->cap = 256;
	t->v = calloc(t->cap, sizeof(*t->v));
	if (!t->v)
		abort();
	cgu_itab_init(&t->tab);
}

void cgu_trie_release(struct cgu_trie *t)
{
	free(t->v);
	cgu_itab_release(&t->tab);
}

static int child_eq(const void *ctx, uint32_t i, const void *key)
{
	const struct cgu_trie_node *n = (const struct cgu_trie_node *)ctx + i;
	const uint32_t *k = key;

	return n->parent == k[0] && n->frame == k[1];
}

static uint32_t trie_child(struct cgu_trie *t, uint32_t parent, uint32_t frame)
{
	uint32_t key[2] = { parent, frame };
	uint32_t h = cgu_hash_u64(((uint64_t)parent << 32) | frame);
	uint32_t i = cgu_itab_find(&t->tab, h, child_eq, t->v, key);

	if (i != UINT32_MAX)
		return i;
	t->v = grow(t->v, &t->cap, t->n + 1, sizeof(*t->v));
	i = (uint32_t)t->n++;
	memset(&t->v[i], 0, sizeof(t->v[i]));
	t->v[i].parent = parent;
	t->v[i].frame = frame;
	cgu_itab_insert(&t->tab, h, i);
	return i;
}

void cgu_trie_add(struct cgu_trie *t, const uint32_t *frames, size_t n,
		  cgu_cost cost)
{
	uint32_t at = 0;
	size_t i;

	for (i = 0; i < n; i++)
		at = trie_child(t, at, frames[i]);
	t->v[at].cost += cost;
}

void cgu_trie_add_reversed(struct cgu_trie *t, const uint32_t *frames,
			   size_t n, cgu_cost cost)
{
	uint32_t at = 0;

	while (n-- > 0)
		at = trie_child(t, at, frames[n]);
	t->v[at].cost += cost;
}

struct sort_ctx {
	const struct cgu_trie *t;
	const struct cgu_frames *f;
};

/* By parent, then by name as if followed by ';'. */
static int cmp_child(const void *a, const void *b, void *ctx)
{
	const struct sort_ctx *c = ctx;
	const struct cgu_trie_node *x = &c->t->v[*(const uint32_t *)a];
	const struct cgu_trie_node *y = &c->t->v[*(const uint32_t *)b];
	const unsigned char *s, *r;
	size_t ls, lr, n;
	int d;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	s = (const unsigned char *)c->f->text.data + c->f->off[x->frame];
	r = (const unsigned char *)c->f->text.data + c->f->off[y->frame];
	ls = c->f->len[x->frame];
	lr = c->f->len[y->frame];
	n = ls < lr ? ls : lr;
	d = memcmp(s, r, n);
	if (d || ls == lr)
		return d;
	return ls < lr ? (';' < r[n] ? -1 : 1) : (s[n] < ';' ? -1 : 1);
}

/* Link children in sorted order. */
static void sort_children(struct cgu_trie *t, const struct cgu_frames *f)
{
	struct sort_ctx ctx = { t, f };
	uint32_t *order;
	size_t i;

	if (t->n < 2)
		return;
	order = malloc((t->n - 1) * sizeof(*order));
	if (!order)
		abort();
	for (i = 1; i < t->n; i++)
		order[i - 1] = (uint32_t)i;
	qsort_r(order, t->n - 1, sizeof(*order), cmp_child, &ctx);
	for (i = t->n - 1; i-- > 0;) {
		struct cgu_trie_node *n = &t->v[order[i]];

		n->sibling = t->v[n->parent].child;
		t->v[n->parent].child = order[i];
	}
	free(order);
}

static int walk(const struct cgu_trie *t, const struct cgu_frames *f,
		uint32_t at, struct cgu_buf *path, cgu_trie_cb cb, void *ctx)
{
	size_t keep = path->len;
	uint32_t c;
	int rc = 0;

	if (at) {
		if (path->len)
			cgu_buf_addch(path, ';');
		cgu_buf_add(path, f->text.data + f->off[t->v[at].frame],
			    f->len[t->v[at].frame]);
		if (t->v[at].cost)
			rc = cb(path->data, path->len, t->v[at].cost, ctx);
	}
	for (c = t->v[at].child; c && !rc; c = t->v[c].sibling)
		rc = walk(t, f, c, path, cb, ctx);
	cgu_buf_truncate(path, keep);
	return rc;
}

int cgu_trie_walk(struct cgu_trie *t, const struct cgu_frames *f,
		  cgu_trie_cb cb, void *ctx)
{
	struct cgu_buf path = CGU_BUF_INIT;
	int rc;

	sort_children(t, f);
	rc = walk(t, f, 0, &path, cb, ctx);
	cgu_buf_release(&path);
	return rc;
}
