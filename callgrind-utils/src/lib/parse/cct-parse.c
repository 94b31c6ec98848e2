/* cct-parse.c - a strict reader of the stacks files Callgrind writes with
 * --collect-stacks=yes (docs/exact-stacks.md), into a cgu_cct.
 *
 * The format, version 1, as accepted here:
 *
 *   File     := "# callgrind stacks" "version: 1" FileHead* Part+
 *   FileHead := "creator:" | "pid:" | "cmd:"     kept for every part
 *   Part     := "part: N" PartHead* Body* "totals:" Cost*
 *   PartHead := "desc:" | "events:" Name+ | "nodes: N" | "truncated: N"
 *               and FileHead keys (for this part); other keys are ignored
 *   Body     := "thread: T"                      the nodes after it are
 *                                                thread T's
 *             | "ob=(" Id ") " Name              an object
 *             | "fl=(" Id ") " Name              a source file
 *             | "fn=(" Id ") " Ob " " Fl " " Name   a frame: Ob and Fl ids
 *                                                defined before, 0 unknown;
 *                                                Name is the rest of the line
 *             | Back " " Fn " " Calls (" " Cost)*   a node: the k-th node
 *                                                line of a part is node k;
 *                                                its parent is node k - Back,
 *                                                Back 0 the thread's root
 *
 * One item a line; blank lines and lines starting with '#' are skipped
 * (the first line aside, which must be "# callgrind stacks").  Numbers
 * are unsigned decimal, 64 bits.  Every part needs events: (the first
 * part; a later one without it has the events of the part before),
 * nodes: before its first thread: or node line, and ends at totals:,
 * after which only a new part: may come.
 *
 * Checks, each an error naming file:line and what was expected:
 *  - ob/fl/fn ids are defined once in a file (they stay defined in the
 *    later parts of the file) and before their use; a node's fn id is
 *    defined, a frame's ob and fl ids are 0 or defined; frame ids are
 *    1, 2, ... in the order of their definitions.
 *  - a node's parent, Back lines before it, is a node of the same thread
 *    in the part: so the tree has no cycle and parents come first.
 *  - a node line has at most one cost per event (fewer: the rest are 0);
 *    the costs of a part add up without passing 2^64 - 1, and so do
 *    those of all parts read into one cgu_cct.
 *  - the part holds as many node lines as its nodes: line says, and its
 *    totals: line equals the sum of its nodes' costs (no_check_totals
 *    skips the latter): a file cut short fails one or the other, or has
 *    no totals: line.
 * Memory grows with the lines read, never with a number read: ob and fl
 * ids go through hash tables, frame ids come in order, node ids are
 * implicit, and nodes: is only compared.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/cct.h>
#include <callgrind-utils/folded.h>
#include "hash.h"
#include "lex.h"
#include "reader.h"

#define NONE UINT32_MAX
#define MAGIC "# callgrind stacks"

/* ------------------------------------------------------------ id maps */

/* Decimal ids as read (any 64-bit value) to a 32-bit value, with the
 * line that defined them. */
struct id_map {
	uint64_t *ids;
	uint32_t *vals;
	unsigned long *lines;
	size_t n, cap;
	struct cgu_itab tab;
};

static void id_map_init(struct id_map *m)
{
	memset(m, 0, sizeof(*m));
	cgu_itab_init(&m->tab);
}

static void id_map_release(struct id_map *m)
{
	free(m->ids);
	free(m->vals);
	free(m->lines);
	cgu_itab_release(&m->tab);
}

static int id_eq(const void *ctx, uint32_t index, const void *key)
{
	return ((const uint64_t *)ctx)[index] == *(const uint64_t *)key;
}

/* Index of id in m, or NONE. */
static uint32_t id_find(const struct id_map *m, uint64_t id)
{
	return cgu_itab_find(&m->tab, cgu_hash_u64(id), id_eq, m->ids, &id);
}

static void id_add(struct id_map *m, uint64_t id, uint32_t val,
		   unsigned long line)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->ids = realloc(m->ids, m->cap * sizeof(*m->ids));
		m->vals = realloc(m->vals, m->cap * sizeof(*m->vals));
		m->lines = realloc(m->lines, m->cap * sizeof(*m->lines));
		if (!m->ids || !m->vals || !m->lines)
			abort();
	}
	m->ids[m->n] = id;
	m->vals[m->n] = val;
	m->lines[m->n] = line;
	cgu_itab_insert(&m->tab, cgu_hash_u64(id), (uint32_t)m->n++);
}

