/* source.c - source-level annotation (see source.h).
 *
 * Collecting: every cost line of the profile is summed into a record of
 * (function, file, line, callee), callee CGU_NO_CALLEE for the function's
 * own cost, found through a hash table; the file is the one the line's
 * positions point into (fl=, or fi=/fe= for inlined code), so a function
 * can have lines in several files.
 *
 * Printing: for each chosen function, its records sorted by file and
 * line; per file, the runs of source lines within o->context lines of a
 * line with a record, "-- line N --" between runs.  A line with a record
 * shows the function's self cost on it for every event (numbers, 0
 * included, as callgrind_annotate shows a line it has a cost for), others
 * "."; the calls made on a line follow it, heaviest first, as
 * "=> callee (Nx)" with their inclusive costs.  Costs at line 0 (no
 * debug information) are shown first, as one line "(no line
 * information)".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/source.h>
#include "grow.h"
#include "hash.h"

/* Source files larger than this are not read (a path that names a
 * device or a huge generated file must not stall or exhaust memory). */
#define MAX_SOURCE_BYTES (256u << 20)

struct line_rec {
	uint32_t node;
	uint32_t callee;          /* CGU_NO_CALLEE: the node's own cost */
	const char *file;         /* interned in the profile */
	int64_t line;             /* <= 0: no line information */
	uint64_t calls;
	size_t costs;             /* index of nevents counts in costs */
};

struct cgu_line_costs {
	struct line_rec *v;
	size_t n, cap;
	cgu_cost *costs;
	size_t ncosts, costs_cap;
	size_t nevents;
	struct cgu_itab tab;
	const char *positions;    /* p->positions the column was found for */
	int line_col;             /* column of "line", -1 when there is none */
	int saw_lines;            /* a cost line was reported */
};

struct cgu_line_costs *cgu_line_costs_new(void)
{
	struct cgu_line_costs *lc = calloc(1, sizeof(*lc));

	if (!lc)
		abort();
	cgu_itab_init(&lc->tab);
	lc->line_col = -1;
	return lc;
}

void cgu_line_costs_free(struct cgu_line_costs *lc)
{
	if (!lc)
		return;
	cgu_itab_release(&lc->tab);
	free(lc->v);
	free(lc->costs);
	free(lc);
}

static int rec_eq(const void *ctx, uint32_t index, const void *key)
{
	const struct line_rec *r = (const struct line_rec *)ctx + index;
	const struct line_rec *k = key;

	return r->node == k->node && r->callee == k->callee &&
	       r->file == k->file && r->line == k->line;
}

static uint32_t rec_hash(const struct line_rec *k)
{
	uint64_t h = (uint64_t)k->node * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)k->callee + ((uint64_t)(uintptr_t)k->file << 7);
	return cgu_hash_u64(h ^ (uint64_t)k->line * 0xff51afd7ed558ccdULL);
}

void cgu_line_costs_collect(void *ctx, const struct cgu_profile *p,
			    const struct cgu_cost_line *l)
{
	struct cgu_line_costs *lc = ctx;
	struct line_rec key;
	uint32_t i, h;

	if (p->positions != lc->positions || !lc->saw_lines) {
		lc->positions = p->positions;
		lc->line_col = cgu_position_column(p->positions, "line");
	}
	lc->saw_lines = 1;
	lc->nevents = p->nevents;
	key = (struct line_rec){ .node = l->node, .callee = l->callee,
				 .file = l->file, .line = 0 };
	if (lc->line_col >= 0 && (size_t)lc->line_col < l->npos &&
	    l->pos[lc->line_col] > 0)
		key.line = l->pos[lc->line_col];
	h = rec_hash(&key);
	i = cgu_itab_find(&lc->tab, h, rec_eq, lc->v, &key);
	if (i == UINT32_MAX) {
		i = (uint32_t)lc->n;
		lc->v = cgu_grow(lc->v, &lc->cap, lc->n + 1, sizeof(*lc->v));
		lc->costs = cgu_grow(lc->costs, &lc->costs_cap,
				 lc->ncosts + p->nevents, sizeof(*lc->costs));
		key.costs = lc->ncosts;
		memset(lc->costs + lc->ncosts, 0, p->nevents * sizeof(cgu_cost));
		lc->ncosts += p->nevents;
		lc->v[lc->n++] = key;
		cgu_itab_insert(&lc->tab, h, i);
	}
	lc->v[i].calls += l->calls;
	for (size_t e = 0; e < p->nevents; e++)
		lc->costs[lc->v[i].costs + e] += l->costs[e];
}

/* ------------------------------------------------------ source files */

/* A source file read into memory and cut into lines, or why it could
 * not be (text NULL). */
