/* fold.c - folded stacks ("root;...;leaf cost") from a profile.
 *
 * Exact mode.  With --separate-callers=N Callgrind names every function
 * context "leaf'caller1'caller2...", nearest caller first, so each node's
 * self cost belongs to exactly one stack: the parts in reverse order.
 * A part made only of digits ("fib'2", from --separate-recs) is a
 * recursion level and stays glued to the name before it.  The stack is as
 * deep as the context Callgrind recorded.
 *
 * Reconstructed (graph) mode.  The call graph has no stacks, only edges
 * with inclusive costs, so stacks are estimated, bottom up: the self cost
 * of every node is shared over its callers in proportion to the
 * inclusive cost of each caller's calls to it (by call count when those
 * are all zero, evenly when both are), and each share again over the
 * callers of that caller, until a node without callers (a root) is
 * reached.  This is gprof's assumption that every call to a function
 * costs the same whoever makes it.
 *   - Cycles are cut: a caller already on the stack being built is left
 *     out of the sharing (its weight goes to the other callers), and so
 *     is a caller whose own callers are all on the stack (one level of
 *     lookahead, so that in a->b->a the stack goes through the caller of
 *     the cycle).  When no caller is left the node is taken as the root.
 *     Self calls are ignored likewise: a function called only by itself
 *     is a root.
 *   - Pruning: a share below min_fraction of the event total is no longer
 *     split; it follows the heaviest caller whole.  This bounds the work
 *     (about 1/min_fraction stacks) without losing any cost.
 *   - Shares are integers: floor of the proportional part, the remainder
 *     to the heaviest caller, so the lines add up exactly to the self
 *     cost, and in sum to the profile total for the event.
 *   - Stacks deeper than FOLD_MAX_DEPTH frames are cut at that depth.
 * Most shares are below the pruning threshold and follow the heaviest
 * caller, so that caller is found once per node before the climb (by the
 * first event weight, first of equals in in-edge order, as the full
 * search would pick it); the climb takes it without the search whenever
 * the share is pruned and that caller is usable, which gives the same
 * stack.
 * Stacks that print the same are summed and the lines sorted frame by
 * frame (src/stacks.c).
 */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/output.h>
#include "digits.h"
#include "stacks.h"

#define FOLD_MAX_DEPTH 4096
#define DEFAULT_MIN_FRACTION 1e-4
#define NO_NODE UINT32_MAX

struct folder {
	const struct cgu_profile *p;
	const struct cgu_fold_opts *o;
	int ev;
	cgu_cost min_share;
	struct cgu_frames frames;          /* graph: frame i = node i */
	struct cgu_stacks stacks;
	uint32_t path[FOLD_MAX_DEPTH];   /* leaf first */
	size_t depth;
	unsigned char *on_path;          /* per node */
	uint32_t *heaviest;              /* per node: see heaviest_callers */
	uint32_t *outside;               /* per node: see heaviest_callers */
	struct share *shares;            /* climb()'s, a stack of nedges */
	size_t nshares;
};

struct share {
	uint32_t caller;
	cgu_cost weight;
	cgu_cost amount;
};

/* ------------------------------------------------------- emitting */

static void emit_path(struct folder *f, cgu_cost cost)
{
	cgu_stacks_add_reversed(&f->stacks, f->path, f->depth, cost);
}

/* Graph mode: every node's display name, frame i for node i. */
static void name_frames(struct folder *f)
{
	struct cgu_buf name = CGU_BUF_INIT;
	uint32_t n;

	for (n = 0; n < f->p->nnodes; n++) {
		cgu_buf_reset(&name);
		cgu_node_name(f->p, n, f->o->names, &name);
		cgu_frames_add(&f->frames, name.data, name.len);
	}
	cgu_buf_release(&name);
}

/* ------------------------------------------------------ exact mode */

/* Length of the part of name at s: up to a ' that starts a non-numeric
 * part ('N recursion suffixes stay in the part). */
static size_t context_part(const char *s)
{
	const char *q = s;

	for (;;) {
		const char *d;

		q = strchr(q, '\'');
		if (!q)
			return strlen(s);
		for (d = q + 1; *d >= '0' && *d <= '9'; d++)
			;
		if (d == q + 1 || (*d != '\0' && *d != '\''))
			return (size_t)(q - s);
		q = d;
	}
}

static int has_context(const char *name)
{
	return name[context_part(name)] == '\'';
}

static void emit_exact(struct folder *f, uint32_t n, cgu_cost cost)
{
	const char *s = f->p->nodes[n].function;
	size_t depth = 0;

	while (depth < FOLD_MAX_DEPTH) {       /* leaf first */
		size_t len = context_part(s);

		f->path[depth++] = cgu_frames_intern(&f->frames, s, len);
		s += len;
		if (*s != '\'')
			break;
		s++;
	}
	cgu_stacks_add_reversed(&f->stacks, f->path, depth, cost);
}

