/* cct.c - the calling-context tree model: building it, checking it
 * against its profile, and the call graph and exact inclusive costs
 * drawn from it (see cct.h). */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/cct.h>
#include "hash.h"

struct str_entry {
	const char *s;
	size_t len;
};

struct cgu_cct_index {
	struct cgu_itab strs, frames;
	struct str_entry *str_v;
	size_t nstrs, str_cap;
	const char *empty;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

/* Grow *v (elements of size) so that it holds at least need elements. */
static void grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	*v = xrealloc(*v, c * size);
	*cap = c;
}

static int str_eq(const void *ctx, uint32_t index, const void *key)
{
	const struct cgu_cct_index *ix = ctx;
	const struct str_entry *k = key;

	return ix->str_v[index].len == k->len &&
	       !memcmp(ix->str_v[index].s, k->s, k->len);
}

static const char *intern(struct cgu_cct *c, const char *s)
{
	struct cgu_cct_index *ix = c->index;
	struct str_entry k = { s ? s : "", s ? strlen(s) : 0 };
	uint32_t h = cgu_hash_bytes(k.s, k.len);
	uint32_t i = cgu_itab_find(&ix->strs, h, str_eq, ix, &k);

	if (i != UINT32_MAX)
		return ix->str_v[i].s;
	grow((void **)&ix->str_v, &ix->str_cap, ix->nstrs + 1,
	     sizeof(*ix->str_v));
	ix->str_v[ix->nstrs].s = cgu_arena_strndup(&c->arena, k.s, k.len);
	ix->str_v[ix->nstrs].len = k.len;
	cgu_itab_insert(&ix->strs, h, (uint32_t)ix->nstrs);
	return ix->str_v[ix->nstrs++].s;
}

struct cgu_cct *cgu_cct_new(void)
{
	struct cgu_cct *c = calloc(1, sizeof(*c));
	struct cgu_cct_index *ix = calloc(1, sizeof(*ix));

	if (!c || !ix)
		abort();
	cgu_itab_init(&ix->strs);
	cgu_itab_init(&ix->frames);
	c->index = ix;
	ix->empty = intern(c, "");
	return c;
}

void cgu_cct_free(struct cgu_cct *c)
{
	if (!c)
		return;
	cgu_itab_release(&c->index->strs);
	cgu_itab_release(&c->index->frames);
	free(c->index->str_v);
	free(c->index);
	free(c->frames);
	free(c->nodes);
	free(c->self_costs);
	free(c->parts);
	cgu_arena_release(&c->arena);
	free(c);
}

int cgu_cct_event(const struct cgu_cct *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nevents; i++)
		if (!strcmp(c->events[i], name))
			return (int)i;
	return -1;
}

int cgu_cct_set_events(struct cgu_cct *c, const char *const *names, size_t n,
		       struct cgu_error *err)
{
	size_t i;

	if (n == 0 || n > CGU_MAX_EVENTS)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0,
				     "expected 1 to %d events, got %zu",
				     CGU_MAX_EVENTS, n);
	if (c->nevents || c->nnodes)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0,
				     "events are already set");
	for (i = 0; i < n; i++)
		c->events[i] = intern(c, names[i]);
	c->nevents = n;
	return CGU_OK;
}

static int frame_eq(const void *ctx, uint32_t index, const void *key)
{
	const struct cgu_node *f = (const struct cgu_node *)ctx + index;
	const struct cgu_node *k = key;

	return f->function == k->function && f->object == k->object &&
	       f->file == k->file;
}

uint32_t cgu_cct_frame(struct cgu_cct *c, const char *function,
		       const char *object, const char *file)
{
	struct cgu_node k = { intern(c, function), intern(c, object),
			      intern(c, file) };
	uint64_t h64 = (uintptr_t)k.function;
	uint32_t h, i;

	h64 = h64 * 31 + (uintptr_t)k.object;
	h64 = h64 * 31 + (uintptr_t)k.file;
	h = cgu_hash_u64(h64);
	i = cgu_itab_find(&c->index->frames, h, frame_eq, c->frames, &k);
	if (i != UINT32_MAX)
		return i;
	grow((void **)&c->frames, &c->frame_cap, c->nframes + 1,
	     sizeof(*c->frames));
	c->frames[c->nframes] = k;
	cgu_itab_insert(&c->index->frames, h, (uint32_t)c->nframes);
	return (uint32_t)c->nframes++;
}

const char *cgu_cct_strdup(struct cgu_cct *c, const char *s)
{
	return cgu_arena_strdup(&c->arena, s);
}

struct cgu_cct_part *cgu_cct_add_part(struct cgu_cct *c, const char *source)
{
	struct cgu_cct_part *pt;

	grow((void **)&c->parts, &c->part_cap, c->nparts + 1,
	     sizeof(*c->parts));
	pt = &c->parts[c->nparts++];
	memset(pt, 0, sizeof(*pt));
	pt->source = intern(c, source);
	pt->first = c->nnodes;
	return pt;
}

