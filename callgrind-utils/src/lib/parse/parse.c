/* parse.c - a streaming, strict reader of the Callgrind profile format.
 *
 * The format (Valgrind manual, "Callgrind Format Specification", version 1)
 * as implemented here:
 *
 *   File     := ("# callgrind format")? Part+
 *   Part     := Header* Body*
 *   Header   := Key ":" Value            one per line
 *      version: 1           only 1 is accepted
 *      creator: pid: cmd: part: thread:  kept as strings
 *      desc: Key: text      kept in profile->headers
 *      positions: P+        P is "instr" or "line"; default "line"
 *      events: E+           event names; required before the first cost line
 *      event: E[=formula][:long name]   long name kept as event_desc
 *      summary: N*          totals of the part: totals: must equal the
 *      totals: N*           sum of the self costs (fewer numbers: rest
 *                           zero), and so must summary: without totals:;
 *                           a summary: beside totals: that differs from
 *                           it is only a warning (opts->on_warning)
 *      any other key        kept in profile->headers, as the spec asks
 *   Body lines:
 *      ob= fl= fi= fe= fn=  current object, file, inline file, function
 *      cob= cfi= cfl= cfn=  object, file and function of the next call
 *      jfi= jfn=            jump target file/function (only define names)
 *      calls=N Target       N calls to cfn; the NEXT cost line (comments and
 *                           empty lines aside) is the inclusive cost of
 *                           those calls, not self cost
 *      jump=N Target        unconditional jump, jcnd=E/N Target (or "E N")
 *                           a conditional one; the model only counts them
 *      Cost line            one Subposition per "positions:" column, then
 *                           up to one unsigned 64-bit number per event
 *   Subposition := Number | "+" Number | "-" Number | "*"
 *                           relative to the same column of the previous
 *                           cost line ("*" = unchanged); Number is decimal
 *                           or 0x-hex
 *   Name compression, in every id space (files: fl fi fe cfi cfl jfi;
 *   functions: fn cfn jfn; objects: ob cob):
 *      key=(id) name        defines id; key=(id) refers to it later; id
 *                           is decimal digits
 *      key=name             a name without compression, which may start
 *                           with '(' too ("(below main)")
 *
 * Semantics: a node is (fn, ob, file), where file is the current file
 * (latest fl=, fi= or fe=) when fn= is read, and fi=/fe= inside a function
 * change only where positions point, not the node.  A callee without cob=
 * is in the current object, without cfi= in the current file; cfn=, cob=
 * and cfi= apply to one calls= line.  Compression ids live for the whole
 * file, across parts.  A header key after body lines starts a new part.
 *
 * The input is read into one buffer and split into lines in place
 * (src/lib/parse/reader.c): no allocation per line, memory grows with distinct
 * names and edges only.  The two most frequent lines, cost lines and
 * references to compressed names, have a fast path each that reads them
 * straight from the buffer and hands anything unusual to the general
 * path.  Every error names file:line and what was expected.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/arena.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/parse.h>
#include "hash.h"
#include "lex.h"
#include "reader.h"

#define MAX_POSITIONS 4
#define MAX_COMPRESSED_ID (1u << 24)
#define NO_NODE UINT32_MAX
#define NO_ID UINT32_MAX
#define NO_EDGE UINT32_MAX
#define PLAIN_ID (1u << 31)     /* id | PLAIN_ID: a name without compression */

/* ------------------------------------------------------ name spaces */

enum space { SP_FILE, SP_FN, SP_OB, NSPACES };

/* A compressed id, or a name given without compression (found by its
 * text in the plain table, so that it too caches its node and edge). */
struct cname {
	const char *s;                 /* NULL: id not defined */
	size_t len;
	const char *interned;          /* in profile owner */
	const struct cgu_profile *owner;
	/* fn space: the node and the edge this name led to last time */
	const struct cgu_profile *node_p, *edge_p;
	const char *node_ob, *node_file;
	uint32_t node, edge_caller, edge;
};

struct space_table {
	struct cname *v;               /* by compressed id */
	size_t cap;
	struct cname *plain;           /* names without compression */
	size_t nplain, plain_cap;
	struct cgu_itab plain_tab;     /* text -> index in plain */
};

static inline struct cname *cname_at(struct space_table *t, uint32_t id)
{
	return id & PLAIN_ID ? &t->plain[id & ~PLAIN_ID] : &t->v[id];
}

struct plain_key {
	const char *s;
	size_t len;
};

static int plain_eq(const void *ctx, uint32_t index, const void *key)
{
	const struct cname *c = (const struct cname *)ctx + index;
	const struct plain_key *k = key;

	return c->len == k->len && !memcmp(c->s, k->s, k->len);
}

/* A resolved name: the interned pointer in the current profile. */
typedef const char *name_t;

/* ------------------------------------------------------------ parser */

#define NODE_CACHE_SIZE 1024

struct node_cache {
	name_t fn, ob, file;
	const struct cgu_profile *p;
	uint32_t node;
};

struct parser {
	const char *name;
	struct cgu_reader *r;
	const struct cgu_parse_opts *opts;
	struct cgu_profile_set *set;
	struct cgu_profile *p;         /* profile receiving this part */
	name_t empty;                  /* "" interned in p */
	struct cgu_error *err;
	unsigned long lineno;
	struct cgu_arena arena;        /* compressed names */
	struct space_table spaces[NSPACES];
	struct node_cache node_cache[NODE_CACHE_SIZE];
	uint32_t last_id;              /* id resolve_name() gave, or NO_ID */
	uint32_t cfn_id;               /* id of the cfn= name, or NO_ID */

	/* part state */
	int in_body;
	int nparts;
	size_t npos;
	int64_t lastpos[MAX_POSITIONS];
	size_t nev;
	int evmap[CGU_MAX_EVENTS];     /* part event -> profile event */
	const char *part_events[CGU_MAX_EVENTS];
	cgu_cost part_sum[CGU_MAX_EVENTS];
	cgu_cost declared[2][CGU_MAX_EVENTS];  /* summary, totals */
	unsigned long declared_line[2];

	/* body context */
	name_t ob, file, fn;
	uint32_t node;
	name_t cob, cfi, cfn;
	uint64_t pending_calls;
	unsigned long calls_line;      /* 0: no calls= waiting */
	uint32_t callee;
};