struct source {
	const char *file;         /* as the profile names it */
	char *text;
	const char **line;        /* line[i]: line i + 1, NUL-terminated */
	size_t nlines;
	int warned_short;         /* "shorter than the profile" said once */
};

struct annotator {
	const struct cgu_profile *p;
	const struct cgu_line_costs *lc;
	const struct cgu_source_opts *o;
	struct cgu_name_table names;
	struct source *src;       /* files read so far */
	size_t nsrc, src_cap;
	struct cgu_buf out;
	FILE *f;
};

/* "FILE: why; its lines are shown without text", once a file. */
static void warn(const struct annotator *a, const char *file, const char *why)
{
	struct cgu_error w = { 0 };

	if (a->o->on_warning) {
		cgu_error_set(&w, CGU_EIO, file, 0, "%s; its lines are shown "
			      "without text", why);
		a->o->on_warning(a->o->warning_ctx, &w);
	}
}

/* Read path into s->text: 0, or an errno (EFBIG: too large). */
static int read_text(struct source *s, const char *path)
{
	FILE *f = fopen(path, "rb");
	struct cgu_buf b = CGU_BUF_INIT;
	char chunk[65536];
	size_t got;
	int rc = 0;

	if (!f)
		return errno;
	while (!rc && (got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (b.len + got > MAX_SOURCE_BYTES)
			rc = EFBIG;
		else
			cgu_buf_add(&b, chunk, got);
	}
	if (!rc && ferror(f))
		rc = errno ? errno : EIO;
	fclose(f);
	if (rc) {
		cgu_buf_release(&b);
		return rc;
	}
	cgu_buf_addch(&b, '\0');   /* owned memory, even when empty */
	s->text = b.data;
	return 0;
}

/* Cut s->text into lines in place ("\n" or "\r\n" ends a line). */
static void split_lines(struct source *s)
{
	size_t cap = 0;
	char *p = s->text;

	while (*p) {
		char *nl = strchr(p, '\n');

		s->line = cgu_grow(s->line, &cap, s->nlines + 1, sizeof(*s->line));
		s->line[s->nlines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		p = nl + 1;
	}
}

/* The file as the profile names it (relative to the current directory
 * when relative), then, when relative, under each of o->dirs; the first
 * that can be read wins.  0, or an errno (with one warning). */
static int open_source(const struct annotator *a, struct source *s)
{
	struct cgu_buf path = CGU_BUF_INIT, why = CGU_BUF_INIT;
	int rc = read_text(s, s->file), big = rc == EFBIG;

	for (size_t i = 0; rc && s->file[0] != '/' && i < a->o->ndirs; i++) {
		cgu_buf_reset(&path);
		cgu_buf_addf(&path, "%s/%s", a->o->dirs[i], s->file);
		rc = read_text(s, path.data);
		big |= rc == EFBIG;
	}
	if (!rc) {
		split_lines(s);
	} else {
		cgu_buf_adds(&why, "cannot read source: ");
		if (big)
			cgu_buf_addf(&why, "larger than %u MiB",
				     MAX_SOURCE_BYTES >> 20);
		else if (s->file[0] == '/')
			cgu_buf_adds(&why, strerror(rc));
		else
			cgu_buf_addf(&why, "%s (in the current directory%s; "
				     "-I DIR looks in DIR too)", strerror(rc),
				     a->o->ndirs ? " and the -I directories" : "");
		warn(a, s->file, why.data);
	}
	cgu_buf_release(&path);
	cgu_buf_release(&why);
	return rc;
}

/* The source of file, read once a run. */
static struct source *source_of(struct annotator *a, const char *file)
{
	struct source *s;

	for (size_t i = 0; i < a->nsrc; i++)
		if (a->src[i].file == file)
			return &a->src[i];
	a->src = cgu_grow(a->src, &a->src_cap, a->nsrc + 1, sizeof(*a->src));
	s = &a->src[a->nsrc++];
	memset(s, 0, sizeof(*s));
	s->file = file;
	if (file[0] && strcmp(file, "???"))   /* else no file to look for */
		open_source(a, s);
	return s;
}

/* ------------------------------------------------------------ printing */

static int by_place(const void *x, const void *y, void *ctx)
{
	const struct annotator *a = ctx;
	const struct line_rec *r = &a->lc->v[*(const uint32_t *)x];
	const struct line_rec *s = &a->lc->v[*(const uint32_t *)y];
	const char *own;
	cgu_cost cr, cs;

	if (r->node != s->node)
		return r->node < s->node ? -1 : 1;
	if (r->file != s->file) {   /* the function's own file first */
		own = a->p->nodes[r->node].file;
		if (r->file == own || s->file == own)
			return r->file == own ? -1 : 1;
		return strcmp(r->file, s->file);
	}
	if (r->line != s->line)
		return r->line < s->line ? -1 : 1;
	if ((r->callee == CGU_NO_CALLEE) != (s->callee == CGU_NO_CALLEE))
		return r->callee == CGU_NO_CALLEE ? -1 : 1;
	cr = a->lc->costs[r->costs + a->o->event];
	cs = a->lc->costs[s->costs + a->o->event];
	if (cr != cs)   /* calls: the heaviest first */
		return cr > cs ? -1 : 1;
	return strcmp(cgu_name_table_get(&a->names, r->callee),
		      cgu_name_table_get(&a->names, s->callee));
}

static void add_costs(struct annotator *a, const struct line_rec *r)
{
	for (size_t e = 0; e < a->p->nevents; e++) {
		if (r)
			cgu_buf_addf(&a->out, "%12llu", (unsigned long long)
				     a->lc->costs[r->costs + e]);
		else
			cgu_buf_addf(&a->out, "%12s", ".");
	}
}

/* One source line without cost of the function (context). */
static void context_line(struct annotator *a, const struct source *s,
			 int64_t line)
{
	add_costs(a, NULL);
	cgu_buf_addf(&a->out, "  %6lld  %s\n", (long long)line,
		     s->line[line - 1]);
}

/* Lines from..to of s that exist, as context. */
static void context_lines(struct annotator *a, const struct source *s,
			  int64_t from, int64_t to)
{
	if (from < 1)
		from = 1;
	if (to > (int64_t)s->nlines)
		to = (int64_t)s->nlines;
	for (int64_t l = from; l <= to; l++)
		context_line(a, s, l);
}

/* The records r[0..n) of one line: its self cost (or "."), its text,
 * then its calls. */
static void cost_line(struct annotator *a, struct source *s,
		      const uint32_t *r, size_t n)
{
	const struct line_rec *first = &a->lc->v[r[0]];
	int64_t line = first->line;

	add_costs(a, first->callee == CGU_NO_CALLEE ? first : NULL);
	if (line <= 0) {
		cgu_buf_addf(&a->out, "  %6s  (no line information)\n", "-");
	} else if (!s->text) {
		cgu_buf_addf(&a->out, "  %6lld\n", (long long)line);
	} else if ((size_t)line <= s->nlines) {
		cgu_buf_addf(&a->out, "  %6lld  %s\n", (long long)line,
			     s->line[line - 1]);
	} else {
		cgu_buf_addf(&a->out, "  %6lld\n", (long long)line);
		if (!s->warned_short) {
			char why[128];

			snprintf(why, sizeof(why), "has %zu lines, the profile "
				 "has costs on line %lld (is the source newer "
				 "than the program?)", s->nlines,
				 (long long)line);
			warn(a, s->file, why);
			s->warned_short = 1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct line_rec *c = &a->lc->v[r[i]];

		if (c->callee == CGU_NO_CALLEE)
			continue;
		add_costs(a, c);
		cgu_buf_addf(&a->out, "  %6s  => %s (%llux)\n", "",
			     cgu_name_table_get(&a->names, c->callee),
			     (unsigned long long)c->calls);
	}
}

/* The records r[0..n) of one function in one file, by line: each line
 * with records within ctx lines of context (runs of lines apart marked
 * "-- line N ----"), or, without the source, the lines with records. */
static void file_section(struct annotator *a, const uint32_t *r, size_t n)
{
	const char *file = a->lc->v[r[0]].file;
	struct source *s = source_of(a, file);
	int64_t ctx = s->text ? (int64_t)a->o->context : 0;
	int64_t printed = 0;   /* the last line printed, 0: none yet */
	size_t i, j;

	for (size_t e = 0; e < a->p->nevents; e++)
		cgu_buf_addf(&a->out, "%12s", a->p->events[e]);
	cgu_buf_addf(&a->out, "  %6s  %s%s\n", "line", file[0] ? file : "???",
		     s->text ? "" : " (source not read)");
	for (i = 0; i < n; i = j) {
		int64_t line = a->lc->v[r[i]].line, from;

		for (j = i + 1; j < n && a->lc->v[r[j]].line == line; j++)
			;
		if (line > 0 && s->text) {
			if (printed) {   /* the context after the last one */
				int64_t to = printed + ctx < line - 1 ?
					     printed + ctx : line - 1;

				context_lines(a, s, printed + 1, to);
				printed = to > printed ? to : printed;
			}
			from = line - ctx > printed + 1 ? line - ctx : printed + 1;
			if (printed && from > printed + 1)
				cgu_buf_addf(&a->out, "-- line %lld ----\n",
					     (long long)from);
			context_lines(a, s, from, line - 1);
		}
		cost_line(a, s, r + i, j - i);
		if (line > 0)
			printed = line;
	}
	if (printed && s->text)
		context_lines(a, s, printed + 1, printed + ctx);
}

/* The function's records r[0..n), sorted: header, then each file. */
static void function_section(struct annotator *a, const uint32_t *r, size_t n)
{
	const struct cgu_node *node = &a->p->nodes[a->lc->v[r[0]].node];
	size_t i, j;

	cgu_buf_addf(&a->out, "-- %s (%s)\n",
		     cgu_name_table_get(&a->names, a->lc->v[r[0]].node),
		     node->object[0] ? node->object : "???");
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && a->lc->v[r[j]].file == a->lc->v[r[i]].file; j++)
			;
		file_section(a, r + i, j - i);
	}
}

/* ------------------------------------------------------------ choosing */

struct pick {
	uint32_t node;
	cgu_cost self;
};

static int by_cost(const void *x, const void *y, void *ctx)
{
	const struct pick *a = x, *b = y;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	return strcmp(cgu_name_table_get(ctx, a->node),
		      cgu_name_table_get(ctx, b->node));
}

/* The functions to show, heaviest first: *n of them. */
static struct pick *choose(const struct annotator *a, size_t *n)
{
	const struct cgu_profile *p = a->p;
	struct pick *v = malloc((p->nnodes ? p->nnodes : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		abort();
	for (uint32_t i = 0; i < p->nnodes; i++) {
		cgu_cost self = cgu_self(p, i)[a->o->event];

		if (a->o->select ? a->o->select(a->o->select_ctx,
			cgu_name_table_get(&a->names, i)) : self > 0)
			v[k++] = (struct pick){ i, self };
	}
	qsort_r(v, k, sizeof(*v), by_cost, (void *)&a->names);
	if (a->o->top && k > a->o->top)
		k = a->o->top;
	*n = k;
	return v;
}

/* The records sorted by function and place; start[i] is where node
 * i's begin (start has nnodes + 1 entries). */
static uint32_t *sort_records(struct annotator *a, size_t **start)
{
	const struct cgu_line_costs *lc = a->lc;
	uint32_t *r = malloc((lc->n ? lc->n : 1) * sizeof(*r));
	size_t *st = calloc(a->p->nnodes + 1, sizeof(*st));

	if (!r || !st)
		abort();
	for (uint32_t i = 0; i < lc->n; i++)
		r[i] = i;
	qsort_r(r, lc->n, sizeof(*r), by_place, a);
	for (size_t i = 0, node = 0; node <= a->p->nnodes; node++) {
		while (i < lc->n && lc->v[r[i]].node < node)
			i++;
		st[node] = i;
	}
	*start = st;
	return r;
}

static int write_functions(struct annotator *a, const struct pick *v, size_t n)
{
	size_t *start;
	uint32_t *r = sort_records(a, &start);
	int rc = CGU_OK;

	for (size_t i = 0; i < n && rc == CGU_OK; i++) {
		size_t from = start[v[i].node], to = start[v[i].node + 1];

		if (i)
			cgu_buf_addch(&a->out, '\n');
		if (from == to)
			cgu_buf_addf(&a->out, "-- %s: no cost lines\n",
				     cgu_name_table_get(&a->names, v[i].node));
		else
			function_section(a, r + from, to - from);
		if (cgu_buf_flush(&a->out, a->f, 1 << 16))
			rc = CGU_EIO;
	}
	free(r);
	free(start);
	return rc;
}

int cgu_annotate_source(const struct cgu_profile *p,
			const struct cgu_line_costs *lc,
			const struct cgu_source_opts *o, FILE *out,
			struct cgu_error *err)
{
	struct annotator a = { .p = p, .lc = lc, .o = o, .f = out,
			       .out = CGU_BUF_INIT };
	struct pick *v;
	size_t n;
	int rc;

	if (o->event < 0 || (size_t)o->event >= p->nevents)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no event %d",
				     o->event);
	if (lc->saw_lines && lc->line_col < 0)
		return cgu_error_set(err, CGU_EINPUT, NULL, 0, "expected a "
				     "profile with line positions ('positions: "
				     "line' or 'instr line', valgrind's default), "
				     "got 'positions: %s'", p->positions);
	cgu_name_table_build(&a.names, p->nodes, p->nnodes, o->names);
	v = choose(&a, &n);
	if (!n && o->select)
		rc = cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no function "
				   "matches");
	else
		rc = write_functions(&a, v, n);
	if (rc == CGU_OK && cgu_buf_write(&a.out, out))
		rc = CGU_EIO;
	if (rc == CGU_EIO)
		cgu_error_set(err, CGU_EIO, NULL, 0, "write error: %s",
			      strerror(errno));
	for (size_t i = 0; i < a.nsrc; i++) {
		free(a.src[i].text);
		free(a.src[i].line);
	}
	free(a.src);
	free(v);
	cgu_buf_release(&a.out);
	cgu_name_table_release(&a.names);
	return rc;
}