uint32_t cgu_cct_add_node(struct cgu_cct *c, uint32_t parent, uint32_t frame,
			  uint32_t thread, uint64_t calls)
{
	size_t cap = c->node_cap;
	struct cgu_cct_node *n;

	grow((void **)&c->nodes, &c->node_cap, c->nnodes + 1,
	     sizeof(*c->nodes));
	if (c->node_cap != cap)
		c->self_costs = xrealloc(c->self_costs, c->node_cap *
					 (c->nevents ? c->nevents : 1) *
					 sizeof(cgu_cost));
	n = &c->nodes[c->nnodes];
	n->parent = parent;
	n->frame = frame;
	n->thread = thread;
	n->calls = calls;
	memset(cgu_cct_self(c, (uint32_t)c->nnodes), 0,
	       c->nevents * sizeof(cgu_cost));
	c->parts[c->nparts - 1].nnodes++;
	return (uint32_t)c->nnodes++;
}

/* ------------------------------------------------------------ views */

void cgu_cct_part_nodes(const struct cgu_cct *c, size_t part, size_t *first,
			size_t *end)
{
	if (part == CGU_CCT_ALL_PARTS) {
		*first = 0;
		*end = c->nnodes;
	} else if (part < c->nparts) {
		*first = c->parts[part].first;
		*end = *first + c->parts[part].nnodes;
	} else {
		*first = *end = 0;
	}
}

const cgu_cost *cgu_cct_part_totals(const struct cgu_cct *c, size_t part)
{
	static const cgu_cost none[CGU_MAX_EVENTS];

	if (part == CGU_CCT_ALL_PARTS)
		return c->totals;
	return part < c->nparts ? c->parts[part].totals : none;
}

int cgu_cct_check_profile(const struct cgu_cct *c, size_t part,
			  const struct cgu_profile *p, const char *name,
			  struct cgu_error *err)
{
	const cgu_cost *totals = cgu_cct_part_totals(c, part);
	size_t e;

	for (e = 0; e < p->nevents; e++) {
		int ce = cgu_cct_event(c, p->events[e]);
		cgu_cost have = ce < 0 ? 0 : totals[ce];

		if (ce < 0)
			return cgu_error_set(err, CGU_EINPUT, name, 0,
					     "has no event %s, which the "
					     "profile has; expected the stacks "
					     "file of the same run",
					     p->events[e]);
		if (have != p->totals[e])
			return cgu_error_set(err, CGU_EINPUT, name, 0,
					     "its nodes give %s=%llu but the "
					     "profile has %llu; expected the "
					     "stacks file of the same run",
					     p->events[e],
					     (unsigned long long)have,
					     (unsigned long long)p->totals[e]);
	}
	return CGU_OK;
}

/* Inclusive cost of every node of [first, end), the node's own and its
 * subtree's: children come after their parents, so one backward pass. */
static cgu_cost *subtree_costs(const struct cgu_cct *c, size_t first,
			       size_t end)
{
	size_t ne = c->nevents, n = (end - first) * ne, i, e;
	cgu_cost *sub = xrealloc(NULL, n * sizeof(*sub));

	if (n) /* a part with no nodes has no self_costs to copy */
		memcpy(sub, c->self_costs + first * ne, n * sizeof(*sub));
	for (i = end; i-- > first;) {
		uint32_t up = c->nodes[i].parent;

		if (up == CGU_CCT_ROOT || up < first)
			continue;
		for (e = 0; e < ne; e++)
			sub[(up - first) * ne + e] += sub[(i - first) * ne + e];
	}
	return sub;
}

static void copy_header(struct cgu_profile *p, const struct cgu_cct_part *pt)
{
	if (pt->creator)
		p->creator = cgu_arena_strdup(&p->arena, pt->creator);
	if (pt->cmd)
		p->cmd = cgu_arena_strdup(&p->arena, pt->cmd);
	if (pt->pid)
		p->pid = cgu_arena_strdup(&p->arena, pt->pid);
	if (pt->part)
		p->part = cgu_arena_strdup(&p->arena, pt->part);
	if (pt->desc)
		cgu_profile_add_header(p, "desc", pt->desc);
}

/* First child and next sibling of every node of [first, end), as
 * offsets from first; UINT32_MAX for none.  Siblings in reverse order. */
static void child_lists(const struct cgu_cct *c, size_t first, size_t end,
			uint32_t *child, uint32_t *next)
{
	size_t i;

	for (i = 0; i < end - first; i++)
		child[i] = next[i] = UINT32_MAX;
	for (i = first; i < end; i++) {
		uint32_t up = c->nodes[i].parent;

		if (up == CGU_CCT_ROOT || up < first)
			continue;
		next[i - first] = child[up - first];
		child[up - first] = (uint32_t)(i - first);
	}
}