static int perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = lex_verror(ps->err, ps->name, ps->lineno, fmt, ap);
	va_end(ap);
	return rc;
}


/* Decimal (or 0x-hex when hex_ok) unsigned 64-bit number; NULL if none
 * or on overflow (*overflow set). */
static const char *parse_hex_u64(const char *s, uint64_t *out,
				 int *overflow)
{
	const char *start = s;
	uint64_t v = 0;

	for (; isxdigit((unsigned char)*s); s++) {
		if (v >> 60) {
			*overflow = 1;
			return NULL;
		}
		v = v * 16 + (uint64_t)(isdigit((unsigned char)*s) ? *s - '0'
					: tolower((unsigned char)*s) - 'a' + 10);
	}
	if (s == start)
		return NULL;
	*out = v;
	return s;
}

/* The hot path: 19 decimal digits cannot overflow, so only a longer
 * number is read again, checked. */
static inline const char *parse_u64(const char *s, uint64_t *out,
				    int hex_ok, int *overflow)
{
	const char *start = s;
	uint64_t v = 0;
	unsigned d;

	*overflow = 0;
	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_hex_u64(s + 2, out, overflow);
	while ((d = (unsigned)(unsigned char)*s - '0') < 10) {
		v = v * 10 + d;
		s++;
	}
	if (s == start)
		return NULL;
	if (s - start > 19) {
		for (s = start, v = 0; (d = (unsigned)(unsigned char)*s - '0') < 10;
		     s++) {
			if (v > (UINT64_MAX - d) / 10) {
				*overflow = 1;
				return NULL;
			}
			v = v * 10 + d;
		}
	}
	*out = v;
	return s;
}


/* ------------------------------------------------- profile targets */

/* A new profile for a part that does not repeat events: takes the
 * events of the previous part. */
static void inherit_events(struct parser *ps)
{
	size_t e;

	cgu_profile_set_events(ps->p, ps->part_events, ps->nev, NULL);
	for (e = 0; e < ps->nev; e++)
		ps->evmap[e] = (int)e;
}

/* The profile receiving the part, made on first use. */
static void new_target(struct parser *ps)
{
	ps->p = cgu_profile_new();
	ps->empty = cgu_profile_intern(ps->p, "", 0);
	if (ps->nev)
		inherit_events(ps);
	if (ps->opts->separate_parts || ps->set->n == 0) {
		char src[64];

		snprintf(src, sizeof(src), "#%d", ps->nparts + 1);
		cgu_profile_set_add(ps->set, ps->p, ps->name);
		if (ps->opts->separate_parts) {
			struct cgu_buf b = CGU_BUF_INIT;

			cgu_buf_addf(&b, "%s%s", ps->name, src);
			ps->set->source[ps->set->n - 1] =
				cgu_arena_strdup(&ps->p->arena, b.data);
			cgu_buf_release(&b);
		}
	}
}

static inline struct cgu_profile *target(struct parser *ps)
{
	if (!ps->p)
		new_target(ps);
	return ps->p;
}

static name_t intern(struct parser *ps, const char *s, size_t len)
{
	return cgu_profile_intern(target(ps), s, len);
}

/* Id (with PLAIN_ID) of the name s[0..len) given without compression,
 * a new one for a name not seen before. */
static uint32_t plain_name(struct parser *ps, struct space_table *t,
			   const char *s, size_t len)
{
	struct plain_key k = { s, len };
	uint32_t h = cgu_hash_bytes(s, len);
	uint32_t i = cgu_itab_find(&t->plain_tab, h, plain_eq, t->plain, &k);

	if (i != UINT32_MAX)
		return PLAIN_ID | i;
	if (t->nplain == t->plain_cap) {
		t->plain_cap = t->plain_cap ? t->plain_cap * 2 : 256;
		t->plain = realloc(t->plain, t->plain_cap * sizeof(*t->plain));
		if (!t->plain)
			abort();
	}
	i = (uint32_t)t->nplain++;
	memset(&t->plain[i], 0, sizeof(t->plain[i]));
	t->plain[i].s = cgu_arena_strndup(&ps->arena, s, len);
	t->plain[i].len = len;
	cgu_itab_insert(&t->plain_tab, h, i);
	return PLAIN_ID | i;
}

/* Does the value v start with a compressed id, "(N)" with N decimal
 * digits?  Anything else is a name without compression, which may start
 * with a parenthesis too: Callgrind's "(below main)" and "(skipped)"
 * with --compress-strings=no. */
static int is_compressed(const char *v)
{
	const char *d = v + 1;

	if (*v != '(')
		return 0;
	while (*d >= '0' && *d <= '9')
		d++;
	return d > v + 1 && *d == ')';
}

/* The id of "(N)" or "(N) name" at v (v..end, after "key="), defining
 * it in the second form. */
static int compressed_name(struct parser *ps, struct space_table *t,
			   const char *key, const char *v, const char *end,
			   uint32_t *out)
{
	struct cname *c;
	uint64_t id;
	int ovf;
	const char *e = parse_u64(v + 1, &id, 0, &ovf);

	if (!e || id >= MAX_COMPRESSED_ID)
		return perr(ps, "%s=(%.*s): compressed id too large (expected "
			    "< %u)", key, (int)strcspn(v + 1, ")"), v + 1,
			    MAX_COMPRESSED_ID);
	if (id >= t->cap) {
		size_t cap = t->cap ? t->cap : 256;

		while (cap <= id)
			cap *= 2;
		t->v = realloc(t->v, cap * sizeof(*t->v));
		if (!t->v)
			abort();
		memset(t->v + t->cap, 0, (cap - t->cap) * sizeof(*t->v));
		t->cap = cap;
	}
	c = &t->v[id];
	e = lex_skip_space(e + 1);
	if (*e) {
		c->len = (size_t)(end - e);
		c->s = cgu_arena_strndup(&ps->arena, e, c->len);
		c->owner = c->node_p = c->edge_p = NULL;
	} else if (!c->s) {
		return perr(ps, "%s=(%llu): unknown compressed id; expected "
			    "'(%llu) name' to define it first", key,
			    (unsigned long long)id, (unsigned long long)id);
	}
	*out = (uint32_t)id;
	return CGU_OK;
}