/* ------------------------------------------------------------ parser */

enum state {
	ST_MAGIC,       /* before the first line */
	ST_VERSION,     /* before version: */
	ST_FILE,        /* file header, before the first part: */
	ST_HEAD,        /* a part's header */
	ST_BODY,        /* a part's threads and nodes */
	ST_DONE,        /* after a part's totals: */
};

struct parser {
	struct cgu_cct *c;
	struct cgu_reader *r;
	const char *name;
	const struct cgu_parse_opts *opts;
	struct cgu_error *err;
	unsigned long lineno;
	enum state state;

	/* file */
	struct id_map obs, fls;        /* ids -> string index */
	const char **strs;             /* ob= and fl= names, kept in c */
	size_t nstrs, strs_cap;
	uint32_t *frame_of;            /* frame id - 1 -> frame of c */
	unsigned long *frame_line;     /* and the line defining it */
	size_t nfns, fns_cap;
	const char *creator, *pid, *cmd;

	/* part */
	size_t part_index;
	unsigned long part_line;
	size_t nev;                    /* events of the part */
	int evmap[CGU_MAX_EVENTS];     /* part event -> cct event */
	const char *part_events[CGU_MAX_EVENTS];
	int have_nodes;
	uint64_t declared_nodes;
	unsigned long nodes_line;
	uint64_t nnodes;
	int in_thread;
	uint32_t thread;
	cgu_cost sum[CGU_MAX_EVENTS];  /* by part event */
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



/* An unsigned decimal number at s ending at a space or the line's end;
 * the end of it, or NULL with the error made (what names the field). */
static const char *number(struct parser *ps, const char *s, uint64_t *out,
			  const char *what)
{
	const char *start = s;
	uint64_t v = 0;

	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10) {
			perr(ps, "%s does not fit in 64 bits", what);
			return NULL;
		}
		v = v * 10 + d;
	}
	if (s == start || !lex_end_of_token(*s)) {
		perr(ps, "expected a number for %s, got '%.20s'", what, start);
		return NULL;
	}
	*out = v;
	return s;
}

/* "N" as the whole value of a header line. */
static int header_number(struct parser *ps, const char *key, const char *v,
			 uint64_t *out)
{
	char what[32];
	const char *e;

	snprintf(what, sizeof(what), "%s:", key);
	e = number(ps, v, out, what);
	if (!e)
		return CGU_EINPUT;
	if (*lex_skip_space(e))
		return perr(ps, "%s expected one number, got '%.20s'", what, v);
	return CGU_OK;
}

/* Costs at s, at most one per event of the part, into v (the rest 0). */
static int costs(struct parser *ps, const char *s, cgu_cost *v)
{
	size_t n = 0;

	memset(v, 0, ps->nev * sizeof(*v));
	while (*(s = lex_skip_space(s))) {
		char what[80];

		if (n == ps->nev)
			return perr(ps, "expected at most %zu costs (one per "
				    "event of the events: line), got more",
				    ps->nev);
		snprintf(what, sizeof(what), "the cost of event %s",
			 ps->part_events[n]);
		s = number(ps, s, &v[n], what);
		if (!s)
			return CGU_EINPUT;
		n++;
	}
	return CGU_OK;
}

/* ------------------------------------------------------------ parts */

/* The part being read (its pointer moves as parts are added). */
static struct cgu_cct_part *part(struct parser *ps)
{
	return &ps->c->parts[ps->part_index];
}

static void reset_part(struct parser *ps)
{
	memset(ps->sum, 0, sizeof(ps->sum));
	ps->have_nodes = 0;
	ps->nnodes = 0;
	ps->in_thread = 0;
}

static int start_part(struct parser *ps, const char *v)
{
	struct cgu_cct_part *pt;

	if (ps->state == ST_HEAD || ps->state == ST_BODY)
		return perr(ps, "part: before the totals: line of the part at "
			    "line %lu; expected totals: to end it first",
			    ps->part_line);
	reset_part(ps);
	pt = cgu_cct_add_part(ps->c, ps->name);
	ps->part_index = ps->c->nparts - 1;
	ps->part_line = ps->lineno;
	pt->part = cgu_cct_strdup(ps->c, v);
	pt->creator = ps->creator;
	pt->pid = ps->pid;
	pt->cmd = ps->cmd;
	ps->state = ST_HEAD;
	return CGU_OK;
}