/* ------------------------------------------------------ graph mode */

/* A caller can take a share if it is not on the stack already and it
 * can itself be reached from outside the stack (one level of lookahead:
 * this keeps mutual recursion a->b->a from making b a fake root).
 * outside[c], its first caller other than itself, answers most calls. */
static inline int usable_caller(const struct folder *f, uint32_t caller)
{
	const struct cgu_profile *p = f->p;
	uint32_t k, o = f->outside[caller];

	if (f->on_path[caller])
		return 0;
	if (o == NO_NODE || !f->on_path[o])
		return 1;            /* a root, or reached through o (o is the
				      * caller itself when only it calls it) */
	for (k = p->in_start[caller]; k < p->in_start[caller + 1]; k++) {
		uint32_t d = p->edges[p->in_edges[k]].caller;

		if (d != caller && !f->on_path[d])
			return 1;
	}
	return 0;
}

/* Collect the usable callers of n with their weights; returns count and
 * the index of the heaviest in *heaviest. */
static size_t caller_weights(struct folder *f, uint32_t n, struct share *s,
			     size_t *heaviest)
{
	const struct cgu_profile *p = f->p;
	size_t k, m = 0, mode;

	*heaviest = 0;
	for (mode = 0; mode < 3; mode++) {
		cgu_cost sum = 0;

		m = 0;
		for (k = p->in_start[n]; k < p->in_start[n + 1]; k++) {
			uint32_t j = p->in_edges[k];
			uint32_t c = p->edges[j].caller;

			if (!usable_caller(f, c))
				continue;
			s[m].caller = c;
			s[m].weight = mode == 0 ? cgu_edge_cost(p, j)[f->ev]
				    : mode == 1 ? p->edges[j].calls : 1;
			sum += s[m].weight;
			if (s[m].weight > s[*heaviest].weight)
				*heaviest = m;
			m++;
		}
		if (sum || !m)
			return m;
		*heaviest = 0;
	}
	return m;
}

/* Split cost over the shares in proportion to weight; integer parts,
 * remainder to the heaviest. */
static void split(struct share *s, size_t m, size_t heaviest, cgu_cost cost)
{
	cgu_cost sum = 0, given = 0;
	size_t i;

	for (i = 0; i < m; i++)
		sum += s[i].weight;
	for (i = 0; i < m; i++) {
		s[i].amount = (cgu_cost)((unsigned __int128)cost * s[i].weight
					 / sum);
		given += s[i].amount;
	}
	s[heaviest].amount += cost - given;
}

static void climb(struct folder *f, uint32_t n, cgu_cost cost);

static void climb_to(struct folder *f, uint32_t caller, cgu_cost cost)
{
	f->on_path[caller] = 1;
	f->path[f->depth++] = caller;
	climb(f, caller, cost);
	f->depth--;
	f->on_path[caller] = 0;
}

/* n is on the path (at path[depth-1]); share cost over its callers.
 * A pruned share goes up its node's heaviest caller in a loop while that
 * caller is usable; the nodes this adds to the path are taken off again
 * before returning.  The shares of the nodes on the path are stacked in
 * f->shares: the nodes are distinct, so their in-edges add up to at most
 * nedges. */
static void climb(struct folder *f, uint32_t n, cgu_cost cost)
{
	const struct cgu_profile *p = f->p;
	size_t base = f->depth, nin, m, heaviest, i;
	struct share *s;

	for (;;) {
		uint32_t h = f->heaviest[n];

		nin = p->in_start[n + 1] - p->in_start[n];
		if (nin == 0 || f->depth == FOLD_MAX_DEPTH) {
			emit_path(f, cost);
			goto unwind;
		}
		if (cost >= f->min_share || h == NO_NODE || !usable_caller(f, h))
			break;
		f->on_path[h] = 1;
		f->path[f->depth++] = h;
		n = h;
	}
	s = f->shares + f->nshares;
	f->nshares += nin;
	m = caller_weights(f, n, s, &heaviest);
	if (m == 0) {
		emit_path(f, cost);
	} else if (cost < f->min_share || m == 1) {
		climb_to(f, s[heaviest].caller, cost);
	} else {
		split(s, m, heaviest, cost);
		for (i = 0; i < m; i++)
			if (s[i].amount)
				climb_to(f, s[i].caller, s[i].amount);
	}
	f->nshares -= nin;
unwind:
	while (f->depth > base)
		f->on_path[f->path[--f->depth]] = 0;
}

/* ----------------------------------------------------------- driver */