/* The name of (defined) id in t, interned in the current profile. */
static inline name_t name_of(struct parser *ps, struct space_table *t,
			     uint32_t id)
{
	struct cname *c = cname_at(t, id);

	if (c->owner != target(ps)) {
		c->interned = intern(ps, c->s, c->len);
		c->owner = ps->p;
	}
	return c->interned;
}

/* Resolve the value of a name line (v..end, after "key=") in space sp. */
static int resolve_name(struct parser *ps, enum space sp, const char *key,
			const char *v, const char *end, name_t *out)
{
	struct space_table *t = &ps->spaces[sp];
	uint32_t id = 0;
	int rc;

	ps->last_id = NO_ID;
	if (!is_compressed(v))
		id = plain_name(ps, t, v, (size_t)(end - v));
	else if ((rc = compressed_name(ps, t, key, v, end, &id)))
		return rc;
	*out = name_of(ps, t, id);
	ps->last_id = id;
	return CGU_OK;
}

/* ------------------------------------------------------- parts */

static const char *const declared_key[2] = { "summary", "totals" };

/* The first event whose count on the summary: (0) or totals: (1) line
 * differs from want, or -1. */
static int declared_differs(const struct parser *ps, int which,
			    const cgu_cost *want)
{
	size_t e;

	for (e = 0; e < ps->nev; e++)
		if (ps->declared[which][e] != want[e])
			return (int)e;
	return -1;
}

/* totals: must equal the sum of the cost lines: a file cut short does
 * not.  summary: too when it is alone; beside totals: it only gets a
 * warning, as Callgrind writes it off by a few Ir with --cache-sim=yes,
 * and with wrapped negative counts after CALLGRIND_ZERO_STATS. */
static int check_declared(struct parser *ps)
{
	int which = ps->declared_line[1] ? 1 : 0, e;
	struct cgu_error w;

	if (ps->opts->no_check_totals)
		return CGU_OK;
	if (ps->declared_line[which] &&
	    (e = declared_differs(ps, which, ps->part_sum)) >= 0)
		return perr(ps, "%s: (line %lu) gives %s=%llu but the cost "
			    "lines add up to %llu; expected equal totals "
			    "(truncated file?)", declared_key[which],
			    ps->declared_line[which], ps->part_events[e],
			    (unsigned long long)ps->declared[which][e],
			    (unsigned long long)ps->part_sum[e]);
	if (!which || !ps->declared_line[0] ||
	    (e = declared_differs(ps, 0, ps->declared[1])) < 0)
		return CGU_OK;
	if (ps->opts->on_warning) {
		cgu_error_set(&w, CGU_OK, ps->name, ps->declared_line[0],
			      "summary: gives %s=%llu but totals: (line %lu) "
			      "gives %llu; taking totals:, which the cost lines "
			      "add up to", ps->part_events[e],
			      (unsigned long long)ps->declared[0][e],
			      ps->declared_line[1],
			      (unsigned long long)ps->declared[1][e]);
		ps->opts->on_warning(ps->opts->warning_ctx, &w);
	}
	return CGU_OK;
}

static void apply_event_descs(struct parser *ps)
{
	struct cgu_profile *p = ps->p;
	size_t i;

	for (i = 0; p && i < p->nheaders; i++) {
		const char *v = p->headers[i].value, *colon;
		size_t n;
		int ev;

		if (strcmp(p->headers[i].key, "event"))
			continue;
		n = strcspn(v, " \t=:");
		colon = strchr(v, ':');
		if (!colon)
			continue;
		for (ev = 0; ev < (int)p->nevents; ev++)
			if (strlen(p->events[ev]) == n &&
			    !strncmp(p->events[ev], v, n))
				p->event_desc[ev] = lex_skip_space(colon + 1);
	}
}

static int end_part(struct parser *ps)
{
	int rc;

	if (ps->calls_line)
		return perr(ps, "unexpected end of part: calls= at line %lu "
			    "expects its inclusive cost line", ps->calls_line);
	if ((rc = check_declared(ps)))
		return rc;
	apply_event_descs(ps);
	if (ps->in_body)
		ps->nparts++;
	memset(ps->part_sum, 0, sizeof(ps->part_sum));
	memset(ps->declared_line, 0, sizeof(ps->declared_line));
	ps->in_body = 0;
	ps->ob = ps->file = ps->fn = NULL;
	ps->cob = ps->cfi = ps->cfn = NULL;
	ps->node = NO_NODE;
	memset(ps->lastpos, 0, sizeof(ps->lastpos));
	if (ps->opts->separate_parts && ps->p) {
		cgu_profile_finish(ps->p);
		ps->p = NULL;
	}
	return CGU_OK;
}

/* Map this part's events onto the target profile's events. */
static int bind_events(struct parser *ps)
{
	struct cgu_profile *p = target(ps);
	size_t e;

	if (!p->nevents) {
		int rc = cgu_profile_set_events(p, ps->part_events, ps->nev,
						NULL);
		if (rc)
			return perr(ps, "events: expected 1 to %d names",
				    CGU_MAX_EVENTS);
	}
	for (e = 0; e < ps->nev; e++) {
		ps->evmap[e] = cgu_profile_event(p, ps->part_events[e]);
		if (ps->evmap[e] < 0)
			return perr(ps, "events: event '%s' is not in the "
				    "events of the first part; expected the "
				    "same events to merge (or use separate "
				    "parts)", ps->part_events[e]);
	}
	return CGU_OK;
}

/* ------------------------------------------------------- headers */

static int header_events(struct parser *ps, const char *v)
{
	size_t n = 0;

	while (*(v = lex_skip_space(v))) {
		size_t len = strcspn(v, " \t");

		if (n == CGU_MAX_EVENTS)
			return perr(ps, "events: expected at most %d events",
				    CGU_MAX_EVENTS);
		if (lex_event_seen(ps->part_events, n, v, len))
			return perr(ps, "events: '%.*s' given twice; "
				    "expected distinct event names",
				    (int)len, v);
		ps->part_events[n++] = cgu_arena_strndup(&ps->arena, v, len);
		v += len;
	}
	if (!n)
		return perr(ps, "events: expected at least one event name");
	ps->nev = n;
	return bind_events(ps);
}

