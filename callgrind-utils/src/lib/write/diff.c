/* diff.c - differential flame graphs: one tree holding both inputs, the
 * after counts as widths and the before counts beside them. */
#include <callgrind-utils/diff.h>
#include <callgrind-utils/error.h>

int cgu_diff_tree(struct cgu_flame_tree *t, const struct cgu_folded *before,
		  const struct cgu_folded *after, bool normalize, bool reverse)
{
	double scale = 1.0;
	if (normalize && before->total)
		scale = (double)after->total / (double)before->total;
	if (cgu_flame_tree_add(t, after, reverse, false, 1.0) < 0 ||
	    cgu_flame_tree_add(t, before, reverse, true, scale) < 0)
		return -1;
	cgu_flame_tree_layout(t);
	return 0;
}

int cgu_diff_tree_folded(struct cgu_flame_tree *t, const struct cgu_folded *f,
			 bool normalize, bool reverse)
{
	double scale = 1.0;
	if (normalize && f->before_total)
		scale = (double)f->total / (double)f->before_total;
	if (cgu_flame_tree_add(t, f, reverse, false, 1.0) < 0 ||
	    cgu_flame_tree_add(t, f, reverse, true, scale) < 0)
		return -1;
	t->has_before = true;
	cgu_flame_tree_layout(t);
	return 0;
}

static uint64_t self_before(const struct cgu_flame_tree *t, uint32_t id)
{
	uint64_t v = t->nodes[id].before;
	for (uint32_t c = t->nodes[id].first_child; c != CGU_FLAME_NONE;
	     c = t->nodes[c].next_sibling)
		v -= t->nodes[c].before;
	return v;
}

static void write_path(const struct cgu_flame_tree *t, uint32_t id, FILE *out)
{
	uint32_t parent = t->nodes[id].parent;
	if (parent != 0)
		write_path(t, parent, out);
	if (parent != 0)
		fputc(';', out);
	cgu_folded_write_frame(&t->names, t->nodes[id].frame, out);
}

int cgu_diff_write_folded(const struct cgu_flame_tree *t, FILE *out)
{
	/* Children have larger ids than parents, and layout ordered siblings;
	 * walk depth first to print parents before callees. */
	uint32_t id = t->nnodes > 1 ? t->nodes[0].first_child : CGU_FLAME_NONE;
	while (id != CGU_FLAME_NONE) {
		uint64_t b = self_before(t, id), a = cgu_flame_node_self(t, id);
		if (a || b) {
			write_path(t, id, out);
			fprintf(out, " %llu %llu\n", (unsigned long long)b, (unsigned long long)a);
		}
		if (t->nodes[id].first_child != CGU_FLAME_NONE) {
			id = t->nodes[id].first_child;
			continue;
		}
		while (id != 0 && t->nodes[id].next_sibling == CGU_FLAME_NONE)
			id = t->nodes[id].parent;
		id = id == 0 ? CGU_FLAME_NONE : t->nodes[id].next_sibling;
	}
	return ferror(out) ? CGU_EIO : 0;
}

int cgu_diff_write_svg(const struct cgu_flame_tree *t,
		       const struct cgu_flame_options *o, FILE *out)
{
	return cgu_flame_tree_write_svg(t, o, out) < 0 ? CGU_EIO : 0;
}