/* Map the part's events onto the tree's, which the first part sets. */
static int bind_events(struct parser *ps)
{
	struct cgu_cct *c = ps->c;
	size_t e;

	if (!c->nevents)
		cgu_cct_set_events(c, ps->part_events, ps->nev, NULL);
	for (e = 0; e < ps->nev; e++) {
		ps->evmap[e] = cgu_cct_event(c, ps->part_events[e]);
		if (ps->evmap[e] < 0)
			return perr(ps, "events: event '%s' is not in the "
				    "events of the first part; expected the "
				    "same events in every part and file",
				    ps->part_events[e]);
	}
	return CGU_OK;
}

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
		ps->part_events[n++] = cgu_arena_strndup(&ps->c->arena, v, len);
		v += len;
	}
	if (!n)
		return perr(ps, "events: expected at least one event name");
	ps->nev = n;
	return bind_events(ps);
}

/* The part's header is complete: the first thread:, node or totals:. */
static int need_header(struct parser *ps, const char *what)
{
	if (ps->state == ST_DONE)
		return perr(ps, "%s after the totals: line of the part; "
			    "expected 'part:' to start another part", what);
	if (ps->state != ST_HEAD && ps->state != ST_BODY)
		return perr(ps, "%s before any part; expected 'part: N' to "
			    "start a part", what);
	if (!ps->nev)
		return perr(ps, "%s before the events: line; expected "
			    "'events: NAME...' in the part's header", what);
	if (!ps->have_nodes)
		return perr(ps, "%s before the nodes: line; expected 'nodes: "
			    "N' in the part's header", what);
	return CGU_OK;
}

static int end_part(struct parser *ps, const char *v)
{
	struct cgu_cct *c = ps->c;
	cgu_cost declared[CGU_MAX_EVENTS];
	size_t e;
	int rc;

	if ((rc = need_header(ps, "totals:")) || (rc = costs(ps, v, declared)))
		return rc;
	if (ps->nnodes != ps->declared_nodes)
		return perr(ps, "nodes: (line %lu) gives %llu nodes but the "
			    "part has %llu; expected as many node lines "
			    "(truncated file?)", ps->nodes_line,
			    (unsigned long long)ps->declared_nodes,
			    (unsigned long long)ps->nnodes);
	for (e = 0; e < ps->nev && !ps->opts->no_check_totals; e++)
		if (declared[e] != ps->sum[e])
			return perr(ps, "totals: gives %s=%llu but the node "
				    "lines add up to %llu; expected equal "
				    "totals (truncated file?)",
				    ps->part_events[e],
				    (unsigned long long)declared[e],
				    (unsigned long long)ps->sum[e]);
	for (e = 0; e < ps->nev; e++) {
		cgu_cost *all = &c->totals[ps->evmap[e]];

		if (__builtin_add_overflow(*all, ps->sum[e], all))
			return perr(ps, "the costs of event %s over all parts "
				    "read add up past 2^64 - 1",
				    ps->part_events[e]);
		part(ps)->totals[ps->evmap[e]] = ps->sum[e];
	}
	ps->state = ST_DONE;
	return CGU_OK;
}

/* ------------------------------------------------------------ headers */

static const char **file_slot(struct parser *ps, const char *key)
{
	if (!strcmp(key, "creator"))
		return &ps->creator;
	if (!strcmp(key, "pid"))
		return &ps->pid;
	if (!strcmp(key, "cmd"))
		return &ps->cmd;
	return NULL;
}

/* A key of the header of a part, in the file's header. */
static int is_part_key(const char *key)
{
	return !strcmp(key, "events") || !strcmp(key, "nodes") ||
	       !strcmp(key, "truncated") || !strcmp(key, "desc");
}