static int header_positions(struct parser *ps, const char *v)
{
	const char *value = v;
	size_t n = 0;

	while (*(v = lex_skip_space(v))) {
		size_t len = strcspn(v, " \t");

		if (!((len == 4 && !strncmp(v, "line", 4)) ||
		      (len == 5 && !strncmp(v, "instr", 5))) ||
		    n == MAX_POSITIONS)
			return perr(ps, "positions: expected 'instr' and/or "
				    "'line', got '%.*s'", (int)len, v);
		n++;
		v += len;
	}
	if (!n)
		return perr(ps, "positions: expected 'instr' and/or 'line'");
	ps->npos = n;
	target(ps);
	ps->p->positions = cgu_arena_strdup(&ps->p->arena, value);
	return CGU_OK;
}

static int header_costs(struct parser *ps, int which, const char *v)
{
	size_t n = 0;

	if (!ps->nev)
		return perr(ps, "%s: expected after the events: line",
			    declared_key[which]);
	memset(ps->declared[which], 0, sizeof(ps->declared[which]));
	while (*(v = lex_skip_space(v))) {
		uint64_t x;
		int ovf;
		const char *e = parse_u64(v, &x, 0, &ovf);

		if (!e || !lex_end_of_token(*e))
			return perr(ps, "%s: expected a number for event %zu, "
				    "got '%.20s'", declared_key[which], n + 1, v);
		if (n == ps->nev)
			return perr(ps, "%s: expected at most %zu numbers "
				    "(one per event)", declared_key[which],
				    ps->nev);
		ps->declared[which][n++] = x;
		v = e;
	}
	ps->declared_line[which] = ps->lineno;
	return CGU_OK;
}

static const char **header_slot(struct cgu_profile *p, const char *key)
{
	if (!strcmp(key, "creator"))
		return &p->creator;
	if (!strcmp(key, "cmd"))
		return &p->cmd;
	if (!strcmp(key, "pid"))
		return &p->pid;
	if (!strcmp(key, "thread"))
		return &p->thread;
	if (!strcmp(key, "part"))
		return &p->part;
	return NULL;
}

static int header_line(struct parser *ps, char *line, char *colon)
{
	const char *key = line, *v = lex_skip_space(colon + 1);
	const char **slot;
	int rc;

	*colon = '\0';
	if (!strcmp(key, "summary"))
		return header_costs(ps, 0, v);
	if (!strcmp(key, "totals"))
		return header_costs(ps, 1, v);
	if (ps->in_body && (rc = end_part(ps)))
		return rc;
	if (!strcmp(key, "version")) {
		if (strcmp(v, "1"))
			return perr(ps, "version: expected 1, got '%s'", v);
		return CGU_OK;
	}
	if (!strcmp(key, "events"))
		return header_events(ps, v);
	if (!strcmp(key, "positions"))
		return header_positions(ps, v);
	slot = header_slot(target(ps), key);
	if (slot) {
		*slot = cgu_arena_strdup(&ps->p->arena, v);
		return CGU_OK;
	}
	cgu_profile_add_header(ps->p, key, v);
	return CGU_OK;
}

int cgu_position_column(const char *positions, const char *name)
{
	size_t want = strlen(name);
	int col = 0;

	if (!positions)
		return strcmp(name, "line") ? -1 : 0;
	for (const char *s = positions; *(s += strspn(s, " \t")); col++) {
		size_t len = strcspn(s, " \t");

		if (len == want && !strncmp(s, name, len))
			return col;
		s += len;
	}
	return -1;
}

/* ---------------------------------------------------- node lookup */

/* Node of (fn, ob, file), through a small direct-mapped cache: the same
 * few functions come back again and again in fn= and calls= lines. */
static uint32_t lookup_node_by_name(struct parser *ps, name_t fn, name_t ob,
				    name_t file)
{
	struct node_cache *c = &ps->node_cache[((uintptr_t)fn >> 4) %
					       NODE_CACHE_SIZE];

	if (c->fn == fn && c->ob == ob && c->file == file && c->p == ps->p)
		return c->node;
	c->fn = fn;
	c->ob = ob;
	c->file = file;
	c->p = ps->p;
	c->node = cgu_profile_node_interned(ps->p, fn, ob, file);
	return c->node;
}

/* With an id, the id's own cache entry answers first. */
static uint32_t lookup_node(struct parser *ps, uint32_t id, name_t fn,
			    name_t ob, name_t file)
{
	struct cname *c;

	if (id == NO_ID)
		return lookup_node_by_name(ps, fn, ob, file);
	c = cname_at(&ps->spaces[SP_FN], id);
	if (c->node_p != ps->p || c->node_ob != ob || c->node_file != file) {
		c->node = lookup_node_by_name(ps, fn, ob, file);
		c->node_p = ps->p;
		c->node_ob = ob;
		c->node_file = file;
	}
	return c->node;
}

/* Edge from the current node to the callee, cached in the cfn= name. */
static uint32_t lookup_call_edge(struct parser *ps)
{
	struct cname *c;

	if (ps->cfn_id == NO_ID)
		return cgu_profile_edge(ps->p, ps->node, ps->callee);
	c = cname_at(&ps->spaces[SP_FN], ps->cfn_id);
	if (c->edge_p != ps->p || c->edge_caller != ps->node ||
	    ps->p->edges[c->edge].callee != ps->callee) {
		c->edge = cgu_profile_edge(ps->p, ps->node, ps->callee);
		c->edge_p = ps->p;
		c->edge_caller = ps->node;
	}
	return c->edge;
}

/* ---------------------------------------------------- cost lines */

static const char *parse_subposition(struct parser *ps, const char *s,
				     size_t col)
{
	uint64_t v;
	int ovf;
	const char *e;

	if (*s == '*') {
		e = s + 1;
	} else if (*s == '+' || *s == '-') {
		e = parse_u64(s + 1, &v, 1, &ovf);
		if (e)
			ps->lastpos[col] += *s == '+' ? (int64_t)v : -(int64_t)v;
	} else {
		e = parse_u64(s, &v, 1, &ovf);
		if (e)
			ps->lastpos[col] = (int64_t)v;
	}
	if (!e || !lex_end_of_token(*e)) {
		perr(ps, "expected a position (N, 0xN, +N, -N or *) in column "
		     "%zu, got '%.20s'", col + 1, s);
		return NULL;
	}
	return e;
}

/* The first of the n counts of a cost line that would take the
 * profile's total of its event past 2^64 - 1, or -1.  The totals are
 * kept as the lines are read (cgu_profile_finish() computes the same),
 * and bound every node's self cost and every part's sum, so those
 * cannot pass it either.  Events are distinct (header_events()), so
 * each count has a total of its own. */
