/* flame_tree.c - merge folded stacks into the tree a flame graph draws.
 *
 * Every node is a (parent, frame) pair; a hash table finds a child in O(1)
 * so that wide nodes (thousands of callees) stay cheap.  Siblings are
 * ordered by name before layout, as flamegraph.pl does, so the picture does
 * not depend on the order of the input lines.  A flame chart (t->chart,
 * flamegraph.pl --flamechart) is the other way round: a stack merges only
 * with the one before it, and siblings stay in input order.  With max_depth, the frames
 * of a stack past the (max_depth - 1)th are merged into one "[deeper]"
 * frame: a very deep stack costs max_depth nodes, not its depth.  As in
 * folded stacks, [deeper] is the max_depth-th frame of every stack that
 * reaches that depth.
 */
#define _GNU_SOURCE
#include "callgrind-utils/flame.h"

#include <stdlib.h>
#include <string.h>

void cgu_flame_tree_init(struct cgu_flame_tree *t)
{
	memset(t, 0, sizeof(*t));
	cgu_folded_init(&t->names);
}

void cgu_flame_tree_release(struct cgu_flame_tree *t)
{
	cgu_folded_release(&t->names);
	free(t->nodes);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static uint32_t slot_hash(uint32_t parent, uint32_t frame)
{
	uint64_t k = ((uint64_t)parent << 32) | frame;
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (uint32_t)k;
}

static int rehash(struct cgu_flame_tree *t, size_t nslots)
{
	uint32_t *slots = malloc(nslots * sizeof(*slots));
	if (!slots)
		return -1;
	memset(slots, 0xff, nslots * sizeof(*slots));
	for (uint32_t i = 1; i < t->nnodes; i++) {
		const struct cgu_flame_node *n = &t->nodes[i];
		size_t s = slot_hash(n->parent, n->frame) & (nslots - 1);
		while (slots[s] != CGU_FLAME_NONE)
			s = (s + 1) & (nslots - 1);
		slots[s] = i;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

static uint32_t new_node(struct cgu_flame_tree *t, uint32_t parent, uint32_t frame)
{
	if (t->nnodes == t->nodes_alloc) {
		size_t n = t->nodes_alloc ? t->nodes_alloc * 2 : 64;
		void *p = realloc(t->nodes, n * sizeof(*t->nodes));
		if (!p)
			return CGU_FLAME_NONE;
		t->nodes = p;
		t->nodes_alloc = n;
	}
	uint32_t id = (uint32_t)t->nnodes++;
	struct cgu_flame_node *n = &t->nodes[id];
	memset(n, 0, sizeof(*n));
	n->frame = frame;
	n->parent = parent;
	n->first_child = CGU_FLAME_NONE;
	n->next_sibling = CGU_FLAME_NONE;
	if (parent == CGU_FLAME_NONE)
		return id;
	n->depth = t->nodes[parent].depth + 1;
	n->next_sibling = t->nodes[parent].first_child;
	t->nodes[parent].first_child = id;
	if (n->depth > t->maxdepth)
		t->maxdepth = n->depth;
	return id;
}

/* A chart's child: the parent's latest child (new_node() puts it first)
 * when it is the same frame, else a new node. */
static uint32_t chart_child(struct cgu_flame_tree *t, uint32_t parent, uint32_t frame)
{
	uint32_t last = t->nodes[parent].first_child;

	if (last != CGU_FLAME_NONE && t->nodes[last].frame == frame)
		return last;
	return new_node(t, parent, frame);
}

uint32_t cgu_flame_tree_child(struct cgu_flame_tree *t, uint32_t parent, uint32_t frame)
{
	if (t->nnodes == 0 && new_node(t, CGU_FLAME_NONE, CGU_FLAME_NONE) != 0)
		return CGU_FLAME_NONE;
	if (t->chart)
		return chart_child(t, parent, frame);
	if (t->nnodes * 2 >= t->nslots &&
	    rehash(t, t->nslots ? t->nslots * 2 : 256) < 0)
		return CGU_FLAME_NONE;
	size_t s = slot_hash(parent, frame) & (t->nslots - 1);
	for (; t->slots[s] != CGU_FLAME_NONE; s = (s + 1) & (t->nslots - 1)) {
		const struct cgu_flame_node *n = &t->nodes[t->slots[s]];
		if (n->parent == parent && n->frame == frame)
			return t->slots[s];
	}
	uint32_t id = new_node(t, parent, frame);
	if (id != CGU_FLAME_NONE)
		t->slots[s] = id;
	return id;
}

static void add_count(struct cgu_flame_node *n, bool before, uint64_t v)
{
	if (before)
		n->before += v;
	else
		n->total += v;
}

static int add_stack(struct cgu_flame_tree *t, const uint32_t *ids, size_t depth,
		     const uint32_t *map, bool reverse, bool before, uint64_t v)
{
	uint32_t node = 0;
	size_t keep = depth;

	if (t->max_depth && depth >= t->max_depth)
		keep = t->max_depth - 1;
	add_count(&t->nodes[0], before, v);
	for (size_t i = 0; i <= keep && i < depth; i++) {
		uint32_t frame;

		if (i < keep) {
			frame = map[ids[reverse ? depth - 1 - i : i]];
		} else {                /* the frames past keep, as one */
			frame = cgu_folded_intern(&t->names, "[deeper]", 8);
			if (frame == CGU_FLAME_NONE)
				return -1;
		}
		node = cgu_flame_tree_child(t, node, frame);
		if (node == CGU_FLAME_NONE)
			return -1;
		add_count(&t->nodes[node], before, v);
	}
	return 0;
}

/* c * scale, rounded, and no more than room: the rounding of each
 * stack can carry a scaled sum past the total it aims at, and a sum
 * over several sets past 2^64 - 1; the root's count stays exact up to
 * there and never wraps. */
static uint64_t scaled_count(uint64_t c, double scale, uint64_t room)
{
	if (scale != 1.0) {
		double d = (double)c * scale + 0.5;

		c = d >= 0x1p64 ? UINT64_MAX : (uint64_t)d;
	}
	return c < room ? c : room;
}

int cgu_flame_tree_add(struct cgu_flame_tree *t, const struct cgu_folded *f,
		       bool reverse, bool before, double scale)
{
	if (t->nnodes == 0 && new_node(t, CGU_FLAME_NONE, CGU_FLAME_NONE) != 0)
		return -1;
	if (before)
		t->has_before = true;
	uint32_t *map = cgu_folded_share_frames(&t->names, f);
	if (!map)
		return -1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < f->nstacks; i++) {
		const struct cgu_folded_stack *s = &f->stacks[i];
		uint64_t c = before && f->before ? f->before[i] : s->count;
		uint64_t sum = before ? t->nodes[0].before : t->nodes[0].total;
		uint64_t v = scaled_count(c, scale, UINT64_MAX - sum);
		rc = add_stack(t, cgu_folded_stack_ids(f, s), s->depth, map,
			       reverse, before, v);
	}
	free(map);
	return rc;
}

static int by_name(const void *a, const void *b, void *tree)
{
	const struct cgu_flame_tree *t = tree;
	const struct cgu_flame_node *na = &t->nodes[*(const uint32_t *)a];
	const struct cgu_flame_node *nb = &t->nodes[*(const uint32_t *)b];
	return strcmp(t->names.frames[na->frame].text,
		      t->names.frames[nb->frame].text);
}

/* Relink the children of every node in name order.  Children always have a
 * larger id than their parent, so one pass over the ids visits parents
 * first and the x offsets can be computed in the same pass. */
void cgu_flame_tree_layout(struct cgu_flame_tree *t)
{
	uint32_t *kids = malloc((t->nnodes ? t->nnodes : 1) * sizeof(*kids));
	if (!kids)
		return;
	for (uint32_t p = 0; p < t->nnodes; p++) {
		size_t n = 0;
		for (uint32_t c = t->nodes[p].first_child; c != CGU_FLAME_NONE;
		     c = t->nodes[c].next_sibling)
			kids[n++] = c;
		if (!t->chart) {
			qsort_r(kids, n, sizeof(*kids), by_name, t);
		} else {        /* the latest first: turn them around */
			for (size_t i = 0; i < n / 2; i++) {
				uint32_t k = kids[i];

				kids[i] = kids[n - 1 - i];
				kids[n - 1 - i] = k;
			}
		}
		uint64_t x = t->nodes[p].x;
		t->nodes[p].first_child = n ? kids[0] : CGU_FLAME_NONE;
		for (size_t i = 0; i < n; i++) {
			t->nodes[kids[i]].next_sibling = i + 1 < n ? kids[i + 1] : CGU_FLAME_NONE;
			t->nodes[kids[i]].x = x;
			x += t->nodes[kids[i]].total;
		}
	}
	free(kids);
}

uint64_t cgu_flame_node_self(const struct cgu_flame_tree *t, uint32_t node)
{
	uint64_t self = t->nodes[node].total;
	for (uint32_t c = t->nodes[node].first_child; c != CGU_FLAME_NONE;
	     c = t->nodes[c].next_sibling)
		self -= t->nodes[c].total;
	return self;
}