/* A key of a part's header (state ST_HEAD). */
static int part_header(struct parser *ps, const char *key, const char *v)
{
	struct cgu_cct_part *pt = part(ps);
	int rc;

	if (!strcmp(key, "events"))
		return header_events(ps, v);
	if (!strcmp(key, "nodes")) {
		if ((rc = header_number(ps, key, v, &ps->declared_nodes)))
			return rc;
		ps->have_nodes = 1;
		ps->nodes_line = ps->lineno;
		return CGU_OK;
	}
	if (!strcmp(key, "truncated"))
		return header_number(ps, key, v, &pt->truncated);
	if (!strcmp(key, "desc")) {
		if (!pt->desc)         /* the first, the trigger */
			pt->desc = cgu_cct_strdup(ps->c, v);
	} else if (!strcmp(key, "creator")) {
		pt->creator = cgu_cct_strdup(ps->c, v);
	} else if (!strcmp(key, "pid")) {
		pt->pid = cgu_cct_strdup(ps->c, v);
	} else if (!strcmp(key, "cmd")) {
		pt->cmd = cgu_cct_strdup(ps->c, v);
	}
	return CGU_OK;      /* other keys: for later versions, ignored */
}

static int header_line(struct parser *ps, char *line, char *colon)
{
	const char *key = line, *v = lex_skip_space(colon + 1);
	const char **slot;
	uint64_t n;
	int rc;

	*colon = '\0';
	if (ps->state == ST_VERSION) {
		if (strcmp(key, "version"))
			return perr(ps, "expected 'version: 1' after '" MAGIC
				    "', got '%s:'", key);
		if (strcmp(v, "1"))
			return perr(ps, "version: expected 1, got '%.20s'", v);
		ps->state = ST_FILE;
		return CGU_OK;
	}
	if (!strcmp(key, "part"))
		return start_part(ps, v);
	if (!strcmp(key, "totals"))
		return end_part(ps, v);
	if (!strcmp(key, "thread")) {
		if ((rc = need_header(ps, "thread:")) ||
		    (rc = header_number(ps, key, v, &n)))
			return rc;
		if (n > UINT32_MAX - 1)
			return perr(ps, "thread: expected a thread id below "
				    "2^32 - 1, got %llu",
				    (unsigned long long)n);
		ps->thread = (uint32_t)n;
		ps->in_thread = 1;
		ps->state = ST_BODY;
		return CGU_OK;
	}
	switch (ps->state) {
	case ST_FILE:
		if ((slot = file_slot(ps, key)))
			*slot = cgu_cct_strdup(ps->c, v);
		else if (is_part_key(key))
			return perr(ps, "%s: before any part; expected "
				    "'part: N' to start a part first", key);
		return CGU_OK;
	case ST_HEAD:
		return part_header(ps, key, v);
	default:
		return perr(ps, "unexpected header '%s:' %s; expected it in "
			    "the header of a part, after 'part:'", key,
			    ps->state == ST_BODY ? "among the nodes"
			    : "after totals:");
	}
}

/* ------------------------------------------------------------ body */

/* "(N)" at s: the id, and the rest of the line after one or more
 * spaces in *rest. */
static int def_id(struct parser *ps, const char *key, const char *s,
		  uint64_t *id, const char **rest)
{
	const char *e = s + 1;
	uint64_t v = 0;

	if (*s != '(' || *e < '0' || *e > '9')
		return perr(ps, "%s=: expected '(N) ...' defining id N, got "
			    "'%.20s'", key, s);
	for (; *e >= '0' && *e <= '9'; e++) {
		if (v > (UINT64_MAX - (unsigned)(*e - '0')) / 10)
			return perr(ps, "%s=: the id does not fit in 64 bits",
				    key);
		v = v * 10 + (unsigned)(*e - '0');
	}
	if (*e != ')' || (e[1] != ' ' && e[1] != '\t'))
		return perr(ps, "%s=: expected '(N) ...' defining id N, got "
			    "'%.20s'", key, s);
	*id = v;
	*rest = lex_skip_space(e + 1);
	return CGU_OK;
}

static int check_new_id(struct parser *ps, const char *key,
			const struct id_map *m, uint64_t id)
{
	uint32_t i = id_find(m, id);

	if (i != NONE)
		return perr(ps, "%s=(%llu): id already defined at line %lu; "
			    "expected every id defined once in a file", key,
			    (unsigned long long)id, m->lines[i]);
	if (!id)
		return perr(ps, "%s=(0): expected an id other than 0, which "
			    "stands for unknown", key);
	return CGU_OK;
}