static inline int self_overflow(const struct parser *ps, const cgu_cost *v,
				size_t n)
{
	const cgu_cost *tot = ps->p->totals;
	size_t i;

	for (i = 0; i < n; i++)
		if (tot[ps->evmap[i]] > UINT64_MAX - v[i])
			return (int)i;
	return -1;
}

/* The counts of a cost line as self cost of the current node (and the
 * part's sum, and the profile's totals); self_overflow() said they fit. */
static inline void add_self(struct parser *ps, const cgu_cost *v, size_t n)
{
	cgu_cost *dst = cgu_self(ps->p, ps->node), *tot = ps->p->totals;
	size_t i;

	for (i = 0; i < n; i++) {
		dst[ps->evmap[i]] += v[i];
		tot[ps->evmap[i]] += v[i];
		ps->part_sum[i] += v[i];
	}
}

/* The first event whose inclusive cost on edge j would pass 2^64 - 1
 * with v, or -1; -2 for the call count. */
static int edge_overflow(const struct parser *ps, uint32_t j,
			 const cgu_cost *v, size_t n)
{
	const cgu_cost *dst = cgu_edge_cost(ps->p, j);
	size_t i;

	if (ps->p->edges[j].calls > UINT64_MAX - ps->pending_calls)
		return -2;
	for (i = 0; i < n; i++)
		if (dst[ps->evmap[i]] > UINT64_MAX - v[i])
			return (int)i;
	return -1;
}

static int overflow_error(struct parser *ps, int e, uint32_t j)
{
	if (e == -2)
		return perr(ps, "the call counts of %s -> %s add up past "
			    "2^64 - 1", ps->p->nodes[ps->p->edges[j].caller].function,
			    ps->p->nodes[ps->p->edges[j].callee].function);
	if (j != NO_EDGE)
		return perr(ps, "the inclusive costs of event %s of the calls "
			    "%s -> %s add up past 2^64 - 1", ps->part_events[e],
			    ps->p->nodes[ps->p->edges[j].caller].function,
			    ps->p->nodes[ps->p->edges[j].callee].function);
	return perr(ps, "the costs of event %s add up past 2^64 - 1; expected "
		    "totals that fit in 64 bits", ps->part_events[e]);
}

/* Report a cost line to the callbacks that asked for them: v, the n
 * counts in the part's event order, become counts by event of p. */
static void report_line(struct parser *ps, const cgu_cost *v, size_t n,
			int is_call)
{
	cgu_cost line[CGU_MAX_EVENTS];
	size_t i;

	memset(line, 0, ps->p->nevents * sizeof(line[0]));
	for (i = 0; i < n; i++)
		line[ps->evmap[i]] = v[i];
	if (ps->opts->on_cost_line && !is_call)
		ps->opts->on_cost_line(ps->opts->on_cost_line_ctx, ps->p,
				       ps->node, ps->lastpos, ps->npos, line);
	if (ps->opts->on_line) {
		struct cgu_cost_line l = {
			.node = ps->node, .file = ps->file ? ps->file : ps->empty,
			.pos = ps->lastpos, .npos = ps->npos, .costs = line,
			.callee = is_call ? ps->callee : CGU_NO_CALLEE,
			.calls = is_call ? ps->pending_calls : 0,
		};
		ps->opts->on_line(ps->opts->on_line_ctx, ps->p, &l);
	}
}

static inline int reports_lines(const struct parser *ps)
{
	return ps->opts->on_cost_line || ps->opts->on_line;
}

/* Add the n event counts of a cost line: to the pending call's edge, or
 * to the current node's self cost.  CGU_OK, or an error where a sum
 * would pass 2^64 - 1 (nothing added then). */
static int add_costs(struct parser *ps, const cgu_cost *v, size_t n)
{
	cgu_cost *dst;
	size_t i;
	int e;

	if (ps->calls_line) {
		uint32_t j = lookup_call_edge(ps);

		if ((e = edge_overflow(ps, j, v, n)) != -1)
			return overflow_error(ps, e, j);
		ps->p->edges[j].calls += ps->pending_calls;
		dst = cgu_edge_cost(ps->p, j);
		for (i = 0; i < n; i++)
			dst[ps->evmap[i]] += v[i];
		if (reports_lines(ps))
			report_line(ps, v, n, 1);
		ps->calls_line = 0;
		ps->cfn = ps->cob = ps->cfi = NULL;
		return CGU_OK;
	}
	if ((e = self_overflow(ps, v, n)) >= 0)
		return overflow_error(ps, e, NO_EDGE);
	add_self(ps, v, n);
	if (reports_lines(ps))
		report_line(ps, v, n, 0);
	return CGU_OK;
}

static int cost_line(struct parser *ps, const char *s)
{
	cgu_cost v[CGU_MAX_EVENTS];
	size_t col, n = 0;

	if (!ps->nev)
		return perr(ps, "cost line before the events: header; "
			    "expected 'events: NAME...' first");
	if (ps->node == NO_NODE)
		return perr(ps, "cost line before any fn= line; expected "
			    "fn= to name the function first");
	for (col = 0; col < ps->npos; col++) {
		s = parse_subposition(ps, lex_skip_space(s), col);
		if (!s)
			return CGU_EINPUT;
	}
	while (*(s = lex_skip_space(s))) {
		uint64_t x;
		int ovf;
		const char *e = parse_u64(s, &x, 0, &ovf);

		if (n == ps->nev)
			return perr(ps, "expected at most %zu event counts "
				    "after the position (events: line), got "
				    "more", ps->nev);
		if (ovf)
			return perr(ps, "cost for event %s does not fit in "
				    "64 bits", ps->part_events[n]);
		if (!e || !lex_end_of_token(*e))
			return perr(ps, "expected a number for event %s, got "
				    "'%.20s'", ps->part_events[n], s);
		v[n++] = x;
		s = e;
	}
	return add_costs(ps, v, n);
}