/* outer[i]: no ancestor of node first + i has its frame.  Depth first,
 * with a count per frame of the nodes on the path that hold it; the
 * stack of the walk is next[] turned around, so no recursion. */
static unsigned char *outermost(const struct cgu_cct *c, size_t first,
				size_t end)
{
	size_t n = end - first, i;
	uint32_t *child = xrealloc(NULL, n * sizeof(*child));
	uint32_t *next = xrealloc(NULL, n * sizeof(*next));
	uint32_t *on_path = calloc(c->nframes ? c->nframes : 1,
				   sizeof(*on_path));
	unsigned char *outer = xrealloc(NULL, n);

	if (!on_path)
		abort();
	child_lists(c, first, end, child, next);
	for (i = 0; i < n; i++) {
		uint32_t up = c->nodes[first + i].parent, v;

		if (up != CGU_CCT_ROOT && up >= first)
			continue;
		/* walk the tree of thread root child i */
		v = (uint32_t)i;
		for (;;) {
			uint32_t f = c->nodes[first + v].frame;

			outer[v] = !on_path[f];
			on_path[f]++;
			if (child[v] != UINT32_MAX) {
				v = child[v];
				continue;
			}
			/* leave v and the ancestors whose children are done */
			for (;;) {
				on_path[c->nodes[first + v].frame]--;
				if (v == i)
					goto done;
				if (next[v] != UINT32_MAX) {
					v = next[v];
					break;
				}
				v = c->nodes[first + v].parent -
				    (uint32_t)first;
			}
		}
done:
		;
	}
	free(child);
	free(next);
	free(on_path);
	return outer;
}

/* Inclusive cost of every frame in [first, end): the subtrees of the
 * nodes no ancestor of which has their frame.  nframes * nevents. */
static cgu_cost *frame_inclusive(const struct cgu_cct *c, size_t first,
				 size_t end, const cgu_cost *sub)
{
	size_t i, e, ne = c->nevents;
	cgu_cost *incl = calloc((c->nframes ? c->nframes : 1) * (ne ? ne : 1),
				sizeof(*incl));
	unsigned char *outer;

	if (!incl)
		abort();
	if (first == end)
		return incl;
	outer = outermost(c, first, end);
	for (i = first; i < end; i++) {
		if (!outer[i - first])
			continue;
		for (e = 0; e < ne; e++)
			incl[(size_t)c->nodes[i].frame * ne + e] +=
				sub[(i - first) * ne + e];
	}
	free(outer);
	return incl;
}

struct cgu_profile *cgu_cct_profile(const struct cgu_cct *c, size_t part,
				    cgu_cost **inclusive)
{
	struct cgu_profile *p = cgu_profile_new();
	size_t first, end, i, e, ne = c->nevents;
	uint32_t *node_of = xrealloc(NULL, (c->nframes ? c->nframes : 1) *
				     sizeof(*node_of));
	cgu_cost *sub, *incl;

	if (ne)
		cgu_profile_set_events(p, c->events, ne, NULL);
	if (c->nparts)
		copy_header(p, &c->parts[part < c->nparts ? part : 0]);
	cgu_cct_part_nodes(c, part, &first, &end);
	for (i = 0; i < c->nframes; i++)
		node_of[i] = UINT32_MAX;
	for (i = first; i < end; i++)
		node_of[c->nodes[i].frame] = 0;
	for (i = 0; i < c->nframes; i++)
		if (!node_of[i])
			node_of[i] = cgu_profile_node(p, c->frames[i].function,
						      c->frames[i].object,
						      c->frames[i].file);
	sub = subtree_costs(c, first, end);
	for (i = first; i < end; i++) {
		const struct cgu_cct_node *n = &c->nodes[i];
		cgu_cost *self = cgu_self(p, node_of[n->frame]);
		uint32_t j;

		for (e = 0; e < ne; e++)
			self[e] += cgu_cct_self(c, (uint32_t)i)[e];
		if (n->parent == CGU_CCT_ROOT)
			continue;
		j = cgu_profile_edge(p, node_of[c->nodes[n->parent].frame],
				     node_of[n->frame]);
		p->edges[j].calls += n->calls;
		for (e = 0; e < ne; e++)
			cgu_edge_cost(p, j)[e] += sub[(i - first) * ne + e];
	}
	cgu_profile_finish(p);
	if (inclusive) {
		incl = frame_inclusive(c, first, end, sub);
		*inclusive = xrealloc(NULL, (p->nnodes ? p->nnodes : 1) *
				      (ne ? ne : 1) * sizeof(**inclusive));
		for (i = 0; i < c->nframes; i++)
			if (node_of[i] != UINT32_MAX)
				memcpy(*inclusive + (size_t)node_of[i] * ne,
				       incl + i * ne, ne * sizeof(*incl));
		free(incl);
	}
	free(sub);
	free(node_of);
	return p;
}