/* ob=(N) name or fl=(N) name */
static int def_name(struct parser *ps, const char *key, struct id_map *m,
		    const char *v)
{
	const char *name;
	uint64_t id;
	int rc;

	if ((rc = def_id(ps, key, v, &id, &name)) ||
	    (rc = check_new_id(ps, key, m, id)))
		return rc;
	if (!*name)
		return perr(ps, "%s=(%llu): expected a name after the id", key,
			    (unsigned long long)id);
	if (ps->nstrs == ps->strs_cap) {
		ps->strs_cap = ps->strs_cap ? ps->strs_cap * 2 : 64;
		ps->strs = realloc(ps->strs, ps->strs_cap * sizeof(*ps->strs));
		if (!ps->strs)
			abort();
	}
	ps->strs[ps->nstrs] = cgu_cct_strdup(ps->c, name);
	id_add(m, id, (uint32_t)ps->nstrs++, ps->lineno);
	return CGU_OK;
}

/* An ob or fl id of a fn= line: 0 (unknown, "") or defined. */
static const char *ref_name(struct parser *ps, const struct id_map *m,
			    const char *key, uint64_t id, uint64_t fn)
{
	uint32_t i;

	if (!id)
		return "";
	i = id_find(m, id);
	if (i == NONE) {
		perr(ps, "fn=(%llu): %s id %llu is not defined; expected "
		     "'%s=(%llu) name' on a line before",
		     (unsigned long long)fn, key, (unsigned long long)id, key,
		     (unsigned long long)id);
		return NULL;
	}
	return ps->strs[m->vals[i]];
}

/* fn=(N) ob fl name, N the next frame id */
static int def_frame(struct parser *ps, const char *v)
{
	const char *s, *ob, *fl;
	uint64_t id, obid, flid;
	int rc;

	if ((rc = def_id(ps, "fn", v, &id, &s)))
		return rc;
	if (id && id <= ps->nfns)
		return perr(ps, "fn=(%llu): id already defined at line %lu; "
			    "expected every id defined once in a file",
			    (unsigned long long)id, ps->frame_line[id - 1]);
	if (id != ps->nfns + 1)
		return perr(ps, "fn=(%llu): expected id %zu, the next frame id "
			    "(frame ids are 1, 2, ... in the order they are "
			    "defined)", (unsigned long long)id, ps->nfns + 1);
	if (!(s = number(ps, s, &obid, "the object id of fn=")) ||
	    !(s = number(ps, lex_skip_space(s), &flid, "the file id of fn=")))
		return CGU_EINPUT;
	s = lex_skip_space(s);
	if (!*s)
		return perr(ps, "fn=(%llu): expected a name after the object "
			    "and file ids", (unsigned long long)id);
	if (!(ob = ref_name(ps, &ps->obs, "ob", obid, id)) ||
	    !(fl = ref_name(ps, &ps->fls, "fl", flid, id)))
		return CGU_EINPUT;
	if (ps->nfns == ps->fns_cap) {
		ps->fns_cap = ps->fns_cap ? ps->fns_cap * 2 : 64;
		ps->frame_of = realloc(ps->frame_of,
				       ps->fns_cap * sizeof(*ps->frame_of));
		ps->frame_line = realloc(ps->frame_line,
					 ps->fns_cap * sizeof(*ps->frame_line));
		if (!ps->frame_of || !ps->frame_line)
			abort();
	}
	if (ps->c->nframes >= NONE - 1)
		return perr(ps, "too many frames");
	ps->frame_of[ps->nfns] = cgu_cct_frame(ps->c, s, ob, fl);
	ps->frame_line[ps->nfns++] = ps->lineno;
	return CGU_OK;
}

static int def_line(struct parser *ps, const char *line)
{
	if (ps->state != ST_HEAD && ps->state != ST_BODY)
		return perr(ps, "%.3s line %s; expected it inside a part",
			    line, ps->state == ST_DONE ? "after totals:"
			    : "before any part");
	if (!strncmp(line, "ob=", 3))
		return def_name(ps, "ob", &ps->obs, line + 3);
	if (!strncmp(line, "fl=", 3))
		return def_name(ps, "fl", &ps->fls, line + 3);
	return def_frame(ps, line + 3);
}

/* The parent of node k of the part, back node lines before it: the
 * thread's root (0) or a node of the same thread. */
