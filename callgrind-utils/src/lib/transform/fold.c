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
 * inclusive cost of each caller's calls to it, and each share again over
 * the callers of that caller, until a node without callers (a root) is
 * reached.  This is gprof's assumption that every call to a function
 * costs the same whoever makes it.
 *   - An edge carries at most its inclusive cost, over all stacks: a
 *     share that does not fit in the room left on its edge goes to the
 *     other callers with room left, in in-edge order, and what fits
 *     nowhere stops at the node, which becomes the root of its stack.
 *     A node is on a stack at most once, so the stacks through a node
 *     add up to at most its self cost plus its calls' inclusive costs:
 *     its inclusive cost.  A frame is never wider than its function.
 *     This matters where cost enters a function without a call: a
 *     thread starts inside clone3 (or start_thread) with nothing below
 *     it, so the children's work is charged to clone3's calls, but the
 *     one edge into clone3, pthread_create's, carries the parent's part
 *     only; the threads' work stops at clone3.  A caller whose calls
 *     cost nothing of the event takes nothing.
 *   - Nodes are folded callers first (breadth first from the roots),
 *     so a node's own cost takes the room of the edges just above it
 *     before the costs of its callees climb through them: clone3's own
 *     cost in the parent goes under pthread_create, the threads' above.
 *   - Cycles are cut: a caller already on the stack being built is left
 *     out of the sharing (its weight goes to the other callers), and so
 *     is a caller whose own callers are all on the stack (one level of
 *     lookahead, so that in a->b->a the stack goes through the caller of
 *     the cycle).  When no caller is left the node is taken as the root.
 *     Self calls are ignored likewise: a function called only by itself
 *     is a root.
 *   - Pruning: a share below min_fraction of the event total is no longer
 *     split; it follows the heaviest caller whole (as far as that edge
 *     has room).  This bounds the work (about 1/min_fraction stacks)
 *     without losing any cost.
 *   - Shares are integers: floor of the proportional part, the remainder
 *     to the heaviest caller, so the lines add up exactly to the self
 *     cost, and in sum to the profile total for the event.
 *   - A stack of FOLD_MAX_DEPTH frames or more keeps its
 *     FOLD_MAX_DEPTH - 1 frames from the root and ends in a frame
 *     "[deeper]" that holds the cost of the frames below, as the exact
 *     stacks do (cct-fold.c): so the deep stacks of a long call chain
 *     share their root and add up into one line, where keeping the leaf
 *     side would make a line, and a flame graph lane, for every start
 *     along the chain.  Such a stack is climbed to its root (a node is
 *     on a stack at most once, so at most nnodes frames); a climb with a
 *     single caller goes on in a loop, so recursion only comes with
 *     shares split over several callers.
 *   - Bounded work: the frames written into stacks, and the frames
 *     climbed past FOLD_MAX_DEPTH, count against max_frames; past it the
 *     fold stops with an error.  Without pruning (min_fraction < 0), a
 *     call graph where every function has two callers makes 2^depth
 *     stacks.
 * Most shares are below the pruning threshold and follow the heaviest
 * caller, so that caller's edge is found once per node before the climb
 * (by the event weight, first of equals in in-edge order, as the full
 * search would pick it); the climb takes it without the search whenever
 * the share is pruned, that caller is usable and its edge has room for
 * the share, which gives the same stack.
 * Stacks that print the same are summed and the lines sorted frame by
 * frame (src/lib/transform/stacks.c).
 */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/output.h>
#include <callgrind-utils/view.h>
#include "stacks.h"

#define FOLD_MAX_DEPTH CGU_FOLD_MAX_DEPTH
#define DEFAULT_MIN_FRACTION 1e-4
#define DEFAULT_MAX_FRAMES CGU_FOLD_DEFAULT_MAX_FRAMES
#define NO_NODE UINT32_MAX
#define NO_EDGE UINT32_MAX

