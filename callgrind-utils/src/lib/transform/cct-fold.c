/* cct-fold.c - folded stacks of a calling-context tree (see cct.h).
 *
 * Every node with a self cost of the event makes one stack: the frames of
 * its path from the thread's root, found through the parents.  Stacks go
 * through the same sort and merge as the reconstructed ones (stacks.c),
 * so equal paths of different threads or parts add up and the lines come
 * out in the same order.  A node CGU_FOLD_MAX_DEPTH or more frames deep
 * adds its cost to its ancestor at depth CGU_FOLD_MAX_DEPTH - 1 (its
 * anchor), whose stack is then written once more with a "[deeper]"
 * frame below it: each node's depth and anchor follow from its parent's,
 * parents coming first, so the work stays within the depth limit per
 * stack written. */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/cct.h>
#include <callgrind-utils/view.h>
#include "stacks.h"

#define MAX_DEPTH CGU_FOLD_MAX_DEPTH
#define NO_NODE UINT32_MAX

struct folder {
	const struct cgu_cct *c;
	const struct cgu_cct_fold_opts *o;
	size_t first, end;
	struct cgu_frames frames;
	uint32_t *shown;               /* cct frame -> frame of its name */
	uint32_t deeper;               /* frame "[deeper]" */
	uint32_t startup;              /* frame "[start-up]" (o->view) */
	unsigned char *flags;          /* o->view's, per frame of a name */
	struct cgu_stacks stacks;
	uint32_t path[MAX_DEPTH + 1];  /* leaf first */
};

static void *array(size_t n, size_t size)
{
	void *v = calloc(n ? n : 1, size);

	if (!v)
		abort();
	return v;
}

/* Every frame's name, and what it is to the view (frames of the same
 * name: all it is to any of them). */
static void name_frames(struct folder *f)
{
	const struct cgu_view *v = f->o->view;
	struct cgu_name_table names;
	size_t i;

	cgu_name_table_build(&names, f->c->frames, f->c->nframes, f->o->names);
	f->shown = array(f->c->nframes, sizeof(*f->shown));
	f->flags = array(f->c->nframes + 2, 1);
	for (i = 0; i < f->c->nframes; i++) {
		const char *s = cgu_name_table_get(&names, i);
		const struct cgu_node *fr = &f->c->frames[i];

		f->shown[i] = cgu_frames_intern(&f->frames, s, strlen(s));
		f->flags[f->shown[i]] |= (unsigned char)cgu_view_classify(v,
			fr->function, fr->object, s);
	}
	f->deeper = cgu_frames_intern(&f->frames, "[deeper]", 8);
	f->startup = cgu_frames_intern(&f->frames, "[start-up]", 10);
	cgu_name_table_release(&names);
}

/* Add the stack of node n (extra: frame below it, or NO_NODE). */
static void add_stack(struct folder *f, uint32_t n, uint32_t extra,
		      cgu_cost cost)
{
	const struct cgu_cct *c = f->c;
	uint32_t thread = c->nodes[n].thread;
	size_t depth = 0;

	if (extra != NO_NODE)
		f->path[depth++] = extra;
	for (; n != CGU_CCT_ROOT; n = c->nodes[n].parent)
		f->path[depth++] = f->shown[c->nodes[n].frame];
	depth = cgu_view_apply(f->o->view, f->flags, f->startup, f->path,
			       depth);
	if (depth == CGU_VIEW_DROP)
		return;
	if (f->o->per_thread) {
		char lane[32];
		int len = snprintf(lane, sizeof(lane), "[thread %u]", thread);

		f->path[depth++] = cgu_frames_intern(&f->frames, lane,
						     (size_t)len);
	}
	cgu_stacks_add_reversed(&f->stacks, f->path, depth, cost);
}

static void fold_nodes(struct folder *f)
{
	const struct cgu_cct *c = f->c;
	size_t n = f->end - f->first, i;
	uint32_t *depth = array(n, sizeof(*depth));
	uint32_t *anchor = array(n, sizeof(*anchor));
	cgu_cost *below = array(n, sizeof(*below));

	for (i = 0; i < n; i++) {
		uint32_t node = (uint32_t)(f->first + i);
		uint32_t up = c->nodes[node].parent;
		cgu_cost cost = cgu_cct_self(c, node)[f->o->event];
		uint32_t d = up == CGU_CCT_ROOT ? 1 : depth[up - f->first] + 1;

		depth[i] = d > MAX_DEPTH ? MAX_DEPTH + 1 : d;
		anchor[i] = d < MAX_DEPTH ? NO_NODE
			  : d == MAX_DEPTH ? up : anchor[up - f->first];
		if (!cost)
			continue;
		if (anchor[i] == NO_NODE)
			add_stack(f, node, NO_NODE, cost);
		else
			below[anchor[i] - f->first] += cost;
	}
	for (i = 0; i < n; i++)
		if (below[i])
			add_stack(f, (uint32_t)(f->first + i), f->deeper,
				  below[i]);
	free(depth);
	free(anchor);
	free(below);
}

int cgu_cct_fold_each(const struct cgu_cct *c,
		      const struct cgu_cct_fold_opts *o, cgu_fold_cb cb,
		      void *ctx, struct cgu_error *err)
{
	struct folder *f;
	int rc;

	if (o->event < 0 || (size_t)o->event >= c->nevents)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no such event");
	f = array(1, sizeof(*f));
	f->c = c;
	f->o = o;
	cgu_cct_part_nodes(c, o->part, &f->first, &f->end);
	cgu_frames_init(&f->frames);
	cgu_stacks_init(&f->stacks);
	name_frames(f);
	fold_nodes(f);
	rc = cgu_stacks_walk(&f->stacks, &f->frames, cb, ctx);
	cgu_stacks_release(&f->stacks);
	cgu_frames_release(&f->frames);
	free(f->shown);
	free(f->flags);
	free(f);
	if (rc)
		return cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	return CGU_OK;
}

int cgu_cct_fold_write(const struct cgu_cct *c,
		       const struct cgu_cct_fold_opts *o, FILE *out,
		       struct cgu_error *err)
{
	return cgu_cct_fold_each(c, o, cgu_stacks_line_to_file, out, err);
}

int cgu_cct_fold_buf(const struct cgu_cct *c,
		     const struct cgu_cct_fold_opts *o, struct cgu_buf *out,
		     struct cgu_error *err)
{
	return cgu_cct_fold_each(c, o, cgu_stacks_line_to_buf, out, err);
}