/* The leading decimal digits of s, up to 8 of them, in a few word
 * operations instead of a loop per digit; s has 8 readable bytes (the
 * buffer's CGU_READER_PAD).  Returns how many digits there are (0 to 8), and
 * their value in *out.
 *
 * A byte is a digit when neither w - '0' nor w + (0x7f - '9') sets its
 * top bit.  The lowest flagged byte (of w in little-endian order) is
 * exact: the bytes below it are digits, which neither borrow nor carry.  The
 * digits are then shifted to the top of the word (the first one,
 * the most significant, lands in byte 8 - n), and pairs, quads and
 * the two halves are combined by multiplies that cannot carry across
 * lanes (each step's lanes hold at most 99, 9999, 99999999). */
static inline unsigned swar_digits(const char *s, uint64_t *out)
{
	uint64_t w, a, m;
	unsigned n;

	memcpy(&w, s, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	a = w - 0x3030303030303030ULL;
	m = (a | (w + 0x4646464646464646ULL)) & 0x8080808080808080ULL;
	n = m ? (unsigned)__builtin_ctzll(m) >> 3 : 8;
	*out = 0;
	if (!n)
		return 0;
	a <<= 8 * (8 - n);
	a = (a * 10 + (a >> 8)) & 0x00ff00ff00ff00ffULL;
	a = (a * 100 + (a >> 16)) & 0x0000ffff0000ffffULL;
	*out = (a * 10000 + (a >> 32)) & 0xffffffffULL;
	return n;
}

/* parse_u64() for the fast path, decimal only: up to 15 digits go
 * through swar_digits(), a longer number through the checked loop. */
static inline __attribute__((always_inline)) const char *
fast_u64(const char *s, uint64_t *out)
{
	static const uint64_t pow10[8] = { 1, 10, 100, 1000, 10000, 100000,
					   1000000, 10000000 };
	uint64_t hi, lo;
	unsigned n = swar_digits(s, &hi), n2;
	int ovf;

	if (n < 8) {
		*out = hi;
		return n ? s + n : NULL;
	}
	n2 = swar_digits(s + 8, &lo);
	if (n2 < 8) {
		*out = hi * pow10[n2] + lo;
		return s + 8 + n2;
	}
	return parse_u64(s, out, 0, &ovf);
}

static inline int fast_end_of_token(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* The fast path of the most frequent line: a cost line of decimal
 * numbers, read straight from the buffer at p, which holds the whole
 * line up to its '\n' (r->complete), in one pass without splitting it
 * first.  Returns the start of the next line, or NULL, having changed
 * nothing, for anything else (hex, "\r\n", a NUL, too long, an error):
 * the general path then takes the line and gives the same result. */
static char *fast_cost_line(struct parser *ps, char *p)
{
	int64_t pos[MAX_POSITIONS];
	cgu_cost v[CGU_MAX_EVENTS];
	const char *s = p;
	size_t col, n = 0;

	if (!ps->nev || ps->node == NO_NODE)
		return NULL;
	for (col = 0; col < ps->npos; col++) {
		char c;
		uint64_t x;

		while (*s == ' ' || *s == '\t')
			s++;
		c = *s;
		if (c == '*') {
			pos[col] = ps->lastpos[col];
			s++;
		} else {
			s = fast_u64(s + (c == '+' || c == '-'), &x);
			if (!s)
				return NULL;
			pos[col] = c == '+' ? ps->lastpos[col] + (int64_t)x
				 : c == '-' ? ps->lastpos[col] - (int64_t)x
				 : (int64_t)x;
		}
		if (!fast_end_of_token(*s))
			return NULL;
	}
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\n')
			break;
		if (n == ps->nev)
			return NULL;
		s = fast_u64(s, &v[n++]);
		if (!s || !fast_end_of_token(*s))
			return NULL;
	}
	if ((size_t)(s - p) > ps->r->max_line)
		return NULL;
	/* a sum past 2^64 - 1: the general path says where */
	if (!ps->calls_line && self_overflow(ps, v, n) >= 0)
		return NULL;
	if (ps->calls_line &&
	    edge_overflow(ps, lookup_call_edge(ps), v, n) != -1)
		return NULL;
	for (col = 0; col < ps->npos; col++)
		ps->lastpos[col] = pos[col];
	ps->in_body = 1;
	if (ps->calls_line || reports_lines(ps))
		add_costs(ps, v, n);    /* cannot fail: checked above */
	else
		add_self(ps, v, n);    /* add_costs() without its call */
	return p + (s - p) + 1;
}

/* ----------------------------------------------------- body lines */

/* ps->fn (with ps->last_id) is the new current function. */
static void enter_fn(struct parser *ps)
{
	ps->node = lookup_node(ps, ps->last_id, ps->fn, ps->ob ? ps->ob : ps->empty,
			       ps->file ? ps->file : ps->empty);
}


static int line_calls(struct parser *ps, const char *v)
{
	const char *empty = ps->empty, *e;
	uint64_t n;
	int ovf;

	e = parse_u64(v, &n, 0, &ovf);
	if (!e || !lex_end_of_token(*e))
		return perr(ps, "calls=: expected a call count, got '%.20s'", v);
	if (!ps->cfn)
		return perr(ps, "calls= without cfn=; expected cfn= to name "
			    "the called function first");
	if (ps->node == NO_NODE)
		return perr(ps, "calls= before any fn= line; expected fn= "
			    "to name the calling function first");
	ps->callee = lookup_node(ps, ps->cfn_id, ps->cfn,
				      ps->cob ? ps->cob : ps->ob ? ps->ob : empty,
				      ps->cfi ? ps->cfi : ps->file ? ps->file : empty);
	ps->pending_calls = n;
	ps->calls_line = ps->lineno;
	return CGU_OK;
}

static int line_jump(struct parser *ps, const char *key, const char *v)
{
	uint64_t a, b;
	int ovf;
	const char *e = parse_u64(v, &a, 0, &ovf);

	if (e && key[1] == 'c') {      /* jcnd=E/N or jcnd=E N */
		e = (*e == '/' || *e == ' ') ? parse_u64(e + 1, &b, 0, &ovf) : NULL;
	}
	if (!e || !lex_end_of_token(*e))
		return perr(ps, "%s=: expected %s, got '%.20s'", key,
			    key[1] == 'c' ? "'EXECUTED/JUMPED' counts"
			    : "a jump count", v);
	ps->p->njumps++;
	return CGU_OK;
}

enum body_kind { BK_FN, BK_CFN, BK_CALLS, BK_JUMP, BK_NAME };
enum { SLOT_OB, SLOT_FILE, SLOT_COB, SLOT_CFI, SLOT_NONE };

struct body_key {
	const char *key;
	size_t len;
	enum body_kind kind;
	enum space sp;
	int slot;
};

enum {
	K_FN, K_CFN, K_CALLS, K_CFI, K_COB, K_FL, K_OB, K_FI, K_FE, K_CFL,
	K_JUMP, K_JCND, K_JFI, K_JFN, NKEYS
};

static const struct body_key body_keys[NKEYS] = {
	[K_FN] = { "fn", 2, BK_FN, SP_FN, SLOT_NONE },
	[K_CFN] = { "cfn", 3, BK_CFN, SP_FN, SLOT_NONE },
	[K_CALLS] = { "calls", 5, BK_CALLS, SP_FN, SLOT_NONE },
	[K_CFI] = { "cfi", 3, BK_NAME, SP_FILE, SLOT_CFI },
	[K_COB] = { "cob", 3, BK_NAME, SP_OB, SLOT_COB },
	[K_FL] = { "fl", 2, BK_NAME, SP_FILE, SLOT_FILE },
	[K_OB] = { "ob", 2, BK_NAME, SP_OB, SLOT_OB },
	[K_FI] = { "fi", 2, BK_NAME, SP_FILE, SLOT_FILE },
	[K_FE] = { "fe", 2, BK_NAME, SP_FILE, SLOT_FILE },
	[K_CFL] = { "cfl", 3, BK_NAME, SP_FILE, SLOT_CFI },
	[K_JUMP] = { "jump", 4, BK_JUMP, SP_FN, SLOT_NONE },
	[K_JCND] = { "jcnd", 4, BK_JUMP, SP_FN, SLOT_NONE },
	[K_JFI] = { "jfi", 3, BK_NAME, SP_FILE, SLOT_NONE },
	[K_JFN] = { "jfn", 3, BK_NAME, SP_FN, SLOT_NONE },
};

static name_t *name_slot(struct parser *ps, int slot, name_t *scratch)
{
	switch (slot) {
	case SLOT_OB: return &ps->ob;
	case SLOT_FILE: return &ps->file;
	case SLOT_COB: return &ps->cob;
	case SLOT_CFI: return &ps->cfi;
	default: return scratch;
	}
}

/* The key of a line that starts "key=", or NULL.  Each character is
 * compared only once the one before it matched, so nothing past the
 * line's end (its NUL or newline) is read. */
static inline const struct body_key *match_body_key(const char *l)
{
	int i = -1;

	switch (l[0]) {
	case 'f':
		i = l[1] == 'n' ? K_FN : l[1] == 'l' ? K_FL
		  : l[1] == 'i' ? K_FI : l[1] == 'e' ? K_FE : -1;
		if (i >= 0 && l[2] != '=')
			i = -1;
		break;
	case 'o':
		if (l[1] == 'b' && l[2] == '=')
			i = K_OB;
		break;
	case 'c':
		if (l[1] == 'f') {
			i = l[2] == 'n' ? K_CFN : l[2] == 'i' ? K_CFI
			  : l[2] == 'l' ? K_CFL : -1;
			if (i >= 0 && l[3] != '=')
				i = -1;
		} else if (l[1] == 'o') {
			if (l[2] == 'b' && l[3] == '=')
				i = K_COB;
		} else if (!strncmp(l, "calls=", 6)) {
			i = K_CALLS;
		}
		break;
	case 'j':
		if (l[1] == 'f') {
			i = l[2] == 'i' ? K_JFI : l[2] == 'n' ? K_JFN : -1;
			if (i >= 0 && l[3] != '=')
				i = -1;
		} else if (!strncmp(l, "jump=", 5)) {
			i = K_JUMP;
		} else if (!strncmp(l, "jcnd=", 5)) {
			i = K_JCND;
		}
		break;
	default:
		break;
	}
	return i < 0 ? NULL : &body_keys[i];
}

/* The effect of a name line of key k (not calls= or a jump) whose name
 * resolved to name, ps->last_id its id. */
static void apply_name(struct parser *ps, const struct body_key *k,
		       name_t name)
{
	name_t scratch;

	switch (k->kind) {
	case BK_FN:
		ps->fn = name;
		enter_fn(ps);
		break;
	case BK_CFN:
		ps->cfn = name;
		ps->cfn_id = ps->last_id;
		break;
	default:
		*name_slot(ps, k->slot, &scratch) = name;
		break;
	}
}

/* line..end is "key=value", eq at the '=', with key k (NULL: unknown). */
static int body_line(struct parser *ps, const struct body_key *k, char *line,
		     char *eq, const char *end)
{
	const char *v = eq + 1;
	name_t name;
	int rc;

	ps->in_body = 1;
	target(ps);
	if (!k) {
		*eq = '\0';
		return perr(ps, "unknown line '%s=...'; expected a cost line, "
			    "a header 'key: value' or one of fl= fi= fe= fn= "
			    "ob= cob= cfi= cfl= cfn= calls= jump= jcnd=", line);
	}
	switch (k->kind) {
	case BK_CALLS:
		return line_calls(ps, v);
	case BK_JUMP:
		return line_jump(ps, k->key, v);
	default:
		rc = resolve_name(ps, k->sp, k->key, v, end, &name);
		if (!rc)
			apply_name(ps, k, name);
		return rc;
	}
}

/* The fast path of the most frequent line after cost lines: a name
 * line that refers to a defined compressed id, "key=(N)\n", read
 * straight from the buffer as fast_cost_line() reads a cost line.  It
 * has the effect body_line() would have; for anything else (a
 * definition, a plain name, an unknown id, calls= and jumps, "\r\n",
 * too long) it returns NULL having changed nothing. */
static char *fast_name_line(struct parser *ps, char *p)
{
	const struct body_key *k = match_body_key(p);
	struct space_table *t;
	const char *s;
	uint64_t id;

	if (!k || ps->calls_line || k->kind == BK_CALLS ||
	    k->kind == BK_JUMP || p[k->len + 1] != '(')
		return NULL;
	s = fast_u64(p + k->len + 2, &id);
	t = &ps->spaces[k->sp];
	if (!s || s[0] != ')' || s[1] != '\n' || id >= t->cap ||
	    !t->v[id].s || (size_t)(s + 1 - p) > ps->r->max_line)
		return NULL;
	ps->in_body = 1;
	ps->last_id = (uint32_t)id;
	apply_name(ps, k, name_of(ps, t, (uint32_t)id));
	return (char *)s + 2;
}

static int is_cost_start(char c)
{
	return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*';
}


/* line[0..len) is a whole line, NUL-terminated. */
static int parse_line(struct parser *ps, char *line, size_t len)
{
	const struct body_key *k;
	char *p;

	if (is_cost_start(*line)) {
		ps->in_body = 1;
		return cost_line(ps, line);
	}
	p = (char *)lex_skip_space(line);
	if (ps->lineno == 1 && !strcmp(line, "# callgrind stacks"))
		return perr(ps, "a stacks file (callgrind --collect-stacks=yes), "
			    "not a profile; expected a Callgrind profile here "
			    "(fold, flamegraph, speedscope, summary and json "
			    "read stacks files)");
	if (*p == '\0' || *p == '#')
		return CGU_OK;
	if (ps->calls_line)
		return perr(ps, "expected the inclusive cost line of the "
			    "calls= at line %lu, got '%.40s'", ps->calls_line,
			    line);
	k = match_body_key(line);
	if (k)
		return body_line(ps, k, line, line + k->len, line + len);
	for (p = line; lex_is_key_char(*p); p++)
		;
	if (p != line && *p == '=')
		return body_line(ps, NULL, line, p, line + len);
	if (p != line && *p == ':')
		return header_line(ps, line, p);
	return perr(ps, "expected a header 'key: value', a 'key=value' "
		    "line or a cost line, got '%.40s'", line);
}

static int finish_input(struct parser *ps)
{
	int rc;

	if (ps->calls_line)
		return perr(ps, "unexpected end of file: calls= at line %lu "
			    "expects its inclusive cost line (truncated file?)",
			    ps->calls_line);
	if (!ps->nev)
		return perr(ps, "no 'events:' header found; expected a "
			    "Callgrind profile");
	rc = end_part(ps);
	if (rc)
		return rc;
	if (ps->p)
		cgu_profile_finish(ps->p);
	return CGU_OK;
}

static int run(struct parser *ps)
{
	struct cgu_reader *r = ps->r;
	char *line;
	size_t len;
	int rc;

	for (;;) {
		if (r->start < r->complete) {
			char *p = r->buf + r->start;
			char *next = is_cost_start(*p) ? fast_cost_line(ps, p)
						       : fast_name_line(ps, p);

			if (next) {
				ps->lineno++;
				r->start = (size_t)(next - r->buf);
				continue;
			}
		}
		rc = cgu_reader_line(r, &line, &len);
		if (rc == 0)
			return finish_input(ps);
		ps->lineno++;
		if (rc == -1)
			return cgu_reader_read_error(r, ps->name, ps->err);
		if (rc == -2)
			return perr(ps, "line longer than %zu bytes; expected "
				    "shorter lines (see --max-line)",
				    ps->r->max_line);
		if (rc == -3)
			return perr(ps, "NUL byte in line; expected text");
		rc = parse_line(ps, line, len);
		if (rc)
			return rc;
	}
}

static void parser_init(struct parser *ps, const char *name,
			const struct cgu_parse_opts *opts,
			struct cgu_profile_set *set, struct cgu_error *err,
			struct cgu_reader *r)
{
	size_t i;

	memset(ps, 0, sizeof(*ps));
	ps->name = name;
	ps->opts = opts;
	ps->set = set;
	ps->err = err;
	ps->r = r;
	ps->npos = 1;
	ps->node = NO_NODE;
	ps->last_id = ps->cfn_id = NO_ID;
	for (i = 0; i < NSPACES; i++)
		cgu_itab_init(&ps->spaces[i].plain_tab);
	if (!ps->opts->separate_parts && set->n) {
		ps->p = set->v[0];
		ps->empty = cgu_profile_intern(ps->p, "", 0);
	}
}

static void parser_release(struct parser *ps)
{
	size_t i;

	for (i = 0; i < NSPACES; i++) {
		free(ps->spaces[i].v);
		free(ps->spaces[i].plain);
		cgu_itab_release(&ps->spaces[i].plain_tab);
	}
	cgu_arena_release(&ps->arena);
	if (ps->p && ps->opts->separate_parts)
		cgu_profile_finish(ps->p);
}


int cgu_parse_reader(struct cgu_reader *r, const char *name,
		     const struct cgu_parse_opts *opts,
		     struct cgu_profile_set *set, struct cgu_error *err)
{
	struct parser ps;
	int rc;

	parser_init(&ps, name, lex_opts(opts), set, err, r);
	rc = run(&ps);
	parser_release(&ps);
	return rc;
}

int cgu_parse_mem(const char *data, size_t len, const char *name,
		  const struct cgu_parse_opts *opts,
		  struct cgu_profile_set *set, struct cgu_error *err)
{
	struct cgu_reader r;
	int rc;

	cgu_reader_init(&r, lex_opts(opts), len + 1);
	cgu_reader_mem(&r, data, len);
	rc = cgu_parse_reader(&r, name ? name : "<memory>", opts, set, err);
	cgu_reader_release(&r);
	return rc;
}

int cgu_parse_file(const char *path, const struct cgu_parse_opts *opts,
		   struct cgu_profile_set *set, struct cgu_error *err)
{
	struct cgu_reader r;
	int rc;

	cgu_reader_init(&r, lex_opts(opts), 0);
	rc = cgu_reader_open(&r, path, err);
	if (!rc)
		rc = cgu_parse_reader(&r, strcmp(path, "-") ? path : "<stdin>",
				      opts, set, err);
	cgu_reader_release(&r);
	return rc;
}

struct cgu_profile *cgu_load(const char *const *paths, size_t npaths,
			     const struct cgu_parse_opts *opts,
			     struct cgu_error *err)
{
	struct cgu_parse_opts o = opts ? *opts : (struct cgu_parse_opts){ 0 };
	struct cgu_profile_set set;
	struct cgu_profile *p;
	size_t i;

	o.separate_parts = 0;
	cgu_profile_set_init(&set);
	for (i = 0; i < npaths; i++) {
		if (cgu_parse_file(paths[i], &o, &set, err)) {
			cgu_profile_set_release(&set);
			return NULL;
		}
	}
	if (!set.n) {
		cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no input files");
		return NULL;
	}
	p = set.v[0];
	set.n = 0;
	cgu_profile_set_release(&set);
	return p;
}