static int parent_node(struct parser *ps, uint64_t k, uint64_t back,
		       uint32_t *out)
{
	const struct cgu_cct_node *n;

	*out = CGU_CCT_ROOT;
	if (!back)
		return CGU_OK;
	if (back >= k)
		return perr(ps, "node %llu: its parent, %llu nodes back, is "
			    "before the part's first node; expected 0 (the "
			    "thread's root) or the distance back to an "
			    "earlier node of the part", (unsigned long long)k,
			    (unsigned long long)back);
	*out = (uint32_t)(part(ps)->first + (k - back - 1));
	n = &ps->c->nodes[*out];
	if (n->thread != ps->thread)
		return perr(ps, "node %llu: its parent, node %llu, is a node "
			    "of thread %u; expected a node of this thread, %u",
			    (unsigned long long)k,
			    (unsigned long long)(k - back), n->thread,
			    ps->thread);
	return CGU_OK;
}

static int node_line(struct parser *ps, const char *s)
{
	struct cgu_cct *c = ps->c;
	uint64_t k = ps->nnodes + 1, back, fn, calls;
	cgu_cost v[CGU_MAX_EVENTS], *self;
	uint32_t up, node;
	size_t e;
	int rc;

	if ((rc = need_header(ps, "node line")))
		return rc;
	if (!ps->in_thread)
		return perr(ps, "node line before any thread: line; expected "
			    "'thread: N' first");
	if (!(s = number(ps, s, &back, "the distance back to the parent")) ||
	    !(s = number(ps, lex_skip_space(s), &fn, "the fn id")) ||
	    !(s = number(ps, lex_skip_space(s), &calls, "the calls")))
		return CGU_EINPUT;
	if ((rc = costs(ps, s, v)) || (rc = parent_node(ps, k, back, &up)))
		return rc;
	if (!fn || fn > ps->nfns)
		return perr(ps, "fn id %llu is not defined; expected "
			    "'fn=(%llu) OB FL name' on a line before",
			    (unsigned long long)fn, (unsigned long long)fn);
	if (ps->nnodes == ps->declared_nodes)
		return perr(ps, "a node line beyond the %llu that nodes: (line "
			    "%lu) gives; expected nodes: to count every node "
			    "line", (unsigned long long)ps->declared_nodes,
			    ps->nodes_line);
	if (c->nnodes >= NONE - 1)
		return perr(ps, "too many nodes");
	for (e = 0; e < ps->nev; e++)
		if (__builtin_add_overflow(ps->sum[e], v[e], &ps->sum[e]))
			return perr(ps, "the costs of event %s in this part "
				    "add up past 2^64 - 1",
				    ps->part_events[e]);
	node = cgu_cct_add_node(c, up, ps->frame_of[fn - 1], ps->thread, calls);
	self = cgu_cct_self(c, node);
	for (e = 0; e < ps->nev; e++)
		self[ps->evmap[e]] = v[e];
	ps->nnodes++;
	return CGU_OK;
}


static int parse_line(struct parser *ps, char *line)
{
	char *p;

	if (ps->state == ST_MAGIC) {
		if (strcmp(line, MAGIC))
			return perr(ps, "expected '" MAGIC "' on the first "
				    "line (a stacks file of callgrind "
				    "--collect-stacks=yes), got '%.40s'", line);
		ps->state = ST_VERSION;
		return CGU_OK;
	}
	p = (char *)lex_skip_space(line);
	if (*p == '\0' || *p == '#')
		return CGU_OK;
	if (*line >= '0' && *line <= '9')
		return node_line(ps, line);
	if (!strncmp(line, "ob=", 3) || !strncmp(line, "fl=", 3) ||
	    !strncmp(line, "fn=", 3))
		return def_line(ps, line);
	for (p = line; lex_is_key_char(*p); p++)
		;
	if (p != line && *p == ':')
		return header_line(ps, line, p);
	return perr(ps, "expected a header 'key: value', an ob=, fl= or fn= "
		    "line or a node line, got '%.40s'", line);
}

static int finish(struct parser *ps)
{
	switch (ps->state) {
	case ST_MAGIC:
		return cgu_error_set(ps->err, CGU_EINPUT, ps->name, 0,
				     "empty file; expected '" MAGIC "' on "
				     "the first line");
	case ST_VERSION:
		return perr(ps, "unexpected end of file; expected "
			    "'version: 1'");
	case ST_FILE:
		return perr(ps, "unexpected end of file; expected 'part: N' "
			    "and a part");
	case ST_HEAD:
	case ST_BODY:
		return perr(ps, "unexpected end of file: the part at line %lu "
			    "has no totals: line (truncated file?)",
			    ps->part_line);
	case ST_DONE:
		break;
	}
	return CGU_OK;
}

