/* merge.c - merge the functions Callgrind keeps apart by how they were
 * reached: recursion levels (--separate-recs, "fib'2") and caller
 * contexts (--separate-callers, "a'b'c"), see transform.h; in a profile,
 * and in its exact stacks, whose recursion is a path through the same
 * function again. */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/cct.h>
#include <callgrind-utils/transform.h>
#include "hash.h"

/* Is name[i] the ' of a recursion level ('N, up to the next ' or the
 * end)?  *end is then past the digits. */
static int recursion_level(const char *name, size_t i, size_t *end)
{
	size_t k = i + 1;

	while (name[k] >= '0' && name[k] <= '9')
		k++;
	*end = k;
	return k > i + 1 && (name[k] == '\0' || name[k] == '\'');
}

void cgu_merge_name(const char *name, unsigned what, struct cgu_buf *out)
{
	size_t i = 0, end;

	while (name[i]) {
		if (name[i] != '\'') {
			cgu_buf_addch(out, name[i++]);
			continue;
		}
		if (recursion_level(name, i, &end)) {
			if (!(what & CGU_MERGE_RECURSION))
				cgu_buf_add(out, name + i, end - i);
			i = end;
			continue;
		}
		if (what & CGU_MERGE_CALLERS)
			return;          /* the callers start here */
		cgu_buf_addch(out, name[i++]);
	}
}

static void rename_merged(enum cgu_name_kind kind, const char *name,
			  struct cgu_buf *out, void *ctx)
{
	if (kind == CGU_NAME_FUNCTION)
		cgu_merge_name(name, *(const unsigned *)ctx, out);
	else
		cgu_buf_adds(out, name);
}

struct cgu_profile *cgu_merge_names(const struct cgu_profile *p,
				    unsigned what)
{
	return cgu_profile_rename(p, rename_merged, &what);
}

/* ------------------------------------------------------ exact stacks */

/* A node of the merged tree by (thread, parent, frame), within a part. */
struct cct_merge {
	const struct cgu_cct *c;
	struct cgu_cct *q;
	uint32_t *frame;          /* c's frame -> q's */
	uint32_t *node;           /* c's node -> q's */
	struct cgu_itab children;
	unsigned what;
};

struct child_key {
	uint32_t thread, parent, frame;
};

static int same_child(const void *ctx, uint32_t index, const void *key)
{
	const struct cgu_cct_node *n = &((const struct cgu_cct *)ctx)->nodes[index];
	const struct child_key *k = key;

	return n->thread == k->thread && n->parent == k->parent &&
	       n->frame == k->frame;
}

static uint32_t child_hash(const struct child_key *k)
{
	return cgu_hash_u64(((uint64_t)k->parent << 32 | k->frame) ^
			    (uint64_t)k->thread * 0x9e3779b97f4a7c15ULL);
}

/* The node of q on the path to parent (itself included) whose frame is
 * frame, or CGU_CCT_ROOT. */
static uint32_t on_path(const struct cgu_cct *q, uint32_t parent, uint32_t frame)
{
	for (uint32_t a = parent; a != CGU_CCT_ROOT; a = q->nodes[a].parent)
		if (q->nodes[a].frame == frame)
			return a;
	return CGU_CCT_ROOT;
}

/* Where node i of c goes in q: an ancestor of the same function (a
 * recursive call, when recursion merges), or the child of its parent's
 * node with its frame, made if new. */
static uint32_t merged_node(struct cct_merge *m, uint32_t i, int *entered)
{
	const struct cgu_cct_node *n = &m->c->nodes[i];
	struct child_key k = { n->thread, n->parent == CGU_CCT_ROOT ?
			       CGU_CCT_ROOT : m->node[n->parent], m->frame[n->frame] };
	uint32_t j, h;

	*entered = 1;
	if ((m->what & CGU_MERGE_RECURSION) &&
	    (j = on_path(m->q, k.parent, k.frame)) != CGU_CCT_ROOT) {
		*entered = 0;
		return j;
	}
	h = child_hash(&k);
	j = cgu_itab_find(&m->children, h, same_child, m->q, &k);
	if (j == UINT32_MAX) {
		j = cgu_cct_add_node(m->q, k.parent, k.frame, k.thread, 0);
		cgu_itab_insert(&m->children, h, j);
	}
	return j;
}

static void merge_part(struct cct_merge *m, const struct cgu_cct_part *pt)
{
	struct cgu_cct_part *np = cgu_cct_add_part(m->q, pt->source);
	const char *const *from[] = { &pt->creator, &pt->pid, &pt->cmd, &pt->part, &pt->desc };
	const char **to[] = { &np->creator, &np->pid, &np->cmd, &np->part, &np->desc };

	for (size_t f = 0; f < sizeof(from) / sizeof(from[0]); f++)
		*to[f] = *from[f] ? cgu_cct_strdup(m->q, *from[f]) : NULL;
	np->truncated = pt->truncated;
	memcpy(np->totals, pt->totals, sizeof(np->totals));
	cgu_itab_release(&m->children);
	cgu_itab_init(&m->children);
	for (size_t i = pt->first; i < pt->first + pt->nnodes; i++) {
		int entered;
		uint32_t j = merged_node(m, (uint32_t)i, &entered);
		cgu_cost *dst = cgu_cct_self(m->q, j);
		const cgu_cost *src = cgu_cct_self(m->c, (uint32_t)i);

		m->node[i] = j;
		if (entered)
			m->q->nodes[j].calls += m->c->nodes[i].calls;
		for (size_t e = 0; e < m->c->nevents; e++)
			dst[e] += src[e];
	}
}

struct cgu_cct *cgu_cct_merge_names(const struct cgu_cct *c, unsigned what)
{
	struct cct_merge m = { .c = c, .q = cgu_cct_new(), .what = what };
	struct cgu_buf name = CGU_BUF_INIT;

	m.frame = malloc((c->nframes ? c->nframes : 1) * sizeof(*m.frame));
	m.node = malloc((c->nnodes ? c->nnodes : 1) * sizeof(*m.node));
	if (!m.frame || !m.node)
		abort();
	if (c->nevents)
		cgu_cct_set_events(m.q, c->events, c->nevents, NULL);
	for (size_t i = 0; i < c->nframes; i++) {
		const struct cgu_node *f = &c->frames[i];

		cgu_buf_reset(&name);
		cgu_merge_name(f->function, what, &name);
		m.frame[i] = cgu_cct_frame(m.q, name.data, f->object, f->file);
	}
	cgu_itab_init(&m.children);
	for (size_t p = 0; p < c->nparts; p++)
		merge_part(&m, &c->parts[p]);
	memcpy(m.q->totals, c->totals, sizeof(m.q->totals));
	cgu_itab_release(&m.children);
	cgu_buf_release(&name);
	free(m.frame);
	free(m.node);
	return m.q;
}