/* outside[n]: n's first caller other
 * than n, n when there is none but n, NO_NODE for a root; heaviest[n]:
 * the caller other than n itself whose calls to n have the largest cost
 * of the event, the first in in-edge order of equals; NO_NODE when all of
 * them cost nothing.
 * Whenever that caller is usable it is the one caller_weights() calls
 * heaviest: the others have no more weight, the ones before it less, and
 * its weight makes the sum non-zero so the event weights are used. */
static void heaviest_callers(struct folder *f)
{
	const struct cgu_profile *p = f->p;
	uint32_t n, k;

	for (n = 0; n < p->nnodes; n++) {
		cgu_cost best = 0;

		f->heaviest[n] = NO_NODE;
		f->outside[n] = p->in_start[n] == p->in_start[n + 1] ? NO_NODE : n;
		for (k = p->in_start[n]; k < p->in_start[n + 1]; k++) {
			uint32_t j = p->in_edges[k], c = p->edges[j].caller;
			cgu_cost w = cgu_edge_cost(p, j)[f->ev];

			if (c == n)
				continue;
			if (f->outside[n] == n)
				f->outside[n] = c;
			if (w > best) {
				best = w;
				f->heaviest[n] = c;
			}
		}
	}
}

static int fold_mode_exact(const struct cgu_profile *p,
			   enum cgu_fold_mode mode)
{
	size_t i;

	if (mode != CGU_FOLD_AUTO)
		return mode == CGU_FOLD_EXACT;
	for (i = 0; i < p->nnodes; i++)
		if (has_context(p->nodes[i].function))
			return 1;
	return 0;
}

static cgu_cost min_share(const struct cgu_profile *p,
			  const struct cgu_fold_opts *o)
{
	double frac = o->min_fraction == 0 ? DEFAULT_MIN_FRACTION
		    : o->min_fraction;

	if (frac < 0)
		return 0;
	return (cgu_cost)((double)p->totals[o->event] * frac);
}

static void fold_all(struct folder *f)
{
	int exact = fold_mode_exact(f->p, f->o->mode);
	uint32_t n;

	if (!exact) {
		name_frames(f);
		heaviest_callers(f);
	}
	for (n = 0; n < f->p->nnodes; n++) {
		cgu_cost c = cgu_self(f->p, n)[f->ev];

		if (!c)
			continue;
		if (exact) {
			emit_exact(f, n, c);
			continue;
		}
		f->depth = 0;
		climb_to(f, n, c);
	}
}

/* An array of n elements (at least one), or abort. */
static void *array(size_t n, size_t size)
{
	void *v = malloc((n ? n : 1) * size);

	if (!v)
		abort();
	return v;
}

int cgu_fold_each(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		  cgu_fold_cb cb, void *ctx, struct cgu_error *err)
{
	struct folder f;
	int rc = 0;

	if (o->event < 0 || (size_t)o->event >= p->nevents)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no such event");
	memset(&f, 0, sizeof(f));
	f.p = p;
	f.o = o;
	f.ev = o->event;
	f.min_share = min_share(p, o);
	f.on_path = array(p->nnodes, 1);
	memset(f.on_path, 0, p->nnodes);
	f.shares = array(p->nedges, sizeof(*f.shares));
	f.heaviest = array(p->nnodes, sizeof(*f.heaviest));
	f.outside = array(p->nnodes, sizeof(*f.outside));
	cgu_frames_init(&f.frames);
	cgu_stacks_init(&f.stacks);
	fold_all(&f);
	rc = cgu_stacks_walk(&f.stacks, &f.frames, cb, ctx);
	cgu_stacks_release(&f.stacks);
	cgu_frames_release(&f.frames);
	free(f.on_path);
	free(f.shares);
	free(f.heaviest);
	free(f.outside);
	if (rc)
		return cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	return CGU_OK;
}

static int line_to_file(const char *stack, size_t len, cgu_cost cost,
			void *ctx)
{
	char tail[CGU_U64_DIGITS + 2], *end = tail + sizeof(tail), *d;

	end[-1] = '\n';
	d = cgu_u64_digits(end - 1, cost);
	*--d = ' ';
	return fwrite(stack, 1, len, ctx) != len ||
	       fwrite(d, 1, (size_t)(end - d), ctx) != (size_t)(end - d);
}

static int line_to_buf(const char *stack, size_t len, cgu_cost cost,
		       void *ctx)
{
	cgu_buf_add(ctx, stack, len);
	cgu_buf_addch(ctx, ' ');
	cgu_buf_addu64(ctx, cost);
	cgu_buf_addch(ctx, '\n');
	return 0;
}

int cgu_fold_write(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		   FILE *out, struct cgu_error *err)
{
	return cgu_fold_each(p, o, line_to_file, out, err);
}

int cgu_fold_buf(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		 struct cgu_buf *out, struct cgu_error *err)
{
	return cgu_fold_each(p, o, line_to_buf, out, err);
}