struct folder {
	const struct cgu_profile *p;
	const struct cgu_fold_opts *o;
	int ev;
	cgu_cost min_share;
	struct cgu_frames frames;          /* graph: frame i = node i */
	struct cgu_stacks stacks;
	uint32_t *path;                  /* leaf first, nnodes long */
	size_t depth;
	uint32_t deeper;                 /* frame "[deeper]" (graph mode) */
	uint32_t startup;                /* frame "[start-up]" (o->view) */
	const struct cgu_view *view;     /* o->view when it changes stacks */
	unsigned char *flags;            /* the view's, per frame */
	size_t nflags;
	uint32_t *viewed;                /* a stack the view changes */
	struct cgu_buf name;             /* context mode: a frame's name */
	uint32_t cut[FOLD_MAX_DEPTH];    /* a stack cut for emit_path() */
	int last_cut;                    /* the last stack added was cut */
	uint64_t work, max_work;         /* frames written or climbed deep */
	int over;                        /* work passed max_work: stop */
	unsigned char *on_path;          /* per node */
	uint32_t *heaviest;              /* per node: see heaviest_callers */
	uint32_t *outside;               /* per node: see heaviest_callers */
	cgu_cost *room;                  /* per edge: its cost not yet climbed */
	struct share *shares;            /* climb()'s, a stack of nedges */
	size_t nshares;
};

struct share {
	uint32_t edge;
	cgu_cost weight;
	cgu_cost amount;
};

/* An array of n elements (at least one), or abort. */
static void *array(size_t n, size_t size)
{
	void *v = malloc((n ? n : 1) * size);

	if (!v)
		abort();
	return v;
}

/* ------------------------------------------------------- emitting */

/* Count n frames of work; past the bound the fold stops. */
static inline void count_work(struct folder *f, size_t n)
{
	f->work += n;
	if (f->work > f->max_work)
		f->over = 1;
}

/* The stack path[0..depth), leaf first, as the view shows it: in
 * f->viewed, its depth in *depth; NULL when the view drops it. */
static const uint32_t *view_of(struct folder *f, const uint32_t *path,
			       size_t *depth)
{
	size_t n;

	if (!f->view)
		return path;
	memcpy(f->viewed, path, *depth * sizeof(*path));
	n = cgu_view_apply(f->view, f->flags, f->startup, f->viewed, *depth);
	if (n == CGU_VIEW_DROP)
		return NULL;
	*depth = n;
	return f->viewed;
}

/* The path as a stack: whole, or its FOLD_MAX_DEPTH - 1 frames from the
 * root above "[deeper]", added to the last stack when that one is the
 * same cut (the deep stacks of a chain come one after the other). */
static void emit_path(struct folder *f, cgu_cost cost)
{
	struct cgu_stacks *st = &f->stacks;
	size_t keep = FOLD_MAX_DEPTH - 1, depth = f->depth;
	const uint32_t *s;

	if (f->depth < FOLD_MAX_DEPTH) {
		count_work(f, f->depth);
		s = view_of(f, f->path, &depth);
		if (s)
			cgu_stacks_add_reversed(st, s, depth, cost);
		f->last_cut = 0;
		return;
	}
	f->cut[0] = f->deeper;
	memcpy(f->cut + 1, f->path + f->depth - keep, keep * sizeof(*f->cut));
	depth = FOLD_MAX_DEPTH;
	s = view_of(f, f->cut, &depth);
	if (!s) {
		f->last_cut = 0;
		return;
	}
	if (f->last_cut && cgu_stacks_same_as_last(st, s, depth)) {
		st->v[st->n - 1].cost += cost;
		return;
	}
	count_work(f, FOLD_MAX_DEPTH);
	cgu_stacks_add_reversed(st, s, depth, cost);
	f->last_cut = 1;
}

/* Frame id was named name: record what it is to the view, once. */
#define CLASSIFIED 0x80
static void classify(struct folder *f, uint32_t id, const char *function,
		     const char *object, const char *name)
{
	if (!f->view || (id < f->nflags && (f->flags[id] & CLASSIFIED)))
		return;
	if (id >= f->nflags) {
		size_t n = f->nflags ? f->nflags * 2 : 64;

		while (n <= id)
			n *= 2;
		f->flags = realloc(f->flags, n);
		if (!f->flags)
			abort();
		memset(f->flags + f->nflags, 0, n - f->nflags);
		f->nflags = n;
	}
	f->flags[id] = CLASSIFIED | (unsigned char)cgu_view_classify(f->view,
						function, object, name);
}