static int run(struct parser *ps)
{
	char *line;
	size_t len;
	int rc;

	for (;;) {
		rc = cgu_reader_line(ps->r, &line, &len);
		if (rc == 0)
			return finish(ps);
		ps->lineno++;
		if (rc == -1)
			return cgu_reader_read_error(ps->r, ps->name, ps->err);
		if (rc == -2)
			return perr(ps, "line longer than %zu bytes; expected "
				    "shorter lines (see --max-line)",
				    ps->r->max_line);
		if (rc == -3)
			return perr(ps, "NUL byte in line; expected text");
		rc = parse_line(ps, line);
		if (rc)
			return rc;
	}
}


int cgu_cct_parse_reader(struct cgu_cct *c, struct cgu_reader *r,
			 const char *name, const struct cgu_parse_opts *o,
			 struct cgu_error *err)
{
	struct parser ps;
	int rc;

	memset(&ps, 0, sizeof(ps));
	ps.c = c;
	ps.r = r;
	ps.name = name;
	ps.opts = lex_opts(o);
	ps.err = err;
	id_map_init(&ps.obs);
	id_map_init(&ps.fls);
	rc = run(&ps);
	id_map_release(&ps.obs);
	id_map_release(&ps.fls);
	free(ps.strs);
	free(ps.frame_of);
	free(ps.frame_line);
	return rc;
}

int cgu_cct_parse_mem(struct cgu_cct *c, const char *data, size_t len,
		      const char *name, const struct cgu_parse_opts *o,
		      struct cgu_error *err)
{
	struct cgu_reader r;
	int rc;

	cgu_reader_init(&r, lex_opts(o), len + 1);
	cgu_reader_mem(&r, data, len);
	rc = cgu_cct_parse_reader(c, &r, name ? name : "<memory>", o, err);
	cgu_reader_release(&r);
	return rc;
}

int cgu_cct_parse_file(struct cgu_cct *c, const char *path,
		       const struct cgu_parse_opts *o, struct cgu_error *err)
{
	struct cgu_reader r;
	int rc;

	cgu_reader_init(&r, lex_opts(o), 0);
	rc = cgu_reader_open(&r, path, err);
	if (!rc)
		rc = cgu_cct_parse_reader(c, &r, strcmp(path, "-") ? path
					  : "<stdin>", o, err);
	cgu_reader_release(&r);
	return rc;
}

int cgu_is_stacks(const char *head, size_t len)
{
	size_t n = strlen(MAGIC);

	return len >= n && !memcmp(head, MAGIC, n) &&
	       (len == n || head[n] == '\n' || head[n] == '\r');
}

/* What the first bytes of an input are: 0 a profile, 1 a stacks file,
 * 2 folded stacks (when folded is allowed, else a profile). */
static int kind_of(const char *head, size_t len, int folded)
{
	if (cgu_is_stacks(head, len))
		return 1;
	if (!folded || cgu_folded_is_profile(head, len))
		return 0;
	return 2;
}

static int read_any(const char *path, const struct cgu_parse_opts *o,
		    struct cgu_profile_set *set, struct cgu_cct *c,
		    struct cgu_folded *f, struct cgu_error *err)
{
	struct cgu_reader r;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	const char *head;
	size_t len;
	int rc, kind = 0;

	cgu_reader_init(&r, lex_opts(o), 0);
	rc = cgu_reader_open(&r, path, err);
	if (!rc && cgu_reader_peek(&r, &head, &len))
		rc = cgu_reader_read_error(&r, name, err);
	if (!rc) {
		kind = kind_of(head, len, f != NULL);
		rc = kind == 1 ? cgu_cct_parse_reader(c, &r, name, o, err)
		   : kind == 2 ? cgu_folded_parse_reader(f, &r, name, err)
		   : cgu_parse_reader(&r, name, o, set, err);
	}
	cgu_reader_release(&r);
	return rc ? rc : kind;
}

int cgu_parse_any(const char *path, const struct cgu_parse_opts *o,
		  struct cgu_profile_set *set, struct cgu_cct *c,
		  struct cgu_error *err)
{
	return read_any(path, o, set, c, NULL, err);
}

int cgu_read_input(const char *path, const struct cgu_parse_opts *o,
		   struct cgu_profile_set *set, struct cgu_cct *c,
		   struct cgu_folded *f, struct cgu_error *err)
{
	return read_any(path, o, set, c, f, err);
}
