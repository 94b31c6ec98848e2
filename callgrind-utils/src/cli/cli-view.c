/* cli-view.c - the profile of the stacks a view keeps, for the commands
 * that show functions rather than stacks (summary, dot) under --focus,
 * --ignore and --hide. */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/cct.h>
#include "cli.h"

struct from_stacks {
	struct cgu_profile *q;
	cgu_cost *incl;              /* per node and event, as q's self */
	uint64_t *seen;              /* per node: the last stack it was on */
	size_t cap;                  /* nodes incl and seen have room for */
	uint64_t *edge_seen;         /* per edge: the last stack it was on */
	size_t edge_cap;
	uint64_t nstack;
	size_t ev;
	struct cgu_buf frame;
};

static uint32_t stack_node(struct from_stacks *fs, const char *s, size_t len)
{
	struct cgu_profile *q = fs->q;
	size_t ne = q->nevents, cap = fs->cap ? fs->cap : 256;
	uint32_t n;

	cgu_buf_reset(&fs->frame);
	cgu_buf_add(&fs->frame, s, len);
	n = cgu_profile_node(q, fs->frame.data, "", "");
	if (n < fs->cap)
		return n;
	while (cap <= n)
		cap *= 2;
	fs->incl = realloc(fs->incl, cap * ne * sizeof(*fs->incl));
	fs->seen = realloc(fs->seen, cap * sizeof(*fs->seen));
	if (!fs->incl || !fs->seen)
		abort();
	memset(fs->incl + fs->cap * ne, 0, (cap - fs->cap) * ne *
	       sizeof(*fs->incl));
	memset(fs->seen + fs->cap, 0, (cap - fs->cap) * sizeof(*fs->seen));
	fs->cap = cap;
	return n;
}

/* The call caller -> callee of a stack: its cost once a stack. */
static void stack_edge(struct from_stacks *fs, uint32_t caller,
		       uint32_t callee, cgu_cost cost)
{
	uint32_t j = cgu_profile_edge(fs->q, caller, callee);
	size_t cap = fs->edge_cap ? fs->edge_cap : 256;

	if (j >= fs->edge_cap) {
		while (cap <= j)
			cap *= 2;
		fs->edge_seen = realloc(fs->edge_seen,
					cap * sizeof(*fs->edge_seen));
		if (!fs->edge_seen)
			abort();
		memset(fs->edge_seen + fs->edge_cap, 0,
		       (cap - fs->edge_cap) * sizeof(*fs->edge_seen));
		fs->edge_cap = cap;
	}
	if (fs->edge_seen[j] == fs->nstack)
		return;
	fs->edge_seen[j] = fs->nstack;
	cgu_edge_cost(fs->q, j)[fs->ev] += cost;
}

static int add_stack(const char *stack, size_t len, cgu_cost cost, void *ctx)
{
	struct from_stacks *fs = ctx;
	size_t start = 0, i;
	uint32_t n = 0, caller = UINT32_MAX;

	fs->nstack++;
	for (i = 0; i <= len; i++) {
		if (i < len && stack[i] != ';')
			continue;
		n = stack_node(fs, stack + start, i - start);
		if (fs->seen[n] != fs->nstack) {
			fs->seen[n] = fs->nstack;
			fs->incl[(size_t)n * fs->q->nevents + fs->ev] += cost;
		}
		if (caller != UINT32_MAX)
			stack_edge(fs, caller, n, cost);
		caller = n;
		start = i + 1;
	}
	cgu_self(fs->q, n)[fs->ev] += cost;
	return 0;
}

int cli_view_profile(const struct cli_item *it, enum cgu_name_style names,
		     struct cgu_profile **q, cgu_cost **incl,
		     struct cgu_error *err)
{
	const struct cgu_profile *p = it->p;
	struct cgu_view whole = it->in->view;
	struct from_stacks fs = { cgu_profile_new(), NULL, NULL, 0, NULL, 0,
				  0, 0, CGU_BUF_INIT };
	size_t nevents = it->cct ? it->cct->nevents : p->nevents, e;
	int rc = cgu_profile_set_events(fs.q, it->cct ? it->cct->events
					: p->events, nevents, err);

	whole.all_frames = 1;
	for (e = 0; rc == CGU_OK && e < nevents; e++) {
		fs.ev = e;
		if (it->cct) {
			struct cgu_cct_fold_opts co = { (int)e, names, 0,
							it->part, &whole };
			rc = cgu_cct_fold_each(it->cct, &co, add_stack, &fs, err);
		} else {
			struct cgu_fold_opts fo = { (int)e, CGU_FOLD_AUTO, 0,
						    names, 0, &whole };
			rc = cgu_fold_each(p, &fo, add_stack, &fs, err);
		}
	}
	cgu_buf_release(&fs.frame);
	free(fs.seen);
	free(fs.edge_seen);
	cgu_profile_finish(fs.q);
	*q = fs.q;
	*incl = fs.incl;
	return rc;
}