/* Graph mode: every node's display name, frame i for node i. */
static void name_frames(struct folder *f)
{
	struct cgu_name_table names;
	uint32_t n;

	cgu_name_table_build(&names, f->p->nodes, f->p->nnodes, f->o->names);
	for (n = 0; n < f->p->nnodes; n++) {
		const char *s = cgu_name_table_get(&names, n);

		cgu_frames_add(&f->frames, s, strlen(s));
		classify(f, n, f->p->nodes[n].function, f->p->nodes[n].object,
			 s);
	}
	f->deeper = cgu_frames_add(&f->frames, "[deeper]", 8);
	f->startup = cgu_frames_add(&f->frames, "[start-up]", 10);
	classify(f, f->startup, "", "", "");
	cgu_name_table_release(&names);
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

/* The frames of a context name are its parts; only the leaf's object
 * is known. */
static void emit_exact(struct folder *f, uint32_t n, cgu_cost cost)
{
	const char *s = f->p->nodes[n].function;
	const uint32_t *viewed;
	size_t depth = 0;

	while (depth < FOLD_MAX_DEPTH) {       /* leaf first */
		size_t len = context_part(s);
		uint32_t id = cgu_frames_intern(&f->frames, s, len);

		cgu_buf_reset(&f->name);
		cgu_buf_add(&f->name, s, len);
		classify(f, id, f->name.data,
			 depth ? "" : f->p->nodes[n].object, f->name.data);
		f->path[depth++] = id;
		s += len;
		if (*s != '\'')
			break;
		s++;
	}
	viewed = view_of(f, f->path, &depth);
	if (viewed)
		cgu_stacks_add_reversed(&f->stacks, viewed, depth, cost);
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

/* Collect the usable callers of n whose calls to n cost something of
 * the event, with that cost as weight; returns their count and the index
 * of the heaviest (the first of equals) in *heaviest. */
static size_t caller_weights(struct folder *f, uint32_t n, struct share *s,
			     size_t *heaviest)
{
	const struct cgu_profile *p = f->p;
	size_t k, m = 0;

	*heaviest = 0;
	for (k = p->in_start[n]; k < p->in_start[n + 1]; k++) {
		uint32_t j = p->in_edges[k];
		cgu_cost w = cgu_edge_cost(p, j)[f->ev];

		if (!w || !usable_caller(f, p->edges[j].caller))
			continue;
		s[m].edge = j;
		s[m].weight = w;
		s[m].amount = 0;
		if (w > s[*heaviest].weight)
			*heaviest = m;
		m++;
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

/* Cut every share to the room left on its edge, hand what was cut to
 * the shares with room left, in order, and take the shares off their
 * edges' room.  Returns what fits nowhere. */
static cgu_cost fit(struct folder *f, struct share *s, size_t m)
{
	cgu_cost over = 0;
	size_t i;

	for (i = 0; i < m; i++) {
		cgu_cost room = f->room[s[i].edge];

		if (s[i].amount > room) {
			over += s[i].amount - room;
			s[i].amount = room;
		}
	}
	for (i = 0; i < m && over; i++) {
		cgu_cost more = f->room[s[i].edge] - s[i].amount;

		if (more > over)
			more = over;
		s[i].amount += more;
		over -= more;
	}
	for (i = 0; i < m; i++)
		f->room[s[i].edge] -= s[i].amount;
	return over;
}

static void climb(struct folder *f, uint32_t n, cgu_cost cost);

/* Put node c on the path. */
static inline void push(struct folder *f, uint32_t c)
{
	f->on_path[c] = 1;
	f->path[f->depth++] = c;
	if (f->depth > FOLD_MAX_DEPTH)
		count_work(f, 1);
}

static void climb_to(struct folder *f, uint32_t caller, cgu_cost cost)
{
	push(f, caller);
	climb(f, caller, cost);
	f->depth--;
	f->on_path[caller] = 0;
}

/* n is on the path (at path[depth-1]); share cost over its callers.
 * A pruned share goes up its node's heaviest caller in a loop while that
 * caller is usable and its edge has room, and so does a share that goes
 * whole to one caller; the nodes this adds to the path are taken off
 * again before returning.  The shares of the nodes on the path are
 * stacked in f->shares: the nodes are distinct, so their in-edges add
 * up to at most nedges. */
static void climb(struct folder *f, uint32_t n, cgu_cost cost)
{
	const struct cgu_profile *p = f->p;
	size_t base = f->depth, nin, m, heaviest, i, taken;
	cgu_cost rest;
	struct share *s;

	for (;;) {
		uint32_t h = f->heaviest[n], c;

		if (f->over)
			goto unwind;
		nin = p->in_start[n + 1] - p->in_start[n];
		if (nin == 0) {
			emit_path(f, cost);
			goto unwind;
		}
		if (cost >= f->min_share || h == NO_EDGE || f->room[h] < cost)
			goto share;
		c = p->edges[h].caller;
		if (!usable_caller(f, c))
			goto share;
		f->room[h] -= cost;
		push(f, c);
		n = c;
		continue;
share:
		s = f->shares + f->nshares;
		f->nshares += nin;
		m = caller_weights(f, n, s, &heaviest);
		if (m > 1 && cost >= f->min_share)
			split(s, m, heaviest, cost);
		else if (m)
			s[heaviest].amount = cost;
		rest = m ? fit(f, s, m) : cost;
		if (rest)
			emit_path(f, rest);
		for (i = 0, taken = 0; i < m; i++)
			if (s[i].amount)
				taken++;
		if (taken == 1) {      /* one caller: on in the loop */
			for (i = 0; !s[i].amount; i++)
				;
			c = p->edges[s[i].edge].caller;
			cost = s[i].amount;
			f->nshares -= nin;
			push(f, c);
			n = c;
			continue;
		}
		for (i = 0; i < m && !f->over; i++)
			if (s[i].amount)
				climb_to(f, p->edges[s[i].edge].caller, s[i].amount);
		f->nshares -= nin;
		break;
	}
unwind:
	while (f->depth > base)
		f->on_path[f->path[--f->depth]] = 0;
}

/* ----------------------------------------------------------- driver */

/* outside[n]: n's first caller other
 * than n, n when there is none but n, NO_NODE for a root; heaviest[n]:
 * the edge into n from a caller other than n itself with the largest
 * cost of the event, the first in in-edge order of equals; NO_EDGE when
 * all of them cost nothing.
 * Whenever its caller is usable it is the one caller_weights() calls
 * heaviest: the others have no more weight, the ones before it less. */
static void heaviest_callers(struct folder *f)
{
	const struct cgu_profile *p = f->p;
	uint32_t n, k;

	for (n = 0; n < p->nnodes; n++) {
		cgu_cost best = 0;

		f->heaviest[n] = NO_EDGE;
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
				f->heaviest[n] = j;
			}
		}
	}
}

/* The nodes in the order they are folded: breadth first from the roots
 * (nodes no other node calls) along the calls, then what only cycles
 * reach, breadth first from each in node order. */
static uint32_t *callers_first(const struct folder *f)
{
	const struct cgu_profile *p = f->p;
	uint32_t *order = array(p->nnodes, sizeof(*order));
	unsigned char *seen = array(p->nnodes, 1);
	size_t head = 0, tail = 0, pass;
	uint32_t n, k;

	memset(seen, 0, p->nnodes);
	for (pass = 0; pass < 2; pass++)
		for (n = 0; n < p->nnodes; n++) {
			if (seen[n] || (!pass && f->outside[n] != NO_NODE &&
					f->outside[n] != n))
				continue;
			seen[n] = 1;
			order[tail++] = n;
			for (; head < tail; head++) {
				uint32_t c = order[head];

				for (k = p->out_start[c]; k < p->out_start[c + 1]; k++) {
					uint32_t m = p->edges[p->out_edges[k]].callee;

					if (!seen[m]) {
						seen[m] = 1;
						order[tail++] = m;
					}
				}
			}
		}
	free(seen);
	return order;
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

int cgu_fold_uses_context(const struct cgu_profile *p, enum cgu_fold_mode m)
{
	return fold_mode_exact(p, m);
}

static uint64_t max_work(const struct cgu_fold_opts *o)
{
	return o->max_frames ? o->max_frames : DEFAULT_MAX_FRAMES;
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
	uint32_t *order = NULL, i;

	if (exact) {
		f->startup = cgu_frames_intern(&f->frames, "[start-up]", 10);
		classify(f, f->startup, "", "", "");
	} else {
		name_frames(f);
		heaviest_callers(f);
		order = callers_first(f);
	}
	for (i = 0; i < f->p->nnodes; i++) {
		uint32_t n = order ? order[i] : i;
		cgu_cost c = cgu_self(f->p, n)[f->ev];

		if (!c)
			continue;
		if (exact) {
			emit_exact(f, n, c);
			continue;
		}
		f->depth = 0;
		climb_to(f, n, c);
		if (f->over)
			break;
	}
	free(order);
}

int cgu_fold_each(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		  cgu_fold_cb cb, void *ctx, struct cgu_error *err)
{
	struct folder f;
	size_t j;
	int rc = 0;

	if (o->event < 0 || (size_t)o->event >= p->nevents)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no such event");
	memset(&f, 0, sizeof(f));
	f.p = p;
	f.o = o;
	f.ev = o->event;
	f.min_share = min_share(p, o);
	f.max_work = max_work(o);
	/* a graph stack holds each node once; a context stack is cut */
	f.path = array(p->nnodes + 1 > FOLD_MAX_DEPTH ? p->nnodes + 1
		       : FOLD_MAX_DEPTH, sizeof(*f.path));
	f.on_path = array(p->nnodes, 1);
	memset(f.on_path, 0, p->nnodes);
	f.shares = array(p->nedges, sizeof(*f.shares));
	f.heaviest = array(p->nnodes, sizeof(*f.heaviest));
	f.outside = array(p->nnodes, sizeof(*f.outside));
	f.room = array(p->nedges, sizeof(*f.room));
	for (j = 0; j < p->nedges; j++)
		f.room[j] = cgu_edge_cost(p, (uint32_t)j)[f.ev];
	f.view = cgu_view_active(o->view) ? o->view : NULL;
	f.viewed = array(p->nnodes + 1 > FOLD_MAX_DEPTH ? p->nnodes + 1
			 : FOLD_MAX_DEPTH, sizeof(*f.viewed));
	cgu_buf_init(&f.name);
	cgu_frames_init(&f.frames);
	cgu_stacks_init(&f.stacks);
	fold_all(&f);
	if (f.over)
		rc = -2;
	else
		rc = cgu_stacks_walk(&f.stacks, &f.frames, cb, ctx);
	cgu_stacks_release(&f.stacks);
	cgu_frames_release(&f.frames);
	free(f.path);
	free(f.viewed);
	free(f.flags);
	cgu_buf_release(&f.name);
	free(f.on_path);
	free(f.shares);
	free(f.heaviest);
	free(f.outside);
	free(f.room);
	if (rc == -2)
		return cgu_error_set(err, CGU_EINPUT, NULL, 0, "the stacks "
				     "reconstructed from the call graph pass "
				     "%llu frames; expected fewer (fold "
				     "--max-frames raises the bound, a larger "
				     "--min-fraction splits fewer shares)",
				     (unsigned long long)f.max_work);
	if (rc)
		return cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	return CGU_OK;
}

int cgu_fold_write(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		   FILE *out, struct cgu_error *err)
{
	return cgu_fold_each(p, o, cgu_stacks_line_to_file, out, err);
}

int cgu_fold_buf(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		 struct cgu_buf *out, struct cgu_error *err)
{
	return cgu_fold_each(p, o, cgu_stacks_line_to_buf, out, err);
}
