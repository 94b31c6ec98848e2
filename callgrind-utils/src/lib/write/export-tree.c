/* export-tree.c - the stacks of every event merged into one tree (see
 * export-tree.h). */
#include <stdlib.h>
#include <string.h>

#include "export-tree.h"

static int grow_self(struct cgu_export_tree *t)
{
	size_t need = t->tree.nnodes, n = t->self_alloc ? t->self_alloc : 256;
	cgu_cost *v;

	if (need <= t->self_alloc)
		return 0;
	while (n < need)
		n *= 2;
	v = realloc(t->self, n * t->nevents * sizeof(*v));
	if (!v)
		return -1;
	memset(v + t->self_alloc * t->nevents, 0,
	       (n - t->self_alloc) * t->nevents * sizeof(*v));
	t->self = v;
	t->self_alloc = n;
	return 0;
}

/* The node at the end of stack s of f (its frames mapped by map). */
static uint32_t stack_node(struct cgu_export_tree *t, const struct cgu_folded *f,
			   const struct cgu_folded_stack *s, const uint32_t *map)
{
	const uint32_t *ids = cgu_folded_stack_ids(f, s);
	uint32_t node = 0;

	for (size_t k = 0; k < s->depth && node != CGU_FLAME_NONE; k++)
		node = cgu_flame_tree_child(&t->tree, node, map[ids[k]]);
	return node;
}

static int add_event(struct cgu_export_tree *t, const struct cgu_folded *f,
		     size_t ev)
{
	uint32_t *map = cgu_folded_share_frames(&t->tree.names, f);
	int rc = map ? 0 : -1;

	for (size_t i = 0; rc == 0 && i < f->nstacks; i++) {
		const struct cgu_folded_stack *s = &f->stacks[i];
		uint32_t node;

		if (s->count == 0)
			continue;
		node = stack_node(t, f, s, map);
		if (node == CGU_FLAME_NONE || grow_self(t) < 0) {
			rc = -1;
			break;
		}
		t->self[(size_t)node * t->nevents + ev] += s->count;
	}
	free(map);
	return rc;
}

int cgu_export_is_sample(const struct cgu_export_tree *t, uint32_t node)
{
	const cgu_cost *v = cgu_export_self(t, node);

	for (size_t e = 0; e < t->nevents; e++)
		if (v[e])
			return 1;
	return 0;
}

int cgu_export_tree_build(struct cgu_export_tree *t,
			  const struct cgu_export_event *events, size_t n,
			  struct cgu_error *err)
{
	memset(t, 0, sizeof(*t));
	cgu_flame_tree_init(&t->tree);
	t->nevents = n ? n : 1;
	for (size_t e = 0; e < n; e++)
		if (add_event(t, events[e].stacks, e) < 0)
			goto oom;
	for (uint32_t i = 1; i < t->tree.nnodes; i++) {
		if (!cgu_export_is_sample(t, i))
			continue;
		t->samples++;
		t->frames += t->tree.nodes[i].depth;
	}
	return 0;
oom:
	return cgu_error_set(err, CGU_EIO, NULL, 0, "out of memory merging "
			     "the stacks");
}

void cgu_export_tree_release(struct cgu_export_tree *t)
{
	cgu_flame_tree_release(&t->tree);
	free(t->self);
	memset(t, 0, sizeof(*t));
}

uint32_t *cgu_export_distinct(const struct cgu_export_tree *t, int file,
			      struct cgu_frames *values)
{
	const struct cgu_folded *names = &t->tree.names;
	uint32_t *index = malloc((names->nframes ? names->nframes : 1) *
				 sizeof(*index));

	if (!index)
		abort();
	for (size_t i = 0; i < names->nframes; i++) {
		const char *v = file ? names->frames[i].file
				     : names->frames[i].object;
		index[i] = v && *v ? cgu_export_string(values, v) : UINT32_MAX;
	}
	return index;
}
